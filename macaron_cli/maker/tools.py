"""The agents' way to ask the person's memory for more context: `memory_search`.

An in-process MCP server (the SDK calls back into this process; no port, no subprocess).
It answers through the privacy gate (macaron_cli/privacy.py) for the destination the agent
runs at (Claude: the cloud unless trusted), like the brief, and every call is logged to the
app's `.macaron/memory_calls.jsonl` (and the ledger when it is installed), so the person
can see what the coder looked up and where it went.
"""

from __future__ import annotations

import json
from pathlib import Path

from macaron_cli import privacy
from macaron_cli.memory.records import now_iso
from macaron_cli.privacy import Cleared, Destination

SERVER_NAME = "macaron"
TOOL_NAME = f"mcp__{SERVER_NAME}__memory_search"


def search_memories(store, query: str, destination: Destination, k: int = 5) -> Cleared:
    """What the tool may answer `query` with, cleared by the gate for `destination`."""
    return privacy.search(store, query, destination, k=k)


def answer_text(memories: Cleared, destination: Destination) -> str:
    """The tool's answer: only memories cleared for the agent's destination."""
    return "\n".join(f"- {m.text}" for m in memories.bound_for(destination).memories) or "Nothing relevant remembered."


def memory_server(store, destination: Destination, log_path: Path, on_call=None):
    """Build the MCP server config for ClaudeAgentOptions.mcp_servers; its answers go to
    `destination` (the agent's model), so the gate clears them for it."""
    from claude_agent_sdk import create_sdk_mcp_server, tool

    @tool(
        "memory_search",
        "Search what macaron remembers about the person (preferences, habits, "
        "facts) for context the brief does not carry. Returns one memory per line.",
        {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "what to look for, in any language"},
                "k": {"type": "integer", "description": "how many memories at most (default 5)"},
            },
            "required": ["query"],
        },
    )
    async def memory_search(args):
        query = str(args.get("query", ""))
        k = max(1, min(int(args.get("k") or 5), 10))
        memories = search_memories(store, query, destination, k)
        _log(log_path, {"time": now_iso(), "query": query, "memory_ids": memories.ids})
        if on_call:
            on_call(query, memories)
        text = answer_text(memories, destination)
        return {"content": [{"type": "text", "text": text}]}

    return create_sdk_mcp_server(SERVER_NAME, tools=[memory_search])


def _log(path: Path, entry: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(entry, ensure_ascii=False) + "\n")
