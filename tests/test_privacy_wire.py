"""The privacy gate at the wire: for each path that sends the person's text to a model, what
reached the scripted server (tests/support/model_server.py, read byte for byte).

Claude is reached through a loopback ANTHROPIC_BASE_URL, as with a local proxy: it is still
the cloud, so a private memory must be in no request body, while a personal memory on the
same topic is (the brief still works). Listed in `trusted_endpoints`, the same URL may
receive the private memory. A draft model at a loopback URL is this machine's; one on
another address is the cloud. A secret memory reaches no model, trusted or not.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from macaron_cli import config, privacy
from macaron_cli.config import Settings
from macaron_cli.memory import MemoryStore
from tests.friend_support import EXTRACT_MARK, SUMMARY_MARK, is_chat
from tests.support.addresses import non_loopback_address
from tests.support.model_server import ModelServer, Reply

PERSONAL = "I drink my water from a 500 ml bottle at my desk"
PRIVATE = "Kidney condition: drink 3 litres of water a day"
SECRET = "Surprise water balloon party for Mia on Friday"
PERSONAL_MARK, PRIVATE_MARK, SECRET_MARK = "500 ml bottle", "Kidney condition", "water balloon party"
IDEA = "a water intake tracker"


def _remember() -> MemoryStore:
    store = MemoryStore.open()
    store.add(PERSONAL, domain="health")
    store.add(PRIVATE, domain="health", privacy="private")
    store.add(SECRET, domain="family", privacy="secret")
    return store


OTHER_HOST = non_loopback_address()


def _assert_private_kept(text: str, trusted: bool, path: str) -> None:
    """The personal memory went; the private one only when trusted; the secret never."""
    assert PERSONAL_MARK in text, f"{path}: the personal memory never reached the model"
    if trusted:
        assert PRIVATE_MARK in text, f"{path}: the trusted endpoint did not get the private memory"
    else:
        assert PRIVATE_MARK not in text, f"{path}: a private memory reached a cloud model"
    assert SECRET_MARK not in text, f"{path}: a secret memory reached a model"


# ── the gate itself ─────────────────────────────────────────────────────────────────────
def test_claude_is_cloud_on_loopback_unless_trusted_and_a_draft_is_local_only_on_this_machine():
    assert privacy.claude(Settings(), "http://127.0.0.1:8080").cloud
    assert privacy.claude(Settings(trusted_endpoints=["http://127.0.0.1:8080/"]), "http://127.0.0.1:8080").local
    assert privacy.local_model("http://127.0.0.1:8000", Settings()).local
    assert privacy.local_model("http://localhost:8000", Settings()).local
    assert privacy.local_model("http://10.1.2.3:8000", Settings()).cloud
    assert privacy.local_model("http://10.1.2.3:8000", Settings(trusted_endpoints=["http://10.1.2.3:8000"])).local
    started = Settings(draft_served_url="http://127.0.0.1:8000")
    assert "started" in privacy.local_model("http://127.0.0.1:8000", started).reason
    assert privacy.export("a share bundle").cloud


def test_only_the_gate_clears_memories_and_a_clearance_is_for_its_destination(macaron_home):
    store = _remember()
    cloud, local = privacy.claude(Settings()), privacy.local_model("http://127.0.0.1:8000", Settings())
    with pytest.raises(privacy.PrivacyViolation):
        privacy.Cleared(store.list(limit=None), (cloud,))
    to_local = privacy.search(store, "water", local, k=5)
    assert {m.text for m in to_local.memories} == {PERSONAL, PRIVATE}
    with pytest.raises(privacy.PrivacyViolation):
        to_local.bound_for(cloud)
    # A brief refuses memories that did not come through the gate.
    from macaron_cli.maker.brief import Brief

    with pytest.raises(privacy.PrivacyViolation):
        Brief(idea=IDEA, language="en", accent="#fff", app_settings={}, memories=list(to_local))


# ── chat: the answer, extraction, the episode summary ───────────────────────────────────
def _chat(monkeypatch, trusted: bool):
    """One chat turn about water and the session's end, against a loopback Claude."""
    from macaron_cli.friend.conversation import Conversation
    from macaron_cli.friend.persona import Persona
    from macaron_cli.models.registry import open_model
    from tests.friend_support import responder

    store = _remember()
    server = ModelServer(responder("Keep the bottle in sight."))
    with server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        if trusted:
            config.save_settings({"trusted_endpoints": [server.url]})
        conv = Conversation(store, open_model("claude", config.load_settings()), Persona())
        question = "How much water should I drink today?"
        record = conv.recall_for(question)
        "".join(conv.reply(question, record))
        conv.end()  # drains extraction, then the summary request
    return server.requests


@pytest.mark.parametrize("trusted", [False, True], ids=["loopback", "trusted"])
def test_chat_answer(macaron_home, monkeypatch, trusted):
    answers = [r for r in _chat(monkeypatch, trusted) if is_chat(r)]
    assert answers
    _assert_private_kept("\n".join(r.raw for r in answers), trusted, "chat answer")


@pytest.mark.parametrize("trusted", [False, True], ids=["loopback", "trusted"])
def test_chat_extraction(macaron_home, monkeypatch, trusted):
    extractions = [r for r in _chat(monkeypatch, trusted) if EXTRACT_MARK in r.system]
    assert extractions
    _assert_private_kept("\n".join(r.raw for r in extractions), trusted, "extraction")


def test_chat_summary_carries_the_conversation_not_the_memory(macaron_home, monkeypatch):
    summaries = [r for r in _chat(monkeypatch, False) if SUMMARY_MARK in r.system]
    assert summaries and "How much water" in summaries[0].raw
    assert PRIVATE_MARK not in summaries[0].raw and SECRET_MARK not in summaries[0].raw


# ── make: the brief, memory_search, fix rounds (the agent at a loopback Claude) ──────────
MEMORY_QUERY = "how much water do I drink"
TEST_FILE = "tests/test_made_for_you.py"
FIX_MARK = "macaron verified the app and it is not done yet"


def lean_agent(req) -> Reply:
    """Ask the memory, write a failing test, stop; in the fix round, make it pass."""
    from tests.support.scripted_make import MEMORY_TOOL

    n = req.assistant_turns()
    if FIX_MARK in req.raw:
        return (
            Reply.text("Fixed.")
            if "1 + 1 == 2" in req.raw
            else Reply.tool(
                "Write", {"file_path": TEST_FILE, "content": "def test_made_for_you():\n    assert 1 + 1 == 2\n"}
            )
        )
    steps = [
        Reply.tool(MEMORY_TOOL, {"query": MEMORY_QUERY}),
        Reply.tool("Write", {"file_path": TEST_FILE, "content": "def test_made_for_you():\n    assert 1 + 1 == 3\n"}),
        Reply.text("Built."),
    ]
    return steps[min(n, len(steps) - 1)]


def _make(macaron, server, *args, extra: dict | None = None):
    env = {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "test-key", **(extra or {})}
    run = macaron("make", IDEA, "--yes", "--json", *args, env=env, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(run.stdout)


def _ledger_requests(slug: str) -> list[dict]:
    from macaron_cli.ledger.store import Ledger, node

    return [e["data"] for e in Ledger.open().events(subject=node("brief", slug), kind="request")]


@pytest.mark.slow
@pytest.mark.parametrize("trusted", [False, True], ids=["loopback", "trusted"])
def test_make_brief_memory_search_and_fix_round(macaron, trusted):
    _remember()
    with ModelServer(lean_agent) as server:
        if trusted:
            config.save_settings({"trusted_endpoints": [server.url]})
        out = _make(macaron, server, "--max-rounds", "1")
        requests, asked_spec = list(server.requests), list(server.spec_requests)
    app = Path(out["path"])
    assert [c["phase"] for c in out["checkpoints"]] == ["scaffold", "build", "fix-1"]
    _assert_private_kept("\n".join(r.raw for r in asked_spec), trusted, "the spec request")
    _assert_private_kept((app / ".macaron" / "brief.md").read_text(), trusted, "brief.md")
    build = [r for r in requests if FIX_MARK not in r.raw]
    _assert_private_kept("\n".join(r.raw for r in build), trusted, "make's brief (build)")
    looked_up = "\n".join(t for r in requests for t in r.tool_results())
    assert PERSONAL_MARK in looked_up, "memory_search never answered with the personal memory"
    assert (PRIVATE_MARK in looked_up) == trusted, "memory_search: private memory and trust disagree"
    fixes = [r for r in requests if FIX_MARK in r.raw]
    assert fixes
    _assert_private_kept("\n".join(r.raw for r in fixes), trusted, "fix round")
    # --json, the ledger and `why` tell the same story about where it went.
    where = "local" if trusted else "cloud"
    assert {p["where"] for p in out["phases"]} == {where}
    assert {d["cloud"] for d in _ledger_requests(out["app"])} == {not trusted}
    why = macaron("why", out["app"]).stdout
    assert f"({'this machine' if trusted else 'cloud'})" in why


@pytest.mark.slow
def test_chat_hand_off_to_make(macaron_home, monkeypatch):
    from macaron_cli.friend import router

    _remember()
    with ModelServer(lean_agent) as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        result = router.hand_off(
            IDEA, say=lambda line: None, ask=lambda question: True, settings=config.load_settings()
        )
        requests = list(server.requests)
    assert result.app and requests
    _assert_private_kept("\n".join(r.raw for r in requests), False, "chat's hand-off to make")


# ── draft, refine, variants, local fix rounds ───────────────────────────────────────────
DRAFT_FILE = "static/draft-note.txt"


def drafter(req) -> Reply:
    """A local model: drafts a failing test (each variant too), fixes it on the report."""
    fixed = "# What verification found" in req.last_user_text()
    test = f"def test_drafted():\n    assert 1 + 1 == {2 if fixed else 3}\n"
    return Reply.text(
        f"### FILE: {DRAFT_FILE}\n```text\ndrafted\n```\n\n### FILE: tests/test_drafted.py\n```python\n{test}```\n"
    )


def refiner(req) -> Reply:
    if req.assistant_turns() == 0:
        return Reply.tool(
            "Write", {"file_path": "tests/test_drafted.py", "content": "def test_drafted():\n    assert 1 + 1 == 2\n"}
        )
    return Reply.text("Refined.")


@pytest.mark.slow
def test_draft_and_refine_share_one_brief_cleared_for_both(macaron):
    """With --draft the draft's files go on to Claude, so the brief is cleared for both:
    the loopback draft model gets no more than Claude does."""
    _remember()
    with ModelServer(drafter) as local, ModelServer(refiner) as cloud:
        out = _make(macaron, cloud, "--draft", extra={"MACARON_DRAFT_URL": local.url, "MACARON_DRAFT_API": "openai"})
        drafts, refines = list(local.requests), list(cloud.requests)
        asked_spec = list(local.spec_requests)
    assert drafts and refines and not cloud.spec_requests  # the model that writes first is asked
    _assert_private_kept("\n".join(r.raw for r in asked_spec), False, "the spec request (with --draft)")
    _assert_private_kept("\n".join(r.raw for r in drafts), False, "draft (with --draft)")
    _assert_private_kept("\n".join(r.raw for r in refines), False, "refine")
    assert [(p["phase"], p["where"]) for p in out["phases"]] == [
        ("spec", "local"),
        ("draft", "local"),
        ("refine", "cloud"),
    ]
    assert sorted(d["cloud"] for d in _ledger_requests(out["app"])) == [False, True]


@pytest.mark.slow
@pytest.mark.parametrize("host", ["127.0.0.1", OTHER_HOST], ids=["loopback-draft", "remote-draft"])
def test_local_only_variants_and_fix_rounds(macaron, host):
    if host is None:
        pytest.skip("needs a non-loopback address to stand for a remote draft model")
    _remember()
    with ModelServer(drafter, host=host) as local, ModelServer(refiner) as cloud:
        out = _make(
            macaron,
            cloud,
            "--local-only",
            "--variants",
            "2",
            "--pick",
            "1",
            "--max-rounds",
            "1",
            extra={"MACARON_DRAFT_URL": local.url, "MACARON_DRAFT_API": "openai"},
        )
        drafts = list(local.requests)
        assert cloud.requests == []
    on_this_machine = host == "127.0.0.1"
    variants = [r for r in drafts if "# What verification found" not in r.last_user_text()]
    fixes = [r for r in drafts if "# What verification found" in r.last_user_text()]
    assert len(variants) == 2 and fixes
    _assert_private_kept("\n".join(r.raw for r in variants), on_this_machine, "variants")
    _assert_private_kept("\n".join(r.raw for r in fixes), on_this_machine, "local fix round")
    where = "local" if on_this_machine else "cloud"
    assert {p["where"] for p in out["phases"]} == {where}
    assert {d["cloud"] for d in _ledger_requests(out["app"])} == {not on_this_machine}


# ── files meant to leave: feedback export, share ────────────────────────────────────────
def _app_made_locally(tmp_path: Path, code: str) -> tuple[str, Path]:
    """An app whose brief went to a draft model on this machine (so it carried the private
    memory), registered and committed with `code` as its only file."""
    from macaron_cli.apps import register
    from macaron_cli.ledger import signals

    store = _remember()
    app = config.apps_dir() / "water"
    (app / "static").mkdir(parents=True)
    (app / "macaron.json").write_text(json.dumps({"name": "water", "data_files": ["data/"]}))
    (app / ".gitignore").write_text(".macaron/\ndata/\n")
    (app / "static" / "goal.txt").write_text(code)
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "app"]):
        subprocess.run(["git", "-C", str(app), *args], check=True)
    register("water", path=str(app), idea=IDEA, template="habit-tracker", mode="local")
    to_local = privacy.local_model("http://127.0.0.1:8000", Settings())
    brief = privacy.search(store, "water drink", to_local, k=5)
    assert PRIVATE in [m.text for m in brief.memories]
    signals.brief_made("water", brief, template="habit-tracker", domain="health")
    return "water", app


def test_feedback_export(macaron, tmp_path):
    """The brief's memories as the gate clears them for a file that leaves, and the code's
    diff without the private memory a local model wrote into it."""
    _slug, app = _app_made_locally(tmp_path, "goal: 2 litres\n")
    (app / "static" / "goal.txt").write_text(f"goal: 2 litres\nnote: {PRIVATE}\n")
    subprocess.run(
        ["git", "-C", str(app), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "x"], check=True
    )
    target = tmp_path / "feedback.jsonl"
    run = macaron("feedback", "export", target)
    assert run.returncode == 0, run.stderr
    [record] = [json.loads(line) for line in target.read_text().splitlines()]
    assert "note: [withheld private memory]" in record["diff"]
    _assert_private_kept(target.read_text(), False, "feedback export")


def test_share_refuses_code_that_carries_a_private_memory(macaron, tmp_path):
    slug, app = _app_made_locally(tmp_path, f"note: {PRIVATE}\n")
    run = macaron("share", slug, cwd=tmp_path)
    assert run.returncode == 2 and "static/goal.txt" in run.stderr and "private memory" in run.stderr
    assert not list(tmp_path.glob("*.macaron.tar.gz"))
    (app / "static" / "goal.txt").write_text("goal: 2 litres\n")
    subprocess.run(
        ["git", "-C", str(app), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "x"], check=True
    )
    assert macaron("share", slug, cwd=tmp_path).returncode == 0


def test_share_refuses_a_bundle_holding_the_model_key_even_in_an_archive(macaron, tmp_path):
    import gzip

    key = "sk-ant-api03-" + "Q7vX2mPz9LkT4wYb8NcR1sHd6FjG3aE5uK0oIiVqWeZt"
    slug, app = _app_made_locally(tmp_path, "goal: 2 litres\n")
    (app / "static" / "cache.gz").write_bytes(gzip.compress(f"token={key}\n".encode()))
    subprocess.run(["git", "-C", str(app), "add", "-A"], check=True)
    subprocess.run(
        ["git", "-C", str(app), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"], check=True
    )
    run = macaron("share", slug, cwd=tmp_path, env={"ANTHROPIC_API_KEY": key})
    assert run.returncode == 2 and "holds your model key" in run.stderr and "cache.gz" in run.stderr
    assert key not in run.stderr and not list(tmp_path.glob("*.macaron.tar.gz"))
