"""What an MCP client may ask of the memory, answered through the privacy gate.

One `MemoryAccess` per server process. Each method takes the client's name (as the client
introduced itself when it connected): the gate makes that a destination, keeps from it
what may not go there, and the ledger records the call with the memories that went out.
The store and the embedding model load once, on a background thread started by `warm`,
so the protocol's first answers never wait for them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from macaron_cli import config, privacy
from macaron_cli.errors import UserError
from macaron_cli.memory.records import CHAT

SOURCE_PREFIX = "mcp:"
MAX_K = 50
# Caps on what a client sends (the tools' input schemas say them too): a question, a memory
# of a few paragraphs, a name. A 1 MB query took 75 s to search, 20 MB asked for 50 GiB.
MAX_QUERY = 2_000
MAX_TEXT = 10_000
# How long after serving starts the store loads: a client that starts the server asks its
# first questions (initialize, the tool list) within this, on a quiet machine.
WARM_AFTER_S = 0.5
NOTHING = "Nothing relevant remembered."


def client_name(name: str | None) -> str:
    """The client's name as macaron keeps it (a record's `source`, the ledger, config.toml):
    letters, digits, `.`, `-`, `_` and spaces; anything else becomes `-`."""
    kept = "".join(c if c.isalnum() or c in ".-_ " else "-" for c in (name or "").strip())[:64]
    return kept.strip() or "unknown"


class MemoryAccess:
    def __init__(self, read_settings: Callable[[], config.Settings], home=None):
        """`read_settings` reads the person's settings (the command passes config's
        load_settings): once now, a bad [mcp] table refused before serving; again for the
        persona a profile names, which chat may change while the server runs."""
        self._home = home
        self._store: Any = None  # a MemoryStore, opened on first use
        self._ledger: Any = None
        self._lock = threading.Lock()
        self._warming: threading.Timer | None = None
        self._read_settings = read_settings
        self.settings = read_settings()
        self.allow_forget = config.mcp_settings(self.settings).allow_forget

    # ── loading ─────────────────────────────────────────────────────────────────────────
    def warm(self, after_s: float = WARM_AFTER_S) -> None:
        """Open the store and load the embedding model on a thread, once per process,
        `after_s` from now: by then the client's first questions (initialize, the tool list)
        are answered, which these imports would otherwise slow. The first search then finds
        them ready (a failure here is met again, and answered, by that call)."""
        with self._lock:
            if self._warming is not None:
                return
            self._warming = threading.Timer(after_s, self._warm)
        self._warming.name, self._warming.daemon = "macaron-warm", True
        self._warming.start()

    def _warm(self) -> None:
        try:
            store = self.store()
            if store.vectors:
                from macaron_cli.memory import embeddings

                embeddings.embed(["warm"])
        except Exception:  # the first call opens the store again and answers the error itself
            pass

    def store(self):
        with self._lock:
            if self._store is None:
                from macaron_cli.memory import MemoryStore

                self._store = MemoryStore.open(self._home, self.settings)
            return self._store

    def ledger(self):
        with self._lock:
            if self._ledger is None:
                from macaron_cli.ledger.store import Ledger

                self._ledger = Ledger.open()
            return self._ledger

    def destination(self, client: str) -> privacy.Destination:
        return privacy.mcp_client(client, self.settings)

    # ── tools ───────────────────────────────────────────────────────────────────────────
    def search(self, client: str, query: str, k: int = 5) -> str:
        if not 1 <= k <= MAX_K:
            raise UserError(f"k must be from 1 to {MAX_K}, not {k}.")
        if not query.strip():
            raise UserError("the query is empty; say what to look for, in any language.")
        _at_most("query", query, MAX_QUERY)
        from macaron_cli.memory import score_parts

        destination = self.destination(client)
        found = privacy.search(self.store(), query, destination, k=k, purpose=CHAT)  # an agent's turn: never starved
        # The matches before the nearest in meaning, as `memory search` and the browser list them.
        now = privacy.release(score_parts.in_view_order(found), destination)
        self._record(client, destination, now, "search", query=query, k=k)
        lines = [
            _line(hit.memory)
            + (
                f" {score_parts.NEAREST_MARK} {score_parts.NEAREST_ONLY}"
                if score_parts.found_as(hit) == score_parts.NEAREST
                else ""
            )
            for hit in now.bound_for(destination)
        ]
        if left := found.left_out:
            lines.append(f"({score_parts.replaced_left_out(left)}: history, no longer true.)")
        return "\n".join(lines) or NOTHING

    def recent(self, client: str, n: int = 10) -> str:
        if not 1 <= n <= MAX_K:
            raise UserError(f"n must be from 1 to {MAX_K}, not {n}.")
        destination = self.destination(client)
        found = privacy.recent(self.store(), n, destination)
        self._record(client, destination, found, "recent", n=n)
        return _lines(found.bound_for(destination).memories)

    def add(self, client: str, text: str, domain: str | None = None, privacy_level: str | None = None) -> str:
        from macaron_cli.memory import Memory

        fields = {"source": SOURCE_PREFIX + client, "privacy": privacy_level or "personal"}
        if domain:
            fields["domain"] = domain
        from macaron_cli.memory.redact import redact

        _at_most("text", text, MAX_TEXT)
        Memory.from_dict({"text": text, **fields})  # refuse bad input before the store opens
        store = self.store()
        same = store.live_with_text(text)
        if same is not None and privacy.may_go(same, self.destination(client)):
            return f"Already remembered as {same.id} ({same.privacy}, {same.domain}); nothing added."
        memory = store.add(text, **fields)
        self.ledger().record(
            "mcp_add",
            _subject(client),
            data={"tool": "add", "memory_id": memory.id, "arguments": {"domain": domain, "privacy": privacy_level}},
            sources=[f"memory:{memory.id}"],
        )
        redacted = " (a secret in it was redacted before it was stored)" if redact(text)[1] else ""
        return f"Remembered {memory.id} ({memory.privacy}, {memory.domain}){redacted}."

    def forget(self, client: str, memory_id: str) -> str:
        if not self.allow_forget:
            raise UserError("forgetting through MCP is off; the person can turn it on with allow_forget under [mcp].")
        store, destination = self.store(), self.destination(client)
        try:
            visible = privacy.may_go(store.get(memory_id), destination)
        except UserError:
            visible = False
        if not visible:  # a memory this client may not see is not there for it
            raise UserError(f"no memory with id {memory_id!r} that this client may see.")
        from macaron_cli import forgetting

        done = forgetting.forget(memory_id, store)
        self.ledger().record(
            "mcp_forget",
            _subject(client),
            data={"tool": "forget", "arguments": {"id": memory_id}, "memory_ids": done.ids},
        )
        return f"Forgot {memory_id}" + (f" and {len(done.ids) - 1} older version(s)" if len(done.ids) > 1 else "") + "."

    def profile(self, client: str) -> str:
        """Who the person is, in short: what they like to be called, their languages, their
        preferences: only what the gate releases to this client."""
        from macaron_cli.friend.persona import load_persona

        destination = self.destination(client)
        preferences = privacy.recent(self.store(), 20, destination, where="kind = 'preference'")
        self._record(client, destination, preferences, "profile")
        persona = load_persona(self._read_settings())
        languages = [persona.language] if persona else []
        languages += sorted({m.language for m in preferences.memories} - set(languages))
        lines = []
        if persona and persona.call_me:
            lines.append(f"Name: {persona.call_me}")
        if languages:
            lines.append("Languages: " + ", ".join(languages))
        lines.append("Preferences:")
        lines += [f"- {m.text}" for m in preferences.bound_for(destination).memories] or ["- none shared"]
        return "\n".join(lines)

    def refused(self, client: str, tool: str, argument_names: list[str], message: str) -> None:
        """A call answered with an error: nothing went out. Only the arguments' names are
        kept: a refused `add` was never redacted."""
        self.ledger().record(
            "mcp_refused", _subject(client), data={"tool": tool, "argument_names": argument_names, "error": message}
        )

    def _record(self, client: str, destination, cleared, tool: str, **arguments) -> None:
        self.ledger().record_request(
            _subject(client),
            destination,
            cleared.bound_for(destination).memories,
            purpose=f"mcp {tool}",
            details={"tool": tool, "arguments": arguments},
        )


def _at_most(name: str, text: str, limit: int) -> None:
    if len(text) > limit:
        raise UserError(f"the {name} is {len(text):,} characters; at most {limit:,} are taken.")


def _subject(client: str) -> str:
    return SOURCE_PREFIX + client


def _lines(memories: Iterable) -> str:
    """One memory per line, with what a client needs to use or cite it."""
    return "\n".join(_line(m) for m in memories) or NOTHING


def _line(memory) -> str:
    return f"- {memory.text} (id {memory.id}; {memory.domain}, {memory.language}, {memory.created_at[:10]})"
