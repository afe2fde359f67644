"""`macaron change` with a model, end to end: the real CLI, the real Agent SDK and its bundled
CLI, real git, sandbox and browser; only the model is scripted (tests/support/model_server.py).

The change asks the model for the new spec (with the request, the app's spec and what macaron
knows that bears on it, as the gate cleared it), then the coder and its subagents change the
app in its own repo, verify and fix rounds as a make; every recorded entry is kept."""

from __future__ import annotations

import datetime as dt
import json
import shlex
import subprocess
from pathlib import Path

import pytest

from tests.support import scripted_make as script
from tests.support.addresses import non_loopback_address
from tests.support.model_server import ModelServer, Reply

pytestmark = pytest.mark.slow

CLOUD_HOST = non_loopback_address()
REQUEST = "add my pulse"
RELEVANT = "My resting pulse is about 58 beats a minute"
PRIVATE = "My pulse races whenever I think about the divorce"
DAYS = [(dt.date(2026, 11, 1) + dt.timedelta(days=n)).isoformat() for n in range(10)]


def _env(server) -> dict:
    return {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "test-key"}


def _git(app: Path, *args) -> str:
    return subprocess.run(["git", "-C", str(app), *args], capture_output=True, text=True).stdout


def _made(macaron, rows: int = 0) -> tuple[str, Path]:
    """A blood pressure app made offline, with `rows` entries recorded through its API."""
    from tests.test_one_life import post, serve

    made = json.loads(
        macaron("make", "--offline", "--yes", "--json", "blood pressure every morning", timeout=300).stdout
    )
    if rows:
        proc, url = serve(made["app"])
        try:
            for n in range(rows):
                body = {"habit": "blood_pressure", "amount": 110 + n % 30, "amount2": 70 + n % 20, "day": DAYS[n % 10]}
                post(url, "/api/entries", body)
        finally:
            proc.terminate()
            proc.wait()
    return made["app"], Path(made["path"])


def _entries(slug: str) -> list[dict]:
    from tests.test_one_life import get, serve

    proc, url = serve(slug)
    try:
        return [e for day in DAYS for e in get(url, f"/api/days/{day}")["entries"]]
    finally:
        proc.terminate()
        proc.wait()


def _with_pulse(app: Path) -> dict:
    """The app's spec now, and a pulse beside it: what the scripted model answers."""
    spec = json.loads((app / "macaron.json").read_text(encoding="utf-8"))["spec"]
    pulse = {"key": "pulse", "name": "Pulse", "unit": "bpm", "kind": "quantity"}
    return {**spec, "measures": [*spec["measures"], pulse]}


@pytest.mark.skipif(CLOUD_HOST is None, reason="needs a non-loopback address to stand for a cloud endpoint")
def test_a_change_by_the_coder_is_checkpointed_fixed_and_keeps_every_entry(macaron):
    slug, app = _made(macaron, rows=100)
    macaron("memory", "add", RELEVANT, "--domain", "health")
    macaron("memory", "add", PRIVATE, "--privacy", "private")
    answer = json.dumps({"title": "Blood pressure", "spec": _with_pulse(app)})
    # A non-loopback server: to macaron a cloud endpoint, as Claude is.
    with ModelServer(script.build_and_fix(), host=CLOUD_HOST, spec=lambda req: Reply.text(answer)) as server:
        run = macaron("change", slug, REQUEST, "--yes", "--json", env=_env(server), timeout=900)
        spec_requests, requests, everything = list(server.spec_requests), list(server.requests), server.all_bytes()
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout)
    # make's shape, with the request and each spec field before → after
    assert out["request"] == REQUEST and out["mode"] == "change" and out["status"] == "done"
    pulse = out["changed"]["measures.pulse"]
    assert pulse["before"] is None and (pulse["after"]["name"], pulse["after"]["unit"]) == ("Pulse", "bpm")
    assert out["tests"] == "passed" and out["opened"] is True and out["cost_usd"] > 0
    assert {"app", "path", "checkpoints", "phases", "tokens", "spec"} <= set(out)

    # The model heard the request, the app's spec now and the memory that bears on it; never the private one.
    asked = script._first_user_text(spec_requests[0])
    assert REQUEST in asked and RELEVANT in asked
    spec_now = json.loads(asked.split("The app's spec now (change only what the request asks):\n")[1])
    assert [m["key"] for m in spec_now["measures"]] == ["blood_pressure"]
    assert any(REQUEST in r.raw for r in requests), "the request never reached the coder"
    assert PRIVATE not in everything and "divorce" not in everything

    # The change and its fix round are checkpoints; the subagents' writes landed in change-1.
    phases = [(c["phase"], c["tests"]) for c in out["checkpoints"]]
    assert phases == [("scaffold", "passed"), ("change-1", "failed"), ("change-1-fix-1", "passed")]
    change_1 = out["checkpoints"][1]
    assert REQUEST in change_1["message"]
    written = _git(app, "show", "--name-only", "--format=", change_1["commit"]).split()
    assert script.NOTE_FILE in written and script.TEST_FILE in written and "macaron.json" in written
    assert any(script.BROKEN_MARK in r.raw and script.FIX_PROMPT_MARK in r.raw for r in requests)
    assert not _git(app, "status", "--porcelain").strip()

    # Every entry recorded before the change is still there, through the app's own API.
    entries = _entries(slug)
    assert len(entries) == 100 and {e["habit"] for e in entries} == {"blood_pressure"}

    # The ledger: `why` shows the change (its mode, where it went, its cost); `rate` rates it.
    why = macaron("why", slug)
    assert "(change-1, by Claude (sent to" in why.stdout and f"“{REQUEST}”" in why.stdout
    rated = macaron("rate", slug, "5")
    assert rated.returncode == 0 and f"{slug}'s change-1 (“{REQUEST}”) rated 5/5" in rated.stdout
    assert "rated 5/5" in macaron("why", slug).stdout


def test_an_invalid_model_spec_falls_back_to_the_rules_and_a_model_error_resumes_as_printed(macaron):
    slug, app = _made(macaron)
    invalid = json.dumps({"spec": {"measures": [{"key": "Pulse Rate", "name": "Pulse", "unit": "bpm"}]}})
    with ModelServer(lambda req: Reply.error(529), spec=lambda req: Reply.text(invalid)) as server:
        run = macaron("change", slug, REQUEST, "--yes", env=_env(server), timeout=600)
    assert run.returncode == 1, run.stdout + run.stderr
    said = run.stdout + run.stderr
    assert "the model's spec was not valid" in said and "the rules wrote it" in said and "Traceback" not in said
    # The rules' spec is written and kept at a checkpoint, the repo clean.
    spec = json.loads((app / "macaron.json").read_text(encoding="utf-8"))["spec"]
    assert [m["key"] for m in spec["measures"]] == ["blood_pressure", "pulse"]
    phases = [c["phase"] for c in json.loads(macaron("checkpoints", slug, "--json").stdout)]
    assert phases == ["scaffold", "change-1-stopped"]
    assert not _git(app, "status", "--porcelain").strip()

    hint = run.stdout.split("continue with `")[1].split("`")[0]
    assert hint == f"macaron change {slug} --resume"
    with ModelServer(lambda req: Reply.text("Changed.")) as server:
        again = macaron(*shlex.split(hint)[1:], env=_env(server), timeout=600)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"changed: {REQUEST}" in again.stdout and "measures.pulse: —" in again.stdout
    undo = again.stdout.split("undo it: ")[1].split("\n")[0].strip()
    assert undo == f"macaron rollback {slug} --steps 2 --yes"  # the stop and the change
    phases = [c["phase"] for c in json.loads(macaron("checkpoints", slug, "--json").stdout)]
    assert phases == ["scaffold", "change-1-stopped", "change-1"]
    assert macaron(*shlex.split(undo)[1:]).returncode == 0
    assert [m["key"] for m in json.loads((app / "macaron.json").read_text())["spec"]["measures"]] == ["blood_pressure"]
    for seen in ("resume", "change-1", "verify"):  # progress names the change's phases
        assert seen in again.stderr


def test_a_change_by_rules_made_while_one_is_stopped_leaves_it_to_resume_as_printed(macaron):
    """A change by rules runs the make's loop too, but keeps no record: the change that
    stopped before it still goes on with the command it printed."""
    slug, app = _made(macaron)
    answer = json.dumps({"title": "Blood pressure", "spec": _with_pulse(app)})
    with ModelServer(lambda req: Reply.error(529), spec=lambda req: Reply.text(answer)) as server:
        run = macaron("change", slug, REQUEST, "--yes", env=_env(server), timeout=600)
    assert run.returncode == 1, run.stdout + run.stderr
    hint = run.stdout.split("continue with `")[1].split("`")[0]

    by_rules = macaron("change", slug, "rename the app to “Morning pressure”", "--offline", "--yes", timeout=300)
    assert by_rules.returncode == 0, by_rules.stdout + by_rules.stderr
    assert "title: " in by_rules.stdout and "→ Morning pressure" in by_rules.stdout
    phases = [c["phase"] for c in json.loads(macaron("checkpoints", slug, "--json").stdout)]
    assert phases == ["scaffold", "change-1-stopped", "change-2"]

    with ModelServer(lambda req: Reply.text("Changed.")) as server:
        again = macaron(*shlex.split(hint)[1:], env=_env(server), timeout=600)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"changed: {REQUEST}" in again.stdout


@pytest.mark.parametrize(
    ("option", "checkpoints", "cloud_asked"),
    [
        ("--draft", ["scaffold", "change-1-draft", "change-1"], True),  # the local model drafts, Claude refines
        ("--local-only", ["scaffold", "change-1", "change-1-fix-1"], False),  # the local model drafts and fixes
    ],
)
def test_a_local_model_drafts_the_change(macaron, option, checkpoints, cloud_asked):
    from tests.test_make_draft import NOTE, PASSING, TEST_FILE, claude, local_model

    slug, app = _made(macaron)
    with ModelServer(local_model, model="deepseek-coder") as local, ModelServer(claude) as cloud:
        env = {**_env(cloud), "MACARON_DRAFT_URL": local.url, "MACARON_DRAFT_API": "openai"}
        run = macaron("change", slug, REQUEST, option, "--yes", "--json", env=env, timeout=600)
        drafts, refines = list(local.requests), list(cloud.requests)
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout)
    assert out["mode"] == {"--draft": "change-draft", "--local-only": "change-local"}[option]
    assert [c["phase"] for c in out["checkpoints"]] == checkpoints and out["tests"] == "passed"
    assert all(REQUEST in c["message"] for c in out["checkpoints"][1:])
    assert REQUEST in drafts[0].last_user_text() and bool(refines) is cloud_asked
    assert (app / NOTE).exists() and (app / TEST_FILE).read_text() == PASSING
    assert out["changed"]["measures.pulse"]["after"]["unit"] == "bpm"  # the rules' spec: the local one said none


def test_a_change_over_its_budget_stops_at_a_checkpoint_and_resumes_as_printed(macaron):
    """The coder's answers cost about $5 each at Claude prices (our own table) against a $1
    budget: the change stops at `change-1-stopped` with the spec written and the repo clean,
    says how to go on, and that command finishes it."""
    slug, app = _made(macaron, rows=3)
    answer = json.dumps({"title": "Blood pressure", "spec": _with_pulse(app)})

    def costly(req):
        reply = Reply.text("Still going.")
        reply.input_tokens = 1_000_000
        return reply

    with ModelServer(costly, spec=lambda req: Reply.text(answer)) as server:
        run = macaron("change", slug, REQUEST, "--budget", "1", "--yes", env=_env(server), timeout=600)
        coder_requests = len(server.requests) - len(server.spec_requests)
    assert run.returncode == 1, run.stdout + run.stderr
    said = run.stdout + run.stderr
    assert "budget" in said.lower() and "Traceback" not in said
    assert coder_requests <= 2  # stopped at the first answer over its budget
    phases = [c["phase"] for c in json.loads(macaron("checkpoints", slug, "--json").stdout)]
    assert phases == ["scaffold", "change-1-stopped"]
    assert [m["key"] for m in json.loads((app / "macaron.json").read_text())["spec"]["measures"]] == [
        "blood_pressure",
        "pulse",
    ]
    assert not _git(app, "status", "--porcelain").strip()

    hint = said.split("continue with `")[1].split("`")[0]
    assert hint == f"macaron change {slug} --resume --budget 6.00"  # what was spent and the budget again
    with ModelServer(lambda req: Reply.text("Changed.")) as server:
        again = macaron(*shlex.split(hint)[1:], env=_env(server), timeout=600)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"changed: {REQUEST}" in again.stdout
    phases = [c["phase"] for c in json.loads(macaron("checkpoints", slug, "--json").stdout)]
    assert phases == ["scaffold", "change-1-stopped", "change-1"]
    assert len(_entries(slug)) == 3  # what was recorded before the change is all there


def test_a_change_whose_model_wrote_nothing_ends_unchanged_as_make_does(macaron):
    """The coder answers in words and writes no file, and the model's spec is the app's own:
    nothing changed, and it is said so (no ✓, exit 1, `status: unchanged`), as make ends."""
    slug, app = _made(macaron)
    spec = json.loads((app / "macaron.json").read_text(encoding="utf-8"))["spec"]
    answer = json.dumps({"title": "Blood pressure", "spec": spec})
    request = "make it feel calmer"
    with ModelServer(lambda req: Reply.text("I looked and it is fine."), spec=lambda req: Reply.text(answer)) as server:
        shown = macaron("change", slug, request, "--yes", env=_env(server), timeout=600)
        run = macaron("change", slug, request, "--yes", "--json", env=_env(server), timeout=600)
    assert shown.returncode == 1, shown.stdout + shown.stderr
    assert "✓" not in shown.stdout, shown.stdout
    assert f"unchanged: {request}" in shown.stdout and "Nothing changed" in shown.stdout
    assert run.returncode == 1 and json.loads(run.stdout)["status"] == "unchanged"
    assert json.loads(run.stdout)["changed"] == {}
    assert not _git(app, "status", "--porcelain").strip()
