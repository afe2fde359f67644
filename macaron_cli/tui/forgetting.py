"""Forget now, undo until the browser closes.

A forget is `macaron memory forget`'s own (macaron_cli/forgetting.py: the store with its
history purged, every brief and summary that held it), applied at once, so chat and make
stop seeing it immediately and nothing is left on disk if the browser is killed.
Undo re-adds the copies kept here, with their ids and created_at; those copies live only in
this process, so once the browser closes the memory is really gone. The store may forget the
older versions a memory superseded along with it, so those are kept for undo too.
"""

from __future__ import annotations

from macaron_cli.forgetting import forget
from macaron_cli.memory import Memory, MemoryStore
from macaron_cli.tui.view import is_one_of, versions


class ForgetLog:
    def __init__(self, store: MemoryStore):
        self._store = store
        self._batches: list[list[Memory]] = []

    def forget(self, memories: list[Memory]) -> None:
        done: list[Memory] = []
        try:
            for memory in memories:
                older, _ = versions(self._store, memory)
                forget(memory.id, store=self._store)  # from briefs and summaries too
                done += [memory, *older]
        finally:
            if done:
                self._batches.append(done)

    def undo(self) -> list[Memory]:
        """Bring back the last batch forgotten; returns it (empty when there is nothing to undo)."""
        if not self._batches:
            return []
        batch = self._batches.pop()
        still_here = {m.id for m in self._store.list(None, 0, is_one_of("id", [m.id for m in batch]))}
        self._store.add_many(m for m in batch if m.id not in still_here)
        return batch

    @property
    def can_undo(self) -> bool:
        return bool(self._batches)
