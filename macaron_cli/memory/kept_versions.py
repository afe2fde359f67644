"""Which memory an import's record is kept as already: for each id, its live version (the
newest of the versions that superseded it) and a digest of that version's text, for every
memory of the store and every one the import has written so far.

A store of years of chats holds hundreds of thousands of ids, and an import writes as many:
kept in memory, that map grew with every record (bench/import_exports.txt). It lives in a
private temporary SQLite database instead (deleted when closed; only ids and digests, never
a text), whose cache is bounded: a lookup per record, memory flat whatever the file's size.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from macaron_cli.memory.records import Memory

_ROWS = 500  # rows written to the database at once while the store is read


def digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


@dataclass(frozen=True)
class Kept:
    live: str  # the id of its live version (itself when none superseded it)
    digest: bytes  # of the live version's text
    in_file: bool  # written by this import (the file holds the record twice)


class KeptVersions:
    def __init__(self, memories: Iterable[Memory] = ()):
        # "": a private temporary database on disk, gone when closed; its pages cached up
        # to SQLite's default cache size, so memory stays flat.
        self._db = sqlite3.connect("")
        self._db.execute("PRAGMA journal_mode = OFF")
        self._db.execute(
            "CREATE TABLE kept"
            " (id TEXT PRIMARY KEY, live TEXT NOT NULL, digest BLOB NOT NULL, in_file INTEGER NOT NULL)"
        )
        self._db.execute("CREATE TABLE successor (id TEXT PRIMARY KEY, newer TEXT NOT NULL)")
        rows: list[tuple[str, str, bytes]] = []
        versions: list[tuple[str, str]] = []
        for memory in memories:  # streamed: only a few rows of ids and digests held at once
            rows.append((memory.id, memory.id, digest(memory.text)))
            if memory.supersedes:
                versions.append((memory.supersedes, memory.id))
            if len(rows) >= _ROWS:
                self._insert(rows, versions)
        self._insert(rows, versions)
        self._follow_versions()

    def _insert(self, rows: list, versions: list) -> None:
        self._db.executemany("INSERT OR REPLACE INTO kept VALUES (?, ?, ?, 0)", rows)
        self._db.executemany("INSERT OR REPLACE INTO successor VALUES (?, ?)", versions)
        rows.clear()
        versions.clear()

    def _follow_versions(self) -> None:
        """Each superseded id's live version: its successors followed to the newest (a cycle,
        from a store edited by hand, stops where it turns back)."""
        superseded = self._db.execute("SELECT id FROM successor").fetchall()  # only edited memories
        for (memory_id,) in superseded:
            live, seen = memory_id, {memory_id}
            while (newer := self._newer(live)) is not None and newer not in seen:
                live = newer
                seen.add(live)
            found = self._db.execute("SELECT digest FROM kept WHERE id = ?", (live,)).fetchone()
            if found is not None and live != memory_id:
                self._db.execute("UPDATE kept SET live = ?, digest = ? WHERE id = ?", (live, found[0], memory_id))

    def _newer(self, memory_id: str) -> str | None:
        found = self._db.execute("SELECT newer FROM successor WHERE id = ?", (memory_id,)).fetchone()
        return found[0] if found else None

    def get(self, memory_id: str) -> Kept | None:
        found = self._db.execute("SELECT live, digest, in_file FROM kept WHERE id = ?", (memory_id,)).fetchone()
        return Kept(found[0], found[1], bool(found[2])) if found else None

    def wrote(self, memory_id: str, live: str, text_digest: bytes) -> None:
        """This import wrote `live` for the record `memory_id` (itself, or a new version)."""
        self._db.execute("INSERT OR REPLACE INTO kept VALUES (?, ?, ?, 1)", (memory_id, live, text_digest))

    def close(self) -> None:
        self._db.close()
