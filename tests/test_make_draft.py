"""`macaron make --draft / --local-only / --variants` end to end: the real CLI, Agent SDK,
git, sandbox and browser; the local draft model and Claude are scripted servers, the
draft one in each wire format."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.support.model_server import ModelServer, Reply

pytestmark = pytest.mark.slow

NOTE = "static/draft-note.txt"
TEST_FILE = "tests/test_drafted.py"
BROKEN = "BROKEN_IN_THE_DRAFT"
FAILING = f"def test_drafted():\n    assert 1 + 1 == 3, '{BROKEN}'\n"
PASSING = "def test_drafted():\n    assert 1 + 1 == 2\n"


def files_answer(note: str, test: str) -> str:
    """What a local model answers: whole files in fenced blocks with a path header."""
    return (
        f"Here is the draft.\n\n### FILE: {NOTE}\n```text\n{note}\n```\n\n### FILE: {TEST_FILE}\n```python\n{test}```\n"
    )


def local_model(req) -> Reply:
    """Drafts with a failing test; fixes it when the verification report comes back."""
    if "# What verification found" in req.last_user_text():
        return Reply.text(files_answer("Drafted locally, then fixed.", PASSING), input_tokens=3000, output_tokens=200)
    return Reply.text(files_answer("Drafted locally.", FAILING), input_tokens=4000, output_tokens=500)


def claude(req) -> Reply:
    """The refine session: rewrite the failing test, then say it is done."""
    if req.assistant_turns() == 0:
        return Reply.tool("Write", {"file_path": TEST_FILE, "content": PASSING})
    return Reply.text("Refined the draft.")


def _git(app: Path, *args) -> str:
    return subprocess.run(["git", "-C", str(app), *args], capture_output=True, text=True).stdout


def test_draft_then_refine(macaron):
    api = "anthropic"  # the openai wire: test_local_only_sends_nothing_to_the_cloud
    with ModelServer(local_model, model="deepseek-coder") as local, ModelServer(claude) as cloud:
        env = {
            "MACARON_DRAFT_URL": local.url,
            "MACARON_DRAFT_API": api,
            "ANTHROPIC_BASE_URL": cloud.url,
            "ANTHROPIC_API_KEY": "test-key",
        }
        run = macaron("make", "a water tracker", "--draft", "--yes", "--json", env=env, timeout=600)
        assert run.returncode == 0, run.stdout + run.stderr
        out = json.loads(run.stdout)
        drafts, refines = list(local.requests), list(cloud.requests)
    app = Path(out["path"])
    # The draft's files were applied and kept; Claude's refine fixed the failing test.
    assert (app / NOTE).read_text() == "Drafted locally.\n"
    assert (app / TEST_FILE).read_text() == PASSING
    assert [c["phase"] for c in out["checkpoints"]] == ["scaffold", "draft", "refine"]
    assert [c["tests"] for c in out["checkpoints"]][1:] == ["failed", "passed"]
    assert out["tests"] == "passed" and out["opened"] is True and out["mode"] == "draft"
    # One draft request in the chosen wire; the verification report reached Claude.
    assert [r.api for r in drafts] == [api]
    assert "water tracker" in drafts[0].last_user_text()
    assert any(BROKEN in r.raw for r in refines), "the draft's verification report never reached Claude"
    # Costs per phase: the local draft from our table (GPU time, 0 by default), the refine
    # at Claude prices; the totals add up.
    draft, refine = out["phases"]
    assert (draft["phase"], draft["where"], draft["model"]) == ("draft", "local", "deepseek-coder")
    assert (draft["input_tokens"], draft["output_tokens"], draft["cost_usd"]) == (4000, 500, 0.0)
    assert (refine["phase"], refine["where"]) == ("refine", "cloud") and refine["cost_usd"] > 0
    assert out["cost_usd"] == pytest.approx(refine["cost_usd"], abs=1e-6)
    assert out["checkpoints"][1]["cost_usd"] == 0.0 and out["checkpoints"][2]["cost_usd"] > 0
    assert _git(app, "status", "--porcelain").strip() == ""


def test_local_only_sends_nothing_to_the_cloud(macaron):
    macaron("memory", "add", "My kidney condition limits how much water I drink", "--privacy", "private")
    with ModelServer(local_model, model="deepseek-r1") as local, ModelServer(claude) as cloud:
        env = {
            "MACARON_DRAFT_URL": local.url,
            "MACARON_DRAFT_API": "openai",
            "ANTHROPIC_BASE_URL": cloud.url,
            "ANTHROPIC_API_KEY": "test-key",
        }
        run = macaron("make", "a water tracker", "--local-only", "--yes", env=env, timeout=600)
        assert run.returncode == 0, run.stdout + run.stderr
        assert cloud.requests == [], "--local-only must not send a single request to the cloud"
        drafts = list(local.requests)
    # Draft, then one local fix round with the verification report.
    assert len(drafts) == 2 and BROKEN in drafts[1].last_user_text()
    # The model is on this machine, so the private memory may shape the app.
    assert "kidney" in drafts[0].last_user_text()
    apps = json.loads(macaron("apps", "--json").stdout)
    app = Path(apps[0]["path"])
    checkpoints = json.loads(macaron("checkpoints", apps[0]["app"], "--json").stdout)
    assert [c["phase"] for c in checkpoints] == ["scaffold", "draft", "fix-1"]
    assert (app / NOTE).read_text() == "Drafted locally, then fixed.\n" and apps[0]["tests"] == "passed"
    # The summary names each phase with its tokens, time and cost.
    assert "draft" in run.stdout and "local deepseek-r1" in run.stdout and "fix-1" in run.stdout
    assert "$0.0000" in run.stdout


def designs(req) -> Reply:
    """A local model that drafts whichever design the variant's brief asks for."""
    text = req.last_user_text()
    name = "bold" if "bold cards" in text else "minimal" if "clean and minimal" in text else "other"
    return Reply.text(files_answer(f"design {name}", PASSING))


def test_variants_verified_screenshotted_picked_and_remembered(macaron):
    with ModelServer(designs) as local:
        env = {"MACARON_DRAFT_URL": local.url}
        run = macaron(
            "make",
            "a water tracker",
            "--local-only",
            "--variants",
            "2",
            "--pick",
            "2",
            "--yes",
            "--json",
            env=env,
            timeout=600,
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert len(local.requests) == 2
    out = json.loads(run.stdout)
    app = Path(out["path"])
    assert (app / NOTE).read_text() == "design bold\n"  # design 2: bold cards
    for n in (1, 2):
        assert (app / ".macaron" / "variants" / str(n) / ".macaron" / "screenshot.png").exists()
    assert [c["phase"] for c in out["checkpoints"]] == ["scaffold", "draft"]
    prefs = [m for m in json.loads(macaron("memory", "list", "--json").stdout) if m["kind"] == "preference"]
    assert len(prefs) == 1 and "bold cards" in prefs[0]["text"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--draft"], "no draft model is set up"),
        (["--variants", "3"], "--variants needs a local draft model"),
        (["--local-only", "--variants", "2", "--pick", "5"], "--pick must be between 1 and 2"),
        (["--local-only", "--offline"], "--offline uses no model"),
    ],
)
def test_bad_draft_options_are_refused_before_anything_is_written(macaron, macaron_home, args, message):
    run = macaron("make", "a water tracker", *args, "--yes", env={"ANTHROPIC_API_KEY": "k"})
    assert run.returncode == 2 and message in run.stderr, run.stderr
    assert json.loads(macaron("apps", "--json").stdout) == []


def test_no_draft_server_is_one_line_and_nothing_written(macaron):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}"
    run = macaron("make", "a water tracker", "--local-only", "--yes", env={"MACARON_DRAFT_URL": url})
    assert run.returncode == 2 and f"no draft server at {url}" in run.stderr
    assert json.loads(macaron("apps", "--json").stdout) == []


def test_draft_interrupted_at_refine_resumes_with_claude_alone(macaron):
    with ModelServer(local_model, model="deepseek-coder") as local, ModelServer(lambda req: Reply.error(529)) as cloud:
        env = {"MACARON_DRAFT_URL": local.url, "ANTHROPIC_BASE_URL": cloud.url, "ANTHROPIC_API_KEY": "test-key"}
        run = macaron("make", "a water tracker", "--draft", "--yes", env=env, timeout=600)
        drafts = len(local.requests)
    assert run.returncode == 1 and "--resume" in run.stdout + run.stderr and "Traceback" not in run.stderr
    apps = json.loads(macaron("apps", "--json").stdout)
    app = Path(apps[0]["path"])
    assert [c["phase"] for c in json.loads(macaron("checkpoints", app, "--json").stdout)] == ["scaffold", "draft"]
    assert drafts == 1 and _git(app, "status", "--porcelain").strip() == ""

    # The draft is kept: resuming needs Claude only, not the local model that drafted it.
    with ModelServer(claude) as cloud:
        again = macaron(
            "make",
            "--resume",
            apps[0]["app"],
            "--yes",
            "--json",
            timeout=600,
            env={"ANTHROPIC_BASE_URL": cloud.url, "ANTHROPIC_API_KEY": "test-key"},
        )
        assert again.returncode == 0, again.stdout + again.stderr
        assert any(BROKEN in r.raw for r in cloud.requests), "the draft's verification report never reached Claude"
    out = json.loads(again.stdout)
    assert [c["phase"] for c in out["checkpoints"]] == ["scaffold", "draft", "refine"]
    assert (app / NOTE).read_text() == "Drafted locally.\n" and (app / TEST_FILE).read_text() == PASSING
    assert out["tests"] == "passed" and out["mode"] == "draft"
    assert [p["phase"] for p in out["phases"]] == ["draft", "refine"]


def test_variants_are_offered_to_pick_in_a_terminal(macaron):
    import os

    import pexpect

    from tests.conftest import REPO, macaron_command

    command = macaron_command()
    env = dict(os.environ)
    if os.environ.get("MACARON_TEST_INSTALLED") != "1":  # as the `macaron` fixture does
        env["PYTHONPATH"] = str(REPO)
    with ModelServer(designs) as local:
        env["MACARON_DRAFT_URL"] = local.url
        child = pexpect.spawn(
            command[0],
            [*command[1:], "make", "a water tracker", "--local-only", "--variants", "2"],
            env=env,
            encoding="utf-8",
            timeout=600,
            dimensions=(50, 160),
        )
        child.expect("Which one shall macaron keep")
        assert "1. " in child.before and "2. " in child.before and "bold cards" in child.before  # both listed
        child.sendline("2")
        child.expect("Did it fit you")
        child.sendline("y")
        child.expect(pexpect.EOF)
        child.close()
    assert child.exitstatus == 0
    apps = json.loads(macaron("apps", "--json").stdout)
    assert (Path(apps[0]["path"]) / NOTE).read_text() == "design bold\n"
