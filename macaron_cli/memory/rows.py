"""How a memory lies in the LanceDB table: its columns, reading a row back, and the SQL
literals filters are written with. Both the store and retrieval read rows; neither owns this."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import fields as dataclass_fields

from macaron_cli.memory.records import Memory

# Columns that make a Memory (everything but the derived search_text and vector).
MEMORY_COLUMNS = [f.name for f in dataclass_fields(Memory)]
FTS_COLUMN = "search_text"


def memory_from_row(row: dict) -> Memory:
    data = {k: row[k] for k in MEMORY_COLUMNS if k in row}
    data["meta"] = json.loads(row.get("meta") or "{}")
    return Memory(**data)


def quote(value: str) -> str:
    """A SQL string literal for LanceDB filters."""
    return "'" + str(value).replace("'", "''") + "'"


def id_in(ids: Iterable[str]) -> str:
    return "id IN (" + ", ".join(quote(i) for i in ids) + ")"
