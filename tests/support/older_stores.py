"""A memory store as an older macaron left it: one row indexed without what a migration adds."""

from __future__ import annotations


def as_before(store, memory_id: str, search_text: str, migration: str) -> None:
    """Index `memory_id` by `search_text` alone and forget that `migration` ran, so the next
    open runs it again, as it would for a store written before it existed."""
    store._table.update(where=f"id = '{memory_id}'", values={"search_text": search_text})
    store._db.open_table("migrations").delete(f"name = '{migration}'")
    from macaron_cli.memory.upkeep import create_fts_index

    create_fts_index(store.table)
