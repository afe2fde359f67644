"""The agents' way to ask the person's memory for more context: `memory_search`.

An in-process MCP server (the SDK calls back into this process; no port, no subprocess).
It answers with the same privacy filter as the brief, and every call is logged to the
app's `.macaron/memory_calls.jsonl` (and the ledger when it is installed), so the person
can see what the coder looked up and where it went.
"""

from __future__ import annotations

import json
from pathlib import Path

from macaron_cli.memory.records import now_iso

SERVER_NAME = "macaron"
TOOL_NAME = f"mcp__{SERVER_NAME}__memory_search"


def search_memories(store, query: str, levels, k: int = 5) -> list:
    if store is None or not query.strip():
        return []
    hits = store.search(query, k=k, privacy=sorted(levels))
    return [h.memory for h in hits if h.memory.privacy in levels]


def memory_server(store, levels, log_path: Path, on_call=None):
    """Build the MCP server config for ClaudeAgentOptions.mcp_servers."""
    from claude_agent_sdk import create_sdk_mcp_server, tool

    @tool("memory_search", "Search what macaron remembers about the person (preferences, habits, "
          "facts) for context the brief does not carry. Returns one memory per line.", {
              "type": "object",
              "properties": {"query": {"type": "string", "description": "what to look for, in any language"},
                             "k": {"type": "integer", "description": "how many memories at most (default 5)"}},
              "required": ["query"],
          })
    async def memory_search(args):
        query = str(args.get("query", ""))
        k = max(1, min(int(args.get("k") or 5), 10))
        memories = search_memories(store, query, levels, k)
        _log(log_path, {"time": now_iso(), "query": query, "memory_ids": [m.id for m in memories]})
        if on_call:
            on_call(query, memories)
        text = "\n".join(f"- {m.text}" for m in memories) or "Nothing relevant remembered."
        return {"content": [{"type": "text", "text": text}]}

    return create_sdk_mcp_server(SERVER_NAME, tools=[memory_search])


def _log(path: Path, entry: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(entry, ensure_ascii=False) + "\n")
