"""The personal memory: one LanceDB table of records, searchable in any language."""

from __future__ import annotations

import json
import math
import os
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, Iterator

from macaron_cli import config
from macaron_cli.errors import UserError
from macaron_cli.memory.records import Hit, Memory, now_iso
from macaron_cli.memory.redact import redact
from macaron_cli.memory.text import detect_language, search_form

TABLE = "memories"
SCHEMA_VERSION = 1
_JSON_FIELDS = ("meta",)
_BATCH = 2000


def _schema():
    import pyarrow as pa

    s = pa.string()
    return pa.schema([
        ("id", s), ("text", s), ("search_text", s), ("kind", s), ("domain", s), ("language", s),
        ("privacy", s), ("created_at", s), ("updated_at", s), ("last_used_at", s),
        ("use_count", pa.int64()), ("reward", pa.float64()), ("pinned", pa.bool_()),
        ("source", s), ("supersedes", s), ("verified", s), ("event_at", s), ("valid_until", s),
        ("meta", s),
    ], metadata={"macaron_schema_version": str(SCHEMA_VERSION)})


def _row(memory: Memory) -> dict:
    row = memory.to_dict()
    row["meta"] = json.dumps(memory.meta, ensure_ascii=False)
    row["search_text"] = search_form(memory.text)
    return row


def _memory(row: dict) -> Memory:
    data = {k: v for k, v in row.items() if k in Memory.__dataclass_fields__}
    data["meta"] = json.loads(row.get("meta") or "{}")
    return Memory(**data)


class MemoryStore:
    """The person's memory. Open with `MemoryStore.open()`; every method is safe to call often."""

    def __init__(self, db, table, uri: str):
        self._db = db
        self._table = table
        self.uri = uri
        self._fts_rows = -1

    # ── opening ─────────────────────────────────────────────────────────────────────────
    @classmethod
    def open(cls, home_or_uri: str | os.PathLike | None = None) -> "MemoryStore":
        uri = str(home_or_uri) if home_or_uri is not None else config.memory_uri()
        is_local = "://" not in uri
        if is_local:
            path = Path(uri)
            if path.exists() and not path.is_dir():
                raise UserError(f"{path} is a file, not a memory store; move it away or set MACARON_HOME.")
            config.ensure_private_dir(path)
        import lancedb

        try:
            db = lancedb.connect(uri)
            if TABLE in db.table_names():
                table = db.open_table(TABLE)
                _check_schema(table, uri)
            else:
                if is_local and any(Path(uri).iterdir()):
                    raise UserError(f"{uri} holds something that is not a macaron memory; choose another MACARON_HOME.")
                table = db.create_table(TABLE, schema=_schema())
        except UserError:
            raise
        except Exception as exc:  # lance raises bare RuntimeError/OSError for damaged stores
            raise UserError(f"cannot open the memory at {uri}: {exc}".splitlines()[0]) from None
        store = cls(db, table, uri)
        if is_local:
            _make_private(Path(uri))
        return store

    # ── writing ─────────────────────────────────────────────────────────────────────────
    def add(self, text: str, **fields) -> Memory:
        memory = self.prepare(Memory.from_dict({"text": text, **fields}))
        self._table.add([_row(memory)])
        return memory

    def add_many(self, memories: Iterable[Memory | dict]) -> int:
        """Add records in batches; returns how many were written. Streams: any iterable works."""
        count = 0
        for batch in _batched(memories, _BATCH):
            rows = [_row(self.prepare(m if isinstance(m, Memory) else Memory.from_dict(m))) for m in batch]
            self._table.add(rows)
            count += len(rows)
        return count

    def prepare(self, memory: Memory) -> Memory:
        """Redact secrets and fill in what can be inferred, before anything is stored."""
        text, found = redact(memory.text)
        meta = dict(memory.meta)
        if found:
            meta["redacted"] = sorted(set(found))
        language = memory.language
        if language == "en":
            language = detect_language(text)
        return replace(memory, text=text, meta=meta, language=language)

    def update(self, memory_id: str, **changes) -> Memory:
        """Change fields in place; a new text makes a new version that supersedes the old."""
        old = self.get(memory_id)
        if "text" in changes and changes["text"] != old.text:
            return self.add(changes.pop("text"), **{
                **{k: v for k, v in old.to_dict().items() if k not in ("id", "text", "created_at", "use_count")},
                "supersedes": old.id, "updated_at": now_iso(), **changes,
            })
        updated = replace(old, **changes, updated_at=now_iso())
        updated.validate()
        self._table.update(where=_id_is(memory_id), values=_update_values(updated))
        return updated

    def pin(self, memory_id: str, pinned: bool = True) -> Memory:
        return self.update(memory_id, pinned=pinned)

    def forget(self, memory_id: str) -> None:
        """Delete a memory and purge every older version of the table that still holds it."""
        self.get(memory_id)
        self._table.delete(_id_is(memory_id))
        self.purge_history()

    def purge_history(self) -> None:
        import warnings
        from datetime import timedelta

        with warnings.catch_warnings():  # we mean it: old versions still hold the forgotten text
            warnings.simplefilter("ignore", UserWarning)
            self._table.optimize(cleanup_older_than=timedelta(0), delete_unverified=True)
        self._fts_rows = -1

    # ── reading ─────────────────────────────────────────────────────────────────────────
    def get(self, memory_id: str) -> Memory:
        rows = self._table.search().where(_id_is(memory_id)).limit(1).to_list()
        if not rows:
            raise UserError(f"no memory with id {memory_id!r}; `macaron memory list` shows the ids.")
        return _memory(rows[0])

    def list(self, limit: int | None = 50, offset: int = 0, where: str | None = None) -> list[Memory]:
        q = self._table.search()
        if where:
            q = q.where(where)
        rows = q.limit(None if limit is None else limit + offset).to_list()
        rows.sort(key=lambda r: r["created_at"], reverse=True)
        return [_memory(r) for r in rows[offset : None if limit is None else offset + limit]]

    def iter_all(self) -> Iterator[Memory]:
        for batch in self._table.search().limit(None).to_batches(_BATCH):
            for row in batch.to_pylist():
                yield _memory(row)

    def count(self) -> int:
        return self._table.count_rows()

    def stats(self) -> dict:
        import collections

        counts = {name: collections.Counter() for name in ("kind", "domain", "language", "privacy")}
        pinned = 0
        total = 0
        for m in self.iter_all():
            total += 1
            pinned += m.pinned
            for name, counter in counts.items():
                counter[getattr(m, name)] += 1
        return {"total": total, "pinned": pinned, **{f"by_{k}": dict(v) for k, v in counts.items()}, "uri": self.uri}

    def search(self, query: str, k: int = 10, *, privacy: Iterable[str] | None = None, now: datetime | None = None) -> list[Hit]:
        """Full-text candidates re-weighted softly by importance and time."""
        if not query.strip() or self.count() == 0:
            return []
        self._ensure_fts()
        q = self._table.search(search_form(query), query_type="fts", fts_columns="search_text")
        if privacy is not None:
            q = q.where("privacy IN (" + ", ".join(f"'{p}'" for p in privacy) + ")", prefilter=True)
        rows = q.limit(max(k * 4, 20)).to_list()
        if not rows:
            return []
        now = now or datetime.now(timezone.utc)
        top = max(r["_score"] for r in rows) or 1.0
        lam = config.load_settings().decay_per_day
        hits = []
        for r in rows:
            relevance = r["_score"] / top
            memory = _memory(r)
            weight = _weight(memory, now, lam)
            # Importance re-ranks among relevant candidates; it never outweighs relevance.
            hits.append(Hit(memory, relevance * (1 + 0.25 * weight), {"bm25": relevance, "weight": weight}))
        hits.sort(key=lambda h: h.score, reverse=True)
        return hits[:k]

    def _ensure_fts(self) -> None:
        rows = self.count()
        if rows != self._fts_rows:
            self._table.create_fts_index(
                "search_text", replace=True, base_tokenizer="simple", stem=True,
                remove_stop_words=True, ascii_folding=True, lower_case=True,
            )
            self._fts_rows = rows


def _weight(m: Memory, now: datetime, lam: float) -> float:
    """weight = reward0·e^(−λ·age) + verified + pinned, squashed into [0, 1)."""
    created = datetime.fromisoformat(m.created_at)
    age_days = max((now - created).total_seconds() / 86400, 0.0)
    raw = (1.0 + m.reward) * math.exp(-lam * age_days) + (0.5 if m.verified else 0.0) + (1.0 if m.pinned else 0.0)
    return raw / (1.0 + raw)


def _id_is(memory_id: str) -> str:
    return "id = '" + memory_id.replace("'", "''") + "'"


def _update_values(m: Memory) -> dict:
    row = _row(m)
    row.pop("id")
    return row


def _batched(items: Iterable, size: int):
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _check_schema(table, uri: str) -> None:
    version = (table.schema.metadata or {}).get(b"macaron_schema_version")
    if version is None or "search_text" not in table.schema.names:
        raise UserError(f"{uri} holds a table that macaron did not write; choose another MACARON_HOME.")
    if int(version) > SCHEMA_VERSION:
        raise UserError(f"the memory at {uri} was written by a newer macaron; upgrade macaron.")


def _make_private(path: Path) -> None:
    for root, dirs, files in os.walk(path):
        for d in dirs:
            os.chmod(os.path.join(root, d), 0o700)
        for f in files:
            os.chmod(os.path.join(root, f), 0o600)
