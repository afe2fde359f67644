"""`macaron change APP "REQUEST"` offline: the app changes as asked, in five languages, each
change a checkpoint that rollback undoes, every recorded entry still there; what the rules
cannot do is said, and nothing is written."""

from __future__ import annotations

import datetime as dt
import json
import re
import shlex
from pathlib import Path

import pytest

from macaron_cli.checkpoints import AppRepo
from tests.support.app_dirs import git
from tests.support.bench_module import bench_module

CORPUS = bench_module("change_corpus")


@pytest.mark.parametrize(("app", "request_", "want"), CORPUS.CORPUS, ids=[c[1] for c in CORPUS.CORPUS])
def test_each_request_in_the_corpus_changes_what_it_asks(macaron_home, app, request_, want):
    got, missing = CORPUS.outcome(app, request_)
    assert CORPUS.right(want, got, missing), (got, missing)


def scaffolded(idea: str, lang: str, apps_root: Path) -> str:
    """An app as an offline make writes it, short of verifying it (these tests verify in the change)."""
    from macaron_cli.apps import register
    from macaron_cli.maker.brief import Brief
    from macaron_cli.maker.choose import choose_template
    from macaron_cli.maker.scaffold import make_slug, scaffold
    from macaron_cli.reading.personal import personal_settings

    brief = Brief(idea=idea, language=lang, accent="#FF9AA2", app_settings=personal_settings(lang, []))
    template = choose_template(idea)
    slug = make_slug(idea, template.name, apps_root)
    app = scaffold(template, brief, slug, apps_root)
    AppRepo.init(app).checkpoint("scaffold", f"scaffold from {template.name}")
    register(slug, path=str(app), idea=idea, title=slug, template=template.name, created_at="2026-12-01T00:00:00")
    return slug


def manifest(macaron_home: Path, slug: str) -> dict:
    return json.loads((macaron_home.parent / "apps" / slug / "macaron.json").read_text(encoding="utf-8"))


def app_config(macaron_home: Path, slug: str) -> dict:
    return json.loads((macaron_home.parent / "apps" / slug / "config" / "app.json").read_text(encoding="utf-8"))


ENGLISH = re.compile(r"\b(rules|change|cannot|know|not|connect|template|measure|goal)\b")


def change(macaron, slug: str, request: str, *extra: str):
    return macaron("change", slug, request, "--offline", "--yes", "--json", *extra, timeout=300)


# ── refusals: said in one line, nothing written ───────────────────────────────────────────
# One sentence in the request's language (maker/refusal.py): a request no rule reads is "not a
# change the rules know", never "the rules cannot do “…”"; no English inside another language's
# sentence but the command, which ends it and runs as printed.
@pytest.mark.parametrize(
    ("request_", "unchanged"),
    [
        ("add a dark mode toggle", "Nothing changed in"),
        ("スマートウォッチと同期して", "は変えていません"),
        ("알림을 보내 줘", "바뀌지 않았어요"),
        ("加一个图表", "没有改动"),
        ("Lagyan mo ng dark mode ang app ko", "Walang nagbago"),
        ("make it feel cosier", "“make it feel cosier” is not a change the rules know;"),
        ("もっと落ち着いた感じにして", "「もっと落ち着いた感じにして」はルールで分かる変更ではありません"),
        ("좀 더 아늑한 느낌으로 해 줘", "“좀 더 아늑한 느낌으로 해 줘”는 규칙이 아는 변경이 아니에요"),
        ("让它感觉更温馨一点", "“让它感觉更温馨一点”不是规则能理解的修改"),
        ("gawin mong mas kalmado ang itsura", "ang “gawin mong mas kalmado ang itsura” ay hindi pagbabagong alam"),
    ],
)
def test_what_the_rules_cannot_do_is_said_with_how_to_get_it_and_nothing_is_written(
    macaron, macaron_home, tmp_path, request_, unchanged
):
    slug = scaffolded("track my daily water intake", "en", tmp_path / "apps")
    app = tmp_path / "apps" / slug
    before = (app / "macaron.json").read_bytes(), (app / "config" / "app.json").read_bytes()
    shown = macaron("change", slug, request_, "--offline")
    assert shown.returncode == 2, shown.stderr
    line = shown.stderr.strip()
    assert "\n" not in line and unchanged in line and "cannot do “" not in line, line
    assert line.endswith(f"macaron change {slug} {shlex.quote(request_)} --yes"), line
    if not request_.isascii() or request_.startswith(("Lagyan", "gawin")):
        assert not ENGLISH.search(line.split("macaron change")[0].replace(request_, "")), line
    assert ((app / "macaron.json").read_bytes(), (app / "config" / "app.json").read_bytes()) == before
    assert [c.phase for c in AppRepo.open(app).checkpoints()] == ["scaffold"]
    assert not git(app, "status", "--porcelain").strip()
    as_json = change(macaron, slug, request_)
    assert as_json.returncode == 2
    result = json.loads(as_json.stdout)
    assert result["changed"] == {} and result["missing"] and result["request"] == request_


# What the app already does is said, one sentence in the request's language (refusal.already,
# reading/change_ask.py's Asked.already): no English inside it, exit 2, nothing written.
ALREADY_ENGLISH = re.compile(r"\b(already|this app|amounts|units|each|records|shown|does that)\b")


@pytest.mark.parametrize(
    ("app_made", "request_", "said"),
    [
        (CORPUS.KO_CHORES, "민수 추가해줘", "이미 그래요: 민수 님은 이미 이 앱에 있어요."),
        (CORPUS.JA_WATER, "単位をミリリットルにして", "なっています: 毎日の水分補給はもうmLで記録しています。"),
        (CORPUS.ZH_WATER, "单位换成毫升", "已经是这样了：每日喝水打卡已经用mL记录了。"),
        (CORPUS.TL_BUDGET, "gawin mong peso yung currency", ": PHP na ang mga halaga."),
        (CORPUS.WATER_2L, "set the water goal to 2 liters", "goal is already 2,000 mL."),
    ],
)
def test_a_change_the_app_already_does_is_said_in_the_requests_language(
    macaron, macaron_home, tmp_path, app_made, request_, said
):
    slug = scaffolded(*app_made, tmp_path / "apps")
    app = tmp_path / "apps" / slug
    before = (app / "macaron.json").read_bytes(), (app / "config" / "app.json").read_bytes()
    shown = macaron("change", slug, request_, "--offline")
    assert shown.returncode == 2, shown.stderr
    line = shown.stderr.strip()
    assert "\n" not in line and said in line, line
    if app_made[1] != "en":
        assert not ALREADY_ENGLISH.search(line.replace(slug, "")), line
    assert ((app / "macaron.json").read_bytes(), (app / "config" / "app.json").read_bytes()) == before
    assert [c.phase for c in AppRepo.open(app).checkpoints()] == ["scaffold"]


def test_offline_with_a_local_model_option_is_refused_in_one_line_and_nothing_is_written(
    macaron, macaron_home, tmp_path
):
    slug = scaffolded("track my daily water intake", "en", tmp_path / "apps")
    shown = macaron("change", slug, "also track my coffee", "--offline", "--draft", env={"ANTHROPIC_API_KEY": "sk-x"})
    assert shown.returncode == 2
    assert "--offline uses no model" in shown.stderr and "Traceback" not in shown.stderr
    assert [c.phase for c in AppRepo.open(tmp_path / "apps" / slug).checkpoints()] == ["scaffold"]


def test_resuming_an_app_with_no_stopped_change_is_refused_with_how_to_change_it(macaron, macaron_home, tmp_path):
    slug = scaffolded("track my daily water intake", "en", tmp_path / "apps")
    shown = macaron("change", slug, "--resume")
    assert shown.returncode == 2
    assert f'no stopped change to resume; change it: macaron change {slug} "…"' in shown.stderr


def test_a_change_after_one_that_stopped_takes_the_next_number(tmp_path):
    from macaron_cli.maker.change_plan import next_change

    app = tmp_path / "app"
    app.mkdir()
    repo = AppRepo.init(app)
    # after each checkpoint, the name the next change takes
    steps = [
        ("scaffold", "change-1"),
        ("change-1-stopped", "change-2"),
        ("change-2", "change-3"),
        ("change-2-fix-1", "change-3"),
    ]
    for n, (phase, then) in enumerate(steps):
        (app / "note.txt").write_text(f"step {n}\n")
        repo.checkpoint(phase, phase)
        assert next_change(repo) == then


def test_an_empty_request_is_refused(macaron, macaron_home, tmp_path):
    slug = scaffolded("track my daily water intake", "en", tmp_path / "apps")
    shown = macaron("change", slug, "  ", "--offline")
    assert shown.returncode == 2 and "say what to change" in shown.stderr


def _into(app: Path, state: str):
    """`app` left in a state a checkpoint refuses to commit over."""
    if state == "a detached HEAD":
        git(app, "checkout", "-q", "--detach")
    elif state == "a merge":
        (app / ".git" / "MERGE_HEAD").write_text(git(app, "rev-parse", "HEAD"))
    elif state == "a rebase":
        (app / ".git" / "rebase-merge").mkdir()


@pytest.mark.parametrize("state", ["a detached HEAD", "a merge", "a rebase", "another macaron at work"])
def test_a_change_that_could_not_be_kept_is_refused_before_anything_is_written(macaron, macaron_home, tmp_path, state):
    from tests.support.app_dirs import repo_state

    slug = scaffolded("track my daily water intake", "en", tmp_path / "apps")
    app = tmp_path / "apps" / slug
    _into(app, state)
    before = repo_state(app)
    if state == "another macaron at work":
        with AppRepo.open(app).lock():
            shown = macaron("change", slug, "rename the app to Hydration", "--offline", "--yes")
    else:
        shown = macaron("change", slug, "rename the app to Hydration", "--offline", "--yes")
    assert shown.returncode == 2, shown.stdout + shown.stderr
    line = shown.stderr.strip()
    assert "\n" not in line and "Traceback" not in line
    assert ("detached HEAD" if state == "a detached HEAD" else state.split()[-1]) in line
    assert repo_state(app) == before  # macaron.json, config/app.json, refs, index: as they were


def test_a_request_longer_than_a_wish_is_refused_in_one_short_line(macaron, macaron_home, tmp_path):
    slug = scaffolded("track my daily water intake", "en", tmp_path / "apps")
    app = tmp_path / "apps" / slug
    before = (app / "macaron.json").read_bytes(), (app / "config" / "app.json").read_bytes()
    shown = macaron("change", slug, "rename the app to Hydration " * 4000, "--offline", "--yes")
    assert shown.returncode == 2
    line = shown.stderr.strip()
    assert "\n" not in line and len(line) < 300 and "at most" in line, line[:300]
    assert ((app / "macaron.json").read_bytes(), (app / "config" / "app.json").read_bytes()) == before
    made = macaron("make", "a water tracker " * 2000, "--offline", "--yes")
    assert made.returncode == 2 and len(made.stderr.strip()) < 300 and "at most" in made.stderr


TRICKS = "\x1b]0;pwned\x07\x1b[2J\u202eevil\u2066"


def test_a_requests_controls_and_bidi_marks_are_shown_never_obeyed(macaron, macaron_home, tmp_path):
    slug = scaffolded("track my daily water intake", "en", tmp_path / "apps")
    shown = macaron("change", slug, f"add a dark mode toggle {TRICKS}", "--offline")
    assert shown.returncode == 2
    said = shown.stdout + shown.stderr
    assert not any(c in said for c in "\x1b\x07\u202e\u2066"), repr(said)
    assert "␛]0;pwned␇␛[2J<U+202E>evil<U+2066>" in said  # shown, so the person sees what was asked


@pytest.mark.slow
def test_a_kept_changes_commit_message_carries_no_control_or_bidi_mark(macaron, macaron_home, tmp_path):
    slug = scaffolded("track my daily water intake", "en", tmp_path / "apps")
    app = tmp_path / "apps" / slug
    shown = macaron("change", slug, f"set the water goal to 3 liters {TRICKS}", "--offline", "--yes", timeout=300)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    said = shown.stdout + shown.stderr
    assert not any(c in said for c in "\x1b\x07\u202e\u2066"), repr(said)
    messages = git(app, "log", "--format=%B")
    assert "pwned" in messages and not any(c in messages for c in "\x1b\x07\u202e\u2066"), repr(messages)


# ── changes, verified in the browser ──────────────────────────────────────────────────────
@pytest.mark.slow
def test_three_changes_keep_all_hundred_entries_and_rollback_undoes_the_last(macaron, macaron_home):
    from tests.test_one_life import get, post, serve

    made = macaron("make", "--offline", "--yes", "--json", "blood pressure every morning", timeout=300)
    slug = json.loads(made.stdout)["app"]
    days = [(dt.date(2026, 11, 1) + dt.timedelta(days=n)).isoformat() for n in range(10)]
    proc, url = serve(slug)
    try:
        for n in range(100):
            body = {"habit": "blood_pressure", "amount": 110 + n % 30, "amount2": 70 + n % 20, "day": days[n % 10]}
            post(url, "/api/entries", body)
    finally:
        proc.terminate()
        proc.wait()

    # (renaming the measure is not among them: the habit tracker's page shows its own label
    # for it, so that change shows nothing and is undone: tests/test_page_verdict.py)
    requests = ["脈拍も記録したい", "rename the app to “BP”", "맥박은 빼 줘"]
    results = []
    for request in requests:
        shown = change(macaron, slug, request)
        assert shown.returncode == 0, shown.stdout + shown.stderr
        results.append(json.loads(shown.stdout))
    assert results[0]["changed"]["measures.pulse"]["after"]["unit"] == "bpm"
    assert list(results[1]["changed"]) == ["title"] and "+ BP" in results[1]["page_difference"]
    assert results[2]["changed"]["measures.pulse"]["after"] is None
    assert all(r["tests"] == "passed" and r["opened"] for r in results)
    spec = manifest(macaron_home, slug)["spec"]
    assert [m["key"] for m in spec["measures"]] == ["blood_pressure"]

    proc, url = serve(slug)
    try:
        entries = [e for day in days for e in get(url, f"/api/days/{day}")["entries"]]
    finally:
        proc.terminate()
        proc.wait()
    assert len(entries) == 100 and {e["habit"] for e in entries} == {"blood_pressure"}

    listed = macaron("checkpoints", slug)
    for n, request in enumerate(requests, 1):
        assert f"change-{n}" in listed.stdout and request in listed.stdout
    undone = macaron("rollback", slug, "--steps", "1", "--yes")
    assert undone.returncode == 0, undone.stderr
    assert [m["key"] for m in manifest(macaron_home, slug)["spec"]["measures"]] == ["blood_pressure", "pulse"]
    why = macaron("why", slug)
    assert "change-3" in why.stdout and "맥박은 빼 줘" in why.stdout


@pytest.mark.slow
def test_an_offline_change_keeps_the_memories_the_app_was_made_with(macaron, macaron_home):
    """`macaron why` and forget find an app by the memories its brief used: a change by the
    rules reads no memory, and must not blank the make's."""
    assert macaron("memory", "add", "I drink water from a 750 ml bottle").returncode == 0
    slug = json.loads(macaron("make", "--offline", "--yes", "--json", "a water tracker", timeout=300).stdout)["app"]

    def used() -> list:
        return json.loads((macaron_home / "apps.json").read_text(encoding="utf-8"))[slug]["memory_ids"]

    made_with = used()
    assert made_with and change(macaron, slug, "make the goal 3 liters").returncode == 0
    assert used() == made_with


def test_a_unit_change_keeps_what_each_recorded_amount_means(macaron, macaron_home, tmp_path):
    """500 ml logged, then "use cups, not ml": the app says 2 cups, never 500 cups, through its
    own API and in its digest; "imperial" shows the same records in fl oz; a rollback of the
    unit brings the millilitres back (data stays out of git: the app converts it itself)."""
    from tests.test_one_life import get, post, serve

    slug = scaffolded("track my daily water intake", "en", tmp_path / "apps")
    today = dt.date.today()
    days = [today.isoformat(), (today - dt.timedelta(days=1)).isoformat()]

    def totals() -> list[float]:
        proc, url = serve(slug)
        try:
            return [get(url, f"/api/days/{day}")["figures"]["water"]["values"][0] for day in days]
        finally:
            proc.terminate()
            proc.wait()

    proc, url = serve(slug)
    try:
        for day, amount in [(days[0], 250), (days[0], 250), (days[1], 750)]:
            post(url, "/api/entries", {"habit": "water", "amount": amount, "day": day})
    finally:
        proc.terminate()
        proc.wait()

    imperial = change(macaron, slug, "show it in imperial units")
    assert imperial.returncode == 0, imperial.stdout + imperial.stderr
    assert totals() == [500, 750]  # kept metric, shown in the person's system
    digest = macaron("apps", "digest", slug, "--json")
    assert digest.returncode == 0, digest.stderr
    assert "16.9 fl oz" in digest.stdout and "500 cups" not in digest.stdout

    cups = change(macaron, slug, "use cups, not ml")
    assert cups.returncode == 0, cups.stdout + cups.stderr
    assert json.loads(cups.stdout)["changed"]["measures.water.unit"]["after"] == "cups"
    digest = macaron("apps", "digest", slug, "--json")  # read before the app has run again
    assert "2 cups" in digest.stdout and "500 cups" not in digest.stdout, digest.stdout
    assert totals() == [2, 3]  # 500 ml are 2 cups, 750 ml are 3

    assert macaron("rollback", slug, "--steps", "1", "--yes").returncode == 0
    assert totals() == [500, 750]


@pytest.mark.slow
def test_runs_kept_in_miles_are_in_km_after_actually_use_km(macaron, macaron_home, tmp_path):
    """The measure itself was in miles, so the app's system alone changed nothing on the page:
    "actually use km" moves the measure to km and the 3 miles run before are 4.8 km."""
    from tests.test_one_life import post, serve

    slug = scaffolded("log my runs in miles", "en", tmp_path / "apps")
    proc, url = serve(slug)
    try:
        post(url, "/api/entries", {"habit": "running", "amount": 3, "day": dt.date.today().isoformat()})
    finally:
        proc.terminate()
        proc.wait()
    done = change(macaron, slug, "actually use km")
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout)
    assert result["page_difference"], done.stdout
    assert "km" in result["title"] and "mile" not in result["title"].casefold()  # the title says the unit shown
    digest = macaron("apps", "digest", slug, "--json")
    assert "4.8 km" in digest.stdout and "3 mi" not in digest.stdout, digest.stdout


CHANGES = [
    # (idea, its language, [(request, {changed path: after}), …]): each kind of change once at least.
    ("pomodoro timer", "en", [("change it to 50 on 10 off", {"timer.work": 50, "timer.rest": 10})]),
    ("save 5000 for a trip", "en", [("I'll put in 300 a month", {"money.rate": 300})]),
    (
        "workout tracker",
        "en",
        [("make the goal 3 workouts a week instead of daily", {"measures.exercise_times": None})],
    ),
    (
        "chores for me, Tom and Lily every week",
        "en",
        [
            ("Idagdag si Carlo sa mga gawain", {"tasks.assignees": ["me", "Tom", "Lily", "Carlo"]}),
            ("Tom moved out, take him off", {"tasks.assignees": ["me", "Lily", "Carlo"]}),
            ("make the chores repeat daily", {"tasks.repeat": "daily"}),
        ],
    ),
    (
        "track my monthly spending in yen",
        "en",
        # the yen budget stays in yen after the switch (never 150,000 dollars); new records in dollars
        [
            ("予算を15万円にして", {"money.budget": 150000}),
            ("改用美元", {"currency": "USD", "title": "Monthly spending in USD"}),
        ],
    ),
    (
        "a list of books I've read with a rating",
        "en",
        [("가격도 기록해 줘", {"items.attributes": ["author", "lent to", "가격"]})],
    ),
    ("count down to my wedding", "en", [("the wedding is on May 20", {"tasks.countdown": "2027-05-20"})]),
    (
        "track my daily water intake",
        "en",
        [
            ("目标改成3升", {"measures.water.goal": 3000}),
            ("show it in imperial units, in Korean", {"units": "imperial", "language": "ko"}),
            ("rename the app to “Hydration”", {"title": "Hydration"}),
        ],
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(("idea", "lang", "steps"), CHANGES, ids=[c[0] for c in CHANGES])
def test_each_kind_of_change_through_the_cli(macaron, macaron_home, tmp_path, idea, lang, steps):
    slug = scaffolded(idea, lang, tmp_path / "apps")
    for n, (request, want) in enumerate(steps, 1):
        shown = change(macaron, slug, request)
        assert shown.returncode == 0, shown.stdout + shown.stderr
        result = json.loads(shown.stdout)
        got = {path: move["after"] for path, move in result["changed"].items()}
        assert got.keys() == want.keys(), got
        assert all(want[p] is None or got[p] == want[p] for p in want), got
        assert result["checkpoints"][-1]["phase"] == f"change-{n}" and result["tests"] == "passed"
        assert result["opened"] and result["request"] == request
    cfg = app_config(macaron_home, slug)
    assert cfg.get("title") and cfg.get("language")


@pytest.mark.slow
def test_the_hints_a_change_prints_run_as_printed(macaron, macaron_home, tmp_path, monkeypatch):
    from tests.support.model_server import ModelServer, Reply
    from tests.test_hints_run import run_hint

    slug = scaffolded("track my daily water intake", "en", tmp_path / "apps")
    refused = macaron("change", slug, "add a dark mode toggle", "--offline")
    hint = "macaron change " + refused.stderr.split("macaron change ", 1)[1].strip()  # the sentence ends with it
    assert hint == f"macaron change {slug} 'add a dark mode toggle' --yes"

    # A model connected (the scripted one): the hint changes the app by the coder, in a way
    # its page shows (a change the page does not show is undone: tests/test_page_verdict.py).
    app = tmp_path / "apps" / slug
    config = json.loads((app / "config" / "app.json").read_text(encoding="utf-8"))
    shown = json.dumps({**config, "title": "Water, in the dark"}, ensure_ascii=False, indent=2)
    steps = [
        Reply.tool("Read", {"file_path": "config/app.json"}),
        Reply.tool("Write", {"file_path": "static/dark.css", "content": "body { color: white; }\n"}),
        Reply.tool("Write", {"file_path": "config/app.json", "content": shown}),
    ]

    def coder(req):
        turn = req.assistant_turns()
        return steps[turn] if turn < len(steps) else Reply.text("Added a dark mode toggle.")

    with ModelServer(coder) as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
        code, said = run_hint(hint)
        asked = server.all_bytes()
    assert code == 0, said
    assert "add a dark mode toggle" in asked and "change-1" in said and (app / "static" / "dark.css").exists()
    undo = said.split("undo it: ")[1].split()[:6]
    code, said = run_hint(" ".join(undo))
    assert code == 0, said
    assert not (app / "static" / "dark.css").exists()
