"""End to end: the real `macaron make` CLI, the real Agent SDK and its bundled CLI, real
git, sandbox and browser; only the model is scripted (tests/support/model_server.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import scripted_make as script
from tests.support.addresses import non_loopback_address
from tests.support.model_server import ModelServer

pytestmark = pytest.mark.slow


def _env(server) -> dict:
    return {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "test-key"}


CLOUD_HOST = non_loopback_address()


@pytest.mark.skipif(CLOUD_HOST is None, reason="needs a non-loopback address to stand for a cloud endpoint")
def test_make_delegates_verifies_fixes_and_checkpoints(macaron, tmp_path):
    macaron("memory", "add", "I drink my water from a 500 ml bottle", "--domain", "health")
    macaron("memory", "add", "My kidney condition limits how much water I drink", "--privacy", "private")
    outside = tmp_path / "outside"
    outside.mkdir()
    # The server listens on a non-loopback address: to macaron it is a cloud endpoint.
    with ModelServer(script.build_and_fix(outside=str(outside)), host=CLOUD_HOST) as server:
        run = macaron("make", "a water tracker", "--yes", env=_env(server), timeout=600)
        requests = list(server.requests)
    assert run.returncode == 0, run.stdout + run.stderr
    apps = json.loads(macaron("apps", "--json").stdout)
    assert len(apps) == 1 and apps[0]["tests"] == "passed" and apps[0]["opened"] is True
    slug, app = apps[0]["app"], Path(apps[0]["path"])
    # Live progress named the phases and which subagent was working; the summary says how to run it.
    for seen in ("build", "verify", "fix-1", "frontend", "backend", "Write"):
        assert seen in run.stderr
    assert f"macaron run {slug}" in run.stdout and "backend, frontend" in run.stdout
    assert Path(apps[0]["screenshot"]).exists()
    checkpoints = json.loads(macaron("checkpoints", slug, "--json").stdout)
    assert [c["phase"] for c in checkpoints] == ["scaffold", "build", "fix-1"]
    assert [c["tests"] for c in checkpoints][1:] == ["failed", "passed"]
    assert checkpoints[-1]["cost_usd"] > 0
    # The guard refused the writes outside the repo (tool and shell); outside is untouched.
    assert outside.is_dir() and list(outside.iterdir()) == []
    denied = [json.loads(line) for line in (app / ".macaron" / "denied.jsonl").read_text().splitlines()]
    assert [d["tool"] for d in denied] == ["Write", "Bash"]
    assert any("outside the app repo" in t for r in requests for t in r.tool_results())
    # The subagents' own system prompts reached the model.
    for name in ("frontend", "backend"):
        body = (app / ".claude" / "agents" / f"{name}.md").read_text().split("---")[-1].strip()
        assert any(body[:80] in r.system for r in requests), f"{name} prompt never reached the model"
    # Files were written; the failure report reached the agent in a later request.
    assert (app / script.NOTE_FILE).exists()
    assert "1 + 1 == 2" in (app / script.TEST_FILE).read_text()
    assert any(script.BROKEN_MARK in r.raw and script.FIX_PROMPT_MARK in r.raw for r in requests), (
        "the verification report never reached the agent"
    )
    # The coder asked the memory for more; the call was logged; the answer reached it.
    calls = [json.loads(line) for line in (app / ".macaron" / "memory_calls.jsonl").read_text().splitlines()]
    assert calls and calls[0]["query"] == script.MEMORY_QUERY
    assert any("500 ml bottle" in t for r in requests for t in r.tool_results())
    # Privacy: the personal memory went to the model, the private one never did.
    everything = server.all_bytes()
    assert "500 ml bottle" in everything
    assert "kidney condition" not in everything
    # Nothing personal is tracked by git.
    assert ".macaron/brief.md" not in macaron_git(app, "ls-files")
    assert "500 ml" not in macaron_git(app, "log", "-p")


def macaron_git(app: Path, *args) -> str:
    import subprocess

    return subprocess.run(["git", "-C", str(app), *args], capture_output=True, text=True).stdout


def _state(app: Path) -> dict:
    return json.loads((app / ".macaron" / "make.json").read_text())


def test_budget_stops_cleanly_at_a_checkpoint(macaron):
    # Every answer costs about $5 at Claude prices (our own table), over a $1 budget.
    from tests.support.model_server import Reply

    def responder(req):
        first = script.agent("frontend", script.FRONTEND_TASK) if req.assistant_turns() == 0 else None
        reply = first or Reply.text("Still going.")
        reply.input_tokens = 1_000_000
        return reply

    with ModelServer(responder) as server:
        run = macaron("make", "a habit tracker", "--budget", "1", "--yes", "--json", env=_env(server))
        requests = len(server.requests)
    assert run.returncode == 1
    out = json.loads(run.stdout)
    assert out["cost_usd"] >= 1 and requests <= 2  # stopped at the first answer over budget
    app = Path(out["path"])
    assert _state(app)["status"] == "budget"
    assert out["checkpoints"][0]["phase"] == "scaffold"
    assert macaron_git(app, "status", "--porcelain").strip() == ""  # the repo is at its last checkpoint


def test_model_error_exits_1_and_resume_finishes(macaron):
    from tests.support.model_server import Reply

    with ModelServer(lambda req: Reply.error(529)) as server:
        run = macaron("make", "a habit tracker", "--yes", env=_env(server))
    assert run.returncode == 1
    assert "--resume" in run.stdout + run.stderr and "Traceback" not in run.stderr
    apps = json.loads(macaron("apps", "--json").stdout)
    app = Path(apps[0]["path"])
    assert _state(app)["status"] == "model-error"
    assert [c["phase"] for c in json.loads(macaron("checkpoints", app, "--json").stdout)] == ["scaffold"]

    with ModelServer(lambda req: Reply.text("Built.")) as server:
        again = macaron(
            "make", "--resume", apps[0]["app"], "--max-rounds", "1", "--yes", "--json", env=_env(server), timeout=300
        )
    assert again.returncode == 0, again.stdout + again.stderr
    out = json.loads(again.stdout)
    assert [c["phase"] for c in out["checkpoints"]] == ["scaffold", "build"] and out["tests"] == "passed"
    assert _state(app)["status"] == "done"
