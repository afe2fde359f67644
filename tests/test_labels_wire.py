"""Labels travel: text made from a private memory stays private wherever it flows, checked at
the wire (tests/support/model_server.py records every request byte for byte).

Each path has a control: the same run with the cloud endpoint listed in `trusted_endpoints`,
where the text does go (so the first half cannot pass by sending nothing).
"""

from __future__ import annotations

import html
import json
import subprocess
import tarfile
from pathlib import Path

import pytest

from macaron_cli import config, privacy, quotes
from macaron_cli.memory import MemoryStore
from macaron_cli.models.registry import open_model
from tests.friend_support import SUMMARY_MARK, is_chat, responder
from tests.support.model_server import ModelServer, Reply

PRIVATE = "Kidney condition: drink 3 litres of water a day"
# What the local model says from it: no memory's text, but made from one.
LOCAL_ANSWER = "Given your kidneys, aim for three litres spread over the day."
LOCAL_MARK = "Given your kidneys"
LOCAL_SUMMARY = "We planned three litres a day because of the kidneys."
SUMMARY_MARK_TEXT = "because of the kidneys"


def _local_model(summary: str = LOCAL_SUMMARY):
    def respond(req):
        if SUMMARY_MARK in req.system:
            return Reply.text(summary)
        return responder(LOCAL_ANSWER)(req)

    return respond


def _conversation(monkeypatch, local: ModelServer, cloud: ModelServer, trusted: bool):
    from macaron_cli.friend.conversation import Conversation
    from macaron_cli.friend.persona import Persona

    monkeypatch.setenv("MACARON_DRAFT_URL", local.url)
    monkeypatch.setenv("MACARON_DRAFT_API", "anthropic")
    monkeypatch.setenv("MACARON_DRAFT_MODEL", "scripted")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", cloud.url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    if trusted:
        config.save_settings({"trusted_endpoints": [cloud.url]})
    store = MemoryStore.open()
    store.add(PRIVATE, domain="health", privacy="private")
    return Conversation(store, open_model("local", config.load_settings()), Persona())


def _turn(conv, text: str) -> str:
    return "".join(conv.reply(text, conv.recall_for(text)))


@pytest.mark.parametrize("trusted", [False, True], ids=["cloud", "trusted"])
def test_model_switch_leaves_turns_made_from_private_memories_behind(macaron_home, monkeypatch, trusted):
    with ModelServer(_local_model()) as local, ModelServer(responder("Pasta sounds good.")) as cloud:
        conv = _conversation(monkeypatch, local, cloud, trusted)
        assert LOCAL_MARK in _turn(conv, "How much water should I drink?")
        assert PRIVATE in local.requests[-1].raw  # the local model saw the private memory
        held = conv.switch(open_model("claude", config.load_settings()))
        _turn(conv, "What should I cook tonight?")
        conv.end()
    to_cloud = "\n".join(r.raw for r in cloud.requests)
    chats = [r for r in cloud.requests if is_chat(r)]
    assert chats and "How much water" in chats[0].raw  # the person's own turn still goes
    if trusted:
        assert held == 0 and LOCAL_MARK in chats[0].raw
    else:
        assert held == 1 and LOCAL_MARK not in to_cloud and "withheld" in chats[0].raw


@pytest.mark.parametrize("trusted", [False, True], ids=["cloud", "trusted"])
def test_a_summary_written_from_a_recalled_private_memory_is_private(macaron_home, monkeypatch, trusted):
    with ModelServer(_local_model()) as local, ModelServer(responder("Keep the bottle near.")) as cloud:
        conv = _conversation(monkeypatch, local, cloud, trusted)
        _turn(conv, "How much water should I drink?")
        [episode] = conv.end()
        assert SUMMARY_MARK_TEXT in episode.text
        assert episode.privacy == "private"  # nothing was learned; the answer it summarised was private
        from macaron_cli.friend.conversation import Conversation
        from macaron_cli.friend.persona import Persona

        later = Conversation(conv.store, open_model("claude", config.load_settings()), Persona())
        _turn(later, "Remind me about water and kidneys, what did we plan?")
        later.end()
    chats = "\n".join(r.raw for r in cloud.requests if is_chat(r))
    assert (SUMMARY_MARK_TEXT in chats) is trusted
    # The summary names the memory it was written from: forgetting that memory takes the
    # summary with it, though it says it in other words.
    [private] = [m for m in conv.store.list(limit=None) if m.text == PRIVATE]
    assert episode.id in conv.store.forget(private.id)


# ── files meant to leave: share and feedback export, escaped copies ─────────────────────
PASTED = "Mia's custody hearing & lawyer call on Tuesday"  # never in any brief: pasted by hand
NON_ASCII = "Café René is where I see my therapist"


def _app_with_pasted_code(level: str) -> tuple[str, Path]:
    """An offline app (no model saw any memory) whose code the person edited: the memories,
    HTML-escaped in a page and JSON-escaped in a data file, committed."""
    from macaron_cli.apps import register
    from macaron_cli.ledger import signals

    store = MemoryStore.open()
    store.add(PASTED, domain="family", privacy=level)
    store.add(NON_ASCII, domain="health", privacy=level)
    app = config.apps_dir() / "notes"
    (app / "static").mkdir(parents=True)
    (app / "macaron.json").write_text(json.dumps({"name": "notes", "data_files": ["data/"]}))
    (app / ".gitignore").write_text(".macaron/\ndata/\n")
    (app / "static" / "index.html").write_text("<p>hello</p>\n")
    git = ["git", "-C", str(app), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "scaffold"], check=True)
    (app / "static" / "index.html").write_text(f"<p>{html.escape(PASTED.upper())}</p>\n")
    (app / "static" / "seed.json").write_text(json.dumps({"note": NON_ASCII.replace(" ", "\n ")}) + "\n")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "my notes"], check=True)
    register("notes", path=str(app), idea="a notes app", template="habit-tracker", mode="offline")
    signals.brief_made("notes", privacy.nothing(privacy.app_folder()), template="habit-tracker", domain="family")
    return "notes", app


@pytest.mark.parametrize("level", ["private", "personal"], ids=["private", "personal-control"])
def test_share_finds_escaped_copies_of_any_unshareable_memory(macaron, tmp_path, level):
    slug, _app = _app_with_pasted_code(level)
    run = macaron("share", slug, cwd=tmp_path)
    bundles = list(tmp_path.glob("*.macaron.tar.gz"))
    if level == "personal":  # shareable: the bundle goes, with the text in it
        assert run.returncode == 0, run.stderr
        with tarfile.open(bundles[0]) as tar:
            page = tar.extractfile("code/static/index.html").read().decode()
        assert quotes.holds(page, PASTED)
    else:
        assert run.returncode == 2 and "private memory" in run.stderr and "Traceback" not in run.stderr
        assert "static/" in run.stderr and not bundles


@pytest.mark.parametrize("level", ["private", "personal"], ids=["private", "personal-control"])
def test_feedback_export_withholds_escaped_copies(macaron, tmp_path, level):
    _app_with_pasted_code(level)
    target = tmp_path / "feedback.jsonl"
    run = macaron("feedback", "export", target)
    assert run.returncode == 0, run.stderr
    exported = target.read_text()
    [record] = [json.loads(line) for line in exported.splitlines()]
    for text in (PASTED, NON_ASCII):
        assert quotes.holds(exported, text) is (level == "personal"), text
    if level == "private":
        assert record["diff"].count("[withheld private memory]") == 2


# ── archives among the app's files: opened, at any depth ─────────────────────────────────
def _committed_app(files: dict[str, bytes], idea: str = "a notes app") -> tuple[str, Path]:
    """An offline app whose person committed these files (archives among them)."""
    from macaron_cli.apps import register
    from macaron_cli.ledger import signals

    app = config.apps_dir() / "notes"
    (app / "static").mkdir(parents=True)
    (app / "macaron.json").write_text(json.dumps({"name": "notes", "data_files": ["data/"]}))
    (app / ".gitignore").write_text(".macaron/\ndata/\n")
    for rel, data in files.items():
        (app / rel).parent.mkdir(parents=True, exist_ok=True)
        (app / rel).write_bytes(data)
    git = ["git", "-C", str(app), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "my notes"], check=True)
    register("notes", path=str(app), idea=idea, template="habit-tracker", mode="offline")
    signals.brief_made("notes", privacy.nothing(privacy.app_folder()), template="habit-tracker", domain="family")
    return "notes", app


def _packed_home() -> bytes:
    """`tar czf notes.tgz ~/.macaron`, as an agent that was prompt-injected did."""
    import io

    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        tar.add(config.home(), arcname=".macaron")
    return out.getvalue()


def _nested(text: str) -> bytes:
    """A zip holding a gzip'd text file: the text two archives deep."""
    import gzip
    import io
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("notes/today.txt.gz", gzip.compress(text.encode()))
    return out.getvalue()


@pytest.mark.parametrize("command", [("share", "notes"), ("feedback", "export", "out.jsonl")], ids=["share", "export"])
def test_a_packed_macaron_home_in_the_app_is_refused(macaron, tmp_path, command):
    MemoryStore.open().add("Likes hiking on Sundays with Mia", domain="hobby")  # personal: shareable text
    _committed_app({"static/notes.tgz": _packed_home(), "static/index.html": b"<p>hi</p>"})
    run = macaron(*command, cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "static/notes.tgz" in run.stderr and ("memory store" in run.stderr or "macaron home" in run.stderr)
    assert not list(tmp_path.glob("*.macaron.tar.gz")) and not (tmp_path / "out.jsonl").exists()


def test_a_copy_of_the_homes_config_or_ledger_inside_an_archive_is_refused(macaron, tmp_path):
    import io
    import sqlite3
    import zipfile

    config.home().mkdir(parents=True, exist_ok=True)
    (config.home() / "config.toml").write_text('language = "en"\ntrusted_endpoints = ["http://127.0.0.1:9000"]\n')
    ledger = tmp_path / "old.db"  # an old copy of the ledger, under another name: its tables say what it is
    with sqlite3.connect(ledger) as db:
        db.execute("CREATE TABLE applied_credits (memory TEXT)")
    copies = {"settings.toml": (config.home() / "config.toml").read_bytes(), "old.db": ledger.read_bytes()}
    for name, data in copies.items():
        subprocess.run(["rm", "-rf", str(config.apps_dir() / "notes")], check=True)
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w") as archive:
            archive.writestr(f"backup/{name}", data)
        _committed_app({"static/backup.zip": out.getvalue()})
        run = macaron("share", "notes", cwd=tmp_path)
        assert run.returncode == 2 and f"static/backup.zip:backup/{name}" in run.stderr, run.stderr
    assert not list(tmp_path.glob("*.macaron.tar.gz"))


def test_an_archive_of_ordinary_files_is_shared_with_the_code(macaron, tmp_path):
    MemoryStore.open().add(PASTED, domain="family", privacy="private")
    _committed_app({"static/fonts.zip": _nested("just a font licence, nothing personal")})
    run = macaron("share", "notes", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    with tarfile.open(next(tmp_path.glob("*.macaron.tar.gz"))) as tar:
        assert "code/static/fonts.zip" in tar.getnames()


@pytest.mark.parametrize("level", ["private", "secret", "personal"], ids=["private", "secret", "personal-control"])
def test_share_looks_inside_archives_for_a_protected_memory(macaron, tmp_path, level):
    MemoryStore.open().add(PASTED, domain="family", privacy=level)
    _committed_app({"static/backup.zip": _nested(f"todo: {PASTED.upper()}")})
    run = macaron("share", "notes", cwd=tmp_path)
    if level == "personal":
        assert run.returncode == 0, run.stderr
    else:
        assert run.returncode == 2 and f"{level} memory" in run.stderr and "static/backup.zip" in run.stderr
        assert not list(tmp_path.glob("*.macaron.tar.gz"))


@pytest.mark.parametrize("level", ["private", "personal"], ids=["private", "personal-control"])
def test_feedback_export_scrubs_the_idea_and_looks_inside_archives(macaron, tmp_path, level):
    MemoryStore.open().add(PASTED, domain="family", privacy=level)
    _committed_app({"static/index.html": b"<p>hi</p>"}, idea=f"a reminder for {PASTED}")
    target = tmp_path / "feedback.jsonl"
    run = macaron("feedback", "export", target)
    assert run.returncode == 0, run.stderr
    exported = target.read_text()
    assert quotes.holds(exported, PASTED) is (level == "personal")
    if level == "private":
        assert json.loads(exported)["idea"] == "a reminder for [withheld private memory]"
        subprocess.run(["rm", "-rf", str(config.apps_dir() / "notes")], check=True)
        _committed_app({"static/backup.zip": _nested(PASTED)})
        refused = macaron("feedback", "export", target)
        assert refused.returncode == 2 and "static/backup.zip" in refused.stderr, refused.stderr


# ── forget finds quotes, not only links ─────────────────────────────────────────────────
FORGET = "My kidney condition means I drink 3 litres of water a day"


def test_forget_removes_memories_and_files_that_quote_it_in_any_spelling(macaron, tmp_path):
    store = MemoryStore.open()
    fact = store.add(FORGET, domain="health", privacy="private")
    summary = store.add(f"We noted that {FORGET.lower()}.", kind="episode", source="chat")  # no derived_from
    note = store.add(f"Doctor said: {html.escape(FORGET)} &amp; less salt", domain="health")
    other = store.add("Likes hiking on Sundays with Mia", domain="hobby")  # the control: no quote
    transcript = config.apps_dir() / "water" / ".macaron" / "transcript.jsonl"
    transcript.parent.mkdir(parents=True)
    (transcript.parent.parent / "macaron.json").write_text("{}")
    transcript.write_text(json.dumps({"said": f"so: {FORGET.replace('a day', 'a&#32;day')}"}) + "\n")
    del store

    run = macaron("memory", "forget", fact.id)
    assert run.returncode == 0 and "gone from disk" in run.stdout, run.stderr

    store = MemoryStore.open()
    left = {m.id: m.text for m in store.list(limit=None)}
    assert summary.id not in left and fact.id not in left  # a free-form summary goes whole
    assert left[note.id] == "Doctor said: &amp; less salt"  # a note loses the quoted part
    assert left[other.id] == other.text
    assert not any(quotes.holds(text, FORGET) for text in left.values())
    assert [h.memory.id for h in store.search("kidney condition litres")] in ([], [note.id])
    assert not quotes.holds(transcript.read_text(), FORGET)
    assert "«forgotten»" in transcript.read_text()


# ── make --from: an app a local model wrote from a private brief ────────────────────────
FROM_IDEA = "a water intake tracker"


def local_drafter(req) -> Reply:
    """A local model that writes a note from its brief (in its own words) and a passing test."""
    return Reply.text(
        "### FILE: static/advice.txt\n```text\nSpread three litres over the day, for your kidneys.\n```\n\n"
        "### FILE: tests/test_drafted.py\n```python\ndef test_drafted():\n    assert 1 + 1 == 2\n```\n"
    )


def cloud_agent(req) -> Reply:
    return Reply.text("Done.")


def _made_locally(macaron, local: ModelServer, cloud: ModelServer) -> Path:
    store = MemoryStore.open()
    store.add("I drink my water from a 500 ml bottle at my desk", domain="health")
    store.add(PRIVATE, domain="health", privacy="private")
    del store
    env = {
        "ANTHROPIC_BASE_URL": cloud.url,
        "ANTHROPIC_API_KEY": "test-key",
        "MACARON_DRAFT_URL": local.url,
        "MACARON_DRAFT_API": "openai",
    }
    run = macaron("make", FROM_IDEA, "--local-only", "--yes", "--json", "--max-rounds", "0", env=env, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
    assert PRIVATE in "\n".join(r.raw for r in local.requests)  # the local model saw it
    return Path(json.loads(run.stdout)["path"])


@pytest.mark.slow
@pytest.mark.parametrize("trusted", [False, True], ids=["cloud", "trusted"])
def test_make_from_an_app_written_from_a_private_brief(macaron, tmp_path, trusted):
    from macaron_cli import app_labels

    with ModelServer(local_drafter) as local, ModelServer(cloud_agent) as cloud:
        app = _made_locally(macaron, local, cloud)
        advice = (app / "static" / "advice.txt").read_bytes()
        assert app_labels.file_level(app, advice) == "private"
        assert cloud.requests == []
        if trusted:
            config.save_settings({"trusted_endpoints": [cloud.url]})
        before = sorted(p.name for p in config.apps_dir().iterdir())
        env = {"ANTHROPIC_BASE_URL": cloud.url, "ANTHROPIC_API_KEY": "test-key"}
        run = macaron("make", "--from", app.name, "a water tracker with reminders", "--yes", env=env, timeout=900)
        requests = list(cloud.requests)
    if trusted:  # the control: the endpoint is the person's own, the code goes, labels with it
        assert run.returncode == 0, run.stdout + run.stderr
        assert requests
        [made] = [p for p in config.apps_dir().iterdir() if p.name not in before]
        assert app_labels.file_level(made, (made / "static" / "advice.txt").read_bytes()) == "private"
    else:
        assert run.returncode == 2 and "Traceback" not in run.stderr
        assert "static/advice.txt" in run.stderr or "tests/test_drafted.py" in run.stderr
        assert len(run.stderr.strip().splitlines()) == 1
        assert requests == [] and sorted(p.name for p in config.apps_dir().iterdir()) == before
        # The same label keeps the file out of a bundle and out of a feedback export.
        shared = macaron("share", app.name, cwd=tmp_path)
        assert shared.returncode == 2 and "written by a model from your private memories" in shared.stderr
        exported = macaron("feedback", "export", tmp_path / "feedback.jsonl")
        assert exported.returncode == 0, exported.stderr
        diff = json.loads((tmp_path / "feedback.jsonl").read_text())["diff"]
        assert "for your kidneys" not in diff and "a model wrote it from private memories" in diff


def test_file_labels_follow_content_through_an_edit_and_a_rollback(macaron_home, tmp_path):
    """Labels are keyed by content: the person's edit is theirs, a rollback brings the label back."""
    from macaron_cli import app_labels
    from macaron_cli.checkpoints import AppRepo

    store = MemoryStore.open()
    secret_ish = store.add(PRIVATE, domain="health", privacy="private")
    app = tmp_path / "app"
    (app / "static").mkdir(parents=True)
    (app / ".gitignore").write_text(".macaron/\n")
    repo = AppRepo.init(app)
    repo.checkpoint("scaffold", "empty")
    note = app / "static" / "advice.txt"
    note.write_text("Spread three litres over the day.\n")
    assert app_labels.record(app, [secret_ish]) == 1
    repo.checkpoint("draft", "a model wrote it")
    cloud = privacy.claude(config.Settings())
    assert [rel for rel, _ in app_labels.held_back(app, cloud, [])] == ["static/advice.txt"]
    note.write_text("Drink when thirsty.\n")  # the person's own words now
    repo.checkpoint("edit", "mine")
    assert app_labels.held_back(app, cloud, []) == []
    repo.rollback(steps=1)
    assert note.read_text().startswith("Spread") and app_labels.held_back(app, cloud, [])
    assert app_labels.held_back(app, privacy.claude(config.Settings(trusted_endpoints=[cloud.url])), []) == []


def test_a_memory_extracted_from_a_private_one_is_private_and_a_new_fact_is_not(macaron_home, monkeypatch):
    """The local model sees the private memory as a known one and writes an update quoting
    it, which it calls personal; a fact of the person's own stays what the model said."""
    noted = ["Update: " + PRIVATE + ", now with lemon", "Prefers sparkling water at lunch"]

    def facts(text):
        return [{"text": t, "kind": "fact", "domain": "health", "privacy": "personal"} for t in noted]

    with ModelServer(responder("Noted.", facts=facts)) as local, ModelServer(responder()) as cloud:
        conv = _conversation(monkeypatch, local, cloud, trusted=False)
        _turn(conv, "I drink water with lemon now, and sparkling water at lunch")
        conv.end()
        extraction = [r for r in local.requests if "You extract memories" in r.system]
    assert extraction and PRIVATE in extraction[0].raw  # a known memory in the local prompt
    levels = {m.text: m.privacy for m in conv.store.list(limit=None) if m.kind == "fact"}
    assert levels[noted[0]] == "private" and levels[noted[1]] == "personal"


@pytest.mark.slow
def test_the_chat_says_which_turns_stay_behind_on_a_model_switch(macaron_home):
    """The real REPL: `--model local`, a turn from a private memory, `/model claude`."""
    from tests.friend_support import PROMPT, chat_env, leave, meet_friend_already, say, spawn_chat

    meet_friend_already()
    MemoryStore.open().add(PRIVATE, domain="health", privacy="private")
    with ModelServer(_local_model()) as local, ModelServer(responder("Pasta sounds good.")) as cloud:
        env = chat_env(local, "local", extra={"ANTHROPIC_BASE_URL": cloud.url, "ANTHROPIC_API_KEY": "test-key"})
        child = spawn_chat(env, "--model", "local")
        child.expect_exact(PROMPT)
        assert LOCAL_MARK in say(child, "How much water should I drink?")
        switched = say(child, "/model claude")
        say(child, "What should I cook tonight?")
        leave(child)
    assert "1 earlier turn stays behind" in switched
    assert cloud.requests and LOCAL_MARK not in cloud.all_bytes() and PRIVATE not in cloud.all_bytes()


def test_forget_names_the_files_a_model_wrote_from_the_memory(macaron, macaron_home):
    """Code a model wrote from a memory may say it in other words: forget names the file."""
    from macaron_cli import app_labels
    from macaron_cli.checkpoints import AppRepo

    store = MemoryStore.open()
    fact = store.add(PRIVATE, domain="health", privacy="private")
    other = store.add("Likes hiking on Sundays with Mia", domain="hobby", privacy="private")
    app = config.apps_dir() / "water"
    (app / "static").mkdir(parents=True)
    repo = AppRepo.init(app)
    (app / "static" / "advice.txt").write_text("Spread three litres over the day.\n")
    (app / "static" / "hike.txt").write_text("Sunday hikes.\n")
    app_labels.record(app, [fact], files=["static/advice.txt"])
    assert app_labels.record(app, [other], files=["static/hike.txt"]) == 1  # the control: from another memory
    repo.checkpoint("draft", "a model wrote it")
    del store

    run = macaron("memory", "forget", fact.id, "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["written_from"] == [str(app.resolve() / "static" / "advice.txt")]
