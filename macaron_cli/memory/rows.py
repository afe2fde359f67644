"""How a memory lies in the LanceDB table: its columns, reading a row back, and the SQL
literals filters are written with. Both the store and retrieval read rows; neither owns this."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import fields as dataclass_fields

from macaron_cli.memory.records import Memory
from macaron_cli.memory.text import index_text

# Columns that make a Memory (everything but the derived search_text and vector).
MEMORY_COLUMNS = [f.name for f in dataclass_fields(Memory)]
FTS_COLUMN = "search_text"


def memory_from_row(row: dict) -> Memory:
    data = {k: row[k] for k in MEMORY_COLUMNS if k in row}
    data["meta"] = json.loads(row.get("meta") or "{}")
    return Memory(**data)


def to_row(memory: Memory, vector=None, context: Memory | None = None) -> dict:
    """The row that stores `memory`: its columns, the text search indexes (with the turn
    before it as `context`), and its vector."""
    row = memory.to_dict()
    row["meta"] = json.dumps(memory.meta, ensure_ascii=False)
    row["context"] = context.text if context else None
    row["context_id"] = context.id if context else None
    row["search_text"] = index_text(
        memory.text, when=memory.event_at or memory.created_at, context=row["context"], language=memory.language
    )
    row["vector"] = vector
    return row


def quote(value: str) -> str:
    """A SQL string literal for LanceDB filters."""
    return "'" + str(value).replace("'", "''") + "'"


def id_in(ids: Iterable[str]) -> str:
    return "id IN (" + ", ".join(quote(i) for i in ids) + ")"
