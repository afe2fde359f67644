"""Claude Code (the CLI bundled in the Agent SDK) with `macaron memory serve` as its MCP
server, set up with the README's one line, against a scripted model on 127.0.0.1: the
model calls `search`, and the memories reach it as the tool's result."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import claude_agent_sdk
import pytest

from macaron_cli.memory import MemoryStore
from tests.conftest import REPO, macaron_command
from tests.support.model_server import ModelServer, Reply

CLAUDE = Path(claude_agent_sdk.__file__).parent / "_bundled" / "claude"
TOOL = "mcp__macaron__search"
LATTE = "I drink an oat milk latte every morning"
THERAPY = "my therapist appointment is on Tuesday mornings"


def _reply(request):
    """Load the tool (Claude Code defers MCP tools behind ToolSearch), search the memory,
    answer once the search's result is back. Stateless: decided by the turns so far."""
    turns = request.assistant_turns()
    if turns >= 4 or any("latte" in result for result in request.tool_results()):
        return Reply.text("You like an oat milk latte in the morning.")
    if turns == 0 and TOOL not in request.tool_names():
        return Reply.tool("ToolSearch", {"query": f"select:{TOOL}"})
    return Reply.tool(TOOL, {"query": "latte", "k": 5})


@pytest.mark.slow
def test_claude_code_searches_the_memory_through_macaron_serve(macaron_home, tmp_path):
    store = MemoryStore.open()
    store.add(LATTE, domain="food", kind="preference")
    store.add(THERAPY, privacy="private")
    project = tmp_path / "project"
    project.mkdir()
    with ModelServer(_reply) as model:
        env = {
            **os.environ,
            "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
            "ANTHROPIC_BASE_URL": model.url,
            "ANTHROPIC_API_KEY": "test-key",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "CLAUDE_CONFIG_DIR": str(tmp_path / "claude-config"),
            "CLAUDE_CODE_MAX_RETRIES": "1",
        }
        # The README's setup line, with this checkout's macaron.
        added = subprocess.run(
            [str(CLAUDE), "mcp", "add", "macaron", "--", *macaron_command(), "memory", "serve"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert added.returncode == 0, added.stderr
        answer = subprocess.run(
            [str(CLAUDE), "-p", "What do I like to drink in the morning?", "--allowedTools", TOOL],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert answer.returncode == 0, answer.stdout + answer.stderr
        requests = model.requests_to("anthropic")

    assert "oat milk latte" in answer.stdout
    results = [text for r in requests for text in r.tool_results()]
    assert any(text.startswith(f"- {LATTE} (id m_") for text in results), results  # plain text, one per line
    assert not any(THERAPY in r.raw for r in requests)  # Claude Code is the cloud: no private memory
    calls = subprocess.run(
        [*macaron_command(), "why", "mcp:claude-code"], env=env, capture_output=True, text=True, timeout=120
    )
    assert "mcp:claude-code search(query='latte', k=5): 1 memory went to the cloud" in calls.stdout, calls.stderr
