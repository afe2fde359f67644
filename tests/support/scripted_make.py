"""A scripted coding session for `macaron make`, replayed by tests/support/model_server.py.

Stateless: each reply is decided from the request alone (FACTS.md), so retries and the
SDK's extra requests never break the script.
- A subagent's request is recognised by the task text the main agent gave it (its first
  user message); the main agent's by the phase prompt and the assistant turns since.
- Build: the main agent asks the memory for more context, then delegates to `frontend`
  (writes a page note) and `backend` (adds a test that fails on purpose); verification
  then fails.
- Fix: the verification report comes back; the main agent delegates to `backend`, which
  reads and rewrites the test so it passes.
"""

from __future__ import annotations

from tests.support.model_server import Reply

FRONTEND_TASK = "FRONTEND TASK: add a line for the person to the main page folder."
BACKEND_TASK = "BACKEND TASK: add a test for the made-for-you feature."
BACKEND_FIX_TASK = "BACKEND FIX TASK: make the failing test pass."
FIX_PROMPT_MARK = "macaron verified the app and it is not done yet"
BROKEN_MARK = "BROKEN_ON_PURPOSE"
FAILING_TEST = f"def test_made_for_you():\n    assert 1 + 1 == 3, '{BROKEN_MARK}'\n"
PASSING_TEST = "def test_made_for_you():\n    assert 1 + 1 == 2\n"
NOTE_FILE = "static/made-for-you.txt"
TEST_FILE = "tests/test_made_for_you.py"
MEMORY_TOOL = "mcp__macaron__memory_search"
MEMORY_QUERY = "how much water do I drink"


def _first_user_text(req) -> str:
    for m in req.messages:
        if m.get("role") == "user":
            content = m.get("content")
            if isinstance(content, str):
                return content
            return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def _turns_since(req, mark: str) -> int:
    """Assistant turns after the last user message containing `mark`."""
    count, seen = 0, False
    for m in req.messages:
        text = str(m.get("content"))
        if m.get("role") == "user" and mark in text and "tool_result" not in text[:40]:
            count, seen = 0, True
        elif m.get("role") == "assistant":
            count += 1
    return count if seen else req.assistant_turns()


def agent(subagent_type: str, prompt: str) -> Reply:
    return Reply.tool(
        "Agent",
        {
            "description": f"{subagent_type} work",
            "prompt": prompt,
            "subagent_type": subagent_type,
            "run_in_background": False,
        },
    )


def build_and_fix(outside: str | None = None) -> callable:
    """The scripted session; with `outside` (a folder outside the app), the main agent
    first tries to write there, by the Write tool and by the shell (both must be refused)."""
    forbidden = (
        [
            Reply.tool("Write", {"file_path": f"{outside}/stolen.txt", "content": "x"}),
            Reply.tool("Bash", {"command": f"echo x > {outside}/shell.txt && rm -rf {outside}"}),
        ]
        if outside
        else []
    )

    def responder(req) -> Reply:
        first = _first_user_text(req)
        n = req.assistant_turns()
        if FRONTEND_TASK in first:
            return [
                Reply.tool("Write", {"file_path": NOTE_FILE, "content": "Made for you by macaron.\n"}),
                Reply.text("Frontend done."),
            ][min(n, 1)]
        if BACKEND_FIX_TASK in first:
            return [
                Reply.tool("Read", {"file_path": TEST_FILE}),
                Reply.tool("Write", {"file_path": TEST_FILE, "content": PASSING_TEST}),
                Reply.text("Backend fix done."),
            ][min(n, 2)]
        if BACKEND_TASK in first:
            return [
                Reply.tool("Write", {"file_path": TEST_FILE, "content": FAILING_TEST}),
                Reply.text("Backend done."),
            ][min(n, 1)]
        if FIX_PROMPT_MARK in req.raw:
            k = _turns_since(req, FIX_PROMPT_MARK)
            return agent("backend", BACKEND_FIX_TASK) if k == 0 else Reply.text("Fixed.")
        steps = [
            *forbidden,
            Reply.tool(MEMORY_TOOL, {"query": MEMORY_QUERY}),
            agent("frontend", FRONTEND_TASK),
            agent("backend", BACKEND_TASK),
            Reply.text("Built."),
        ]
        return steps[min(n, len(steps) - 1)]

    return responder


def cloud_make(macaron, server, idea: str = "a water tracker"):
    """`macaron make IDEA --yes --json` by the cloud coder, its model the scripted `server`."""
    return macaron(
        "make", idea, "--yes", "--json", env={"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "test-key"},
        timeout=900,
    )  # fmt: skip


def cloud_make_answered(macaron, responder, idea: str):
    """`cloud_make` with the coder answered by `responder` (a ModelServer's); the finished
    process and every request the server saw."""
    from tests.support.model_server import ModelServer

    with ModelServer(responder) as server:
        return cloud_make(macaron, server, idea), list(server.requests)
