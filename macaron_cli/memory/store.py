"""The personal memory: one LanceDB table of records, searchable in any language.

Writes to a local store hold a cross-process lock (memory/locking.py) and run with a private
umask, so two processes never lose each other's work and every file is 0600. A memory on
object storage is shared by machines no lock reaches: there LanceDB's commit protocol keeps
concurrent writes (memory/remote.py). Each batch LanceDB commits
is durable: a process killed mid-import leaves a store that opens with every batch it had
acknowledged. Search lives in memory/retrieval.py.
"""

from __future__ import annotations

import builtins
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from functools import wraps
from pathlib import Path

from macaron_cli import config
from macaron_cli.errors import MacaronError, UserError, disk_full
from macaron_cli.memory import derived, embeddings, remote
from macaron_cli.memory.derived import ForgetPlan
from macaron_cli.memory.locking import LOCK_NAME, REEMBED_LOCK_NAME, WriteLock
from macaron_cli.memory.records import Hit, Memory, now_iso
from macaron_cli.memory.redact import redacted
from macaron_cli.memory.rows import FTS_COLUMN, MEMORY_COLUMNS, quote
from macaron_cli.memory.rows import id_in as _id_in
from macaron_cli.memory.rows import memory_from_row as _memory
from macaron_cli.memory.schema import (
    SCHEMA_VERSION,
    TABLE,
    describe,
    memory_schema,
    migrate,
    needs_migration,
    schema_version_of,
    table_names,
    vector_field,
    vector_model,
)
from macaron_cli.memory.text import detect_language, index_text, meaning_form

BATCH = 2000
# Below SMALL_STORE rows every write folds new rows into the indexes (quick at that size);
# above it, once REINDEX_AFTER rows (or 1%) wait, since an index update then costs seconds.
SMALL_STORE = 20000
REINDEX_AFTER = 1000
# Above this many rows with vectors, build an IVF-PQ index instead of exact search.
VECTOR_INDEX_ROWS = 20000
# On object storage an exact search reads every vector over the network at each query, so a
# shared memory has its index from far fewer rows.
SHARED_VECTOR_INDEX_ROWS = 1000
SCALAR_INDEX_ROWS = 20000
# Every write adds a data fragment (an import, one per BATCH). Each query pays for every
# fragment, so past this many they are compacted into one, which makes a large store's
# searches markedly quicker (bench/memory_scale.py); the one write in MAX_FRAGMENTS that
# compacts pays for it.
MAX_FRAGMENTS = 32
# A local store keeps old table versions this long (see _optimize).
KEEP_VERSIONS = timedelta(seconds=10)


def vector_index_config(rows: int, dim: int):
    """IVF-PQ: about sqrt(rows) partitions, the dimensions in sub-vectors of 8."""
    from lancedb.index import IvfPq

    return IvfPq(distance_type="cosine", num_partitions=max(16, int(rows**0.5)), num_sub_vectors=dim // 8)


def _newest_first():
    from lancedb.query import ColumnOrdering

    # Ties on created_at (a batch imported at once) break by id, so pages never overlap.
    return [
        ColumnOrdering(column_name="created_at", ascending=False, nulls_first=False),
        ColumnOrdering(column_name="id", ascending=False),
    ]


def _row(memory: Memory, vector=None, context: Memory | None = None) -> dict:
    row = memory.to_dict()
    row["meta"] = json.dumps(memory.meta, ensure_ascii=False)
    row["context"] = context.text if context else None
    row["context_id"] = context.id if context else None
    row["search_text"] = index_text(
        memory.text, when=memory.event_at or memory.created_at, context=row["context"], language=memory.language
    )
    row["vector"] = vector
    return row


def _same_episode(previous: Memory | None, memory: Memory) -> bool:
    """Consecutive turns of one conversation: episodes stored together, of one moment and session."""
    return (
        previous is not None
        and memory.kind == previous.kind == "episode"
        and memory.created_at == previous.created_at
        and memory.meta.get("session") == previous.meta.get("session")
    )


def _readable(method: Callable) -> Callable:
    """Turn LanceDB's I/O errors on a damaged store into one clear line (exit 2)."""

    @wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except MacaronError:
            raise
        except (OSError, RuntimeError) as exc:
            first = (str(exc).splitlines() or [type(exc).__name__])[0][:300]
            if disk_full(exc):
                raise UserError(
                    f"the disk holding the memory at {self.uri} is full; free some space and run it "
                    "again (the memory is as it was before this command)."
                ) from None
            raise UserError(
                f"the memory at {self.uri} could not be used ({first}); "
                "restore it from a backup or `macaron memory export` of it, or move it away."
            ) from None

    return wrapper


class MemoryStore:
    """The person's memory. Open with `MemoryStore.open()`; every method is safe to call often."""

    def __init__(self, db, uri: str, local_dir: Path | None):
        self._db = db
        self.uri = uri
        self._dir = local_dir
        self._lock = WriteLock(local_dir)
        self._table = db.open_table(TABLE)
        self.vectors = embeddings.available()
        self.settings = config.load_settings()  # λ of the time decay, trusted endpoints …
        self._superseded: tuple[int, frozenset] = (-1, frozenset())
        self._complete: tuple[int, bool] = (-1, False)

    # ── opening ─────────────────────────────────────────────────────────────────────────
    @classmethod
    def open(cls, home_or_uri: str | os.PathLike | None = None) -> MemoryStore:
        uri = str(home_or_uri) if home_or_uri is not None else config.memory_uri()
        local_dir = None if "://" in uri else Path(uri).expanduser()
        options = remote.storage_options(uri) if remote.kind(uri) else None  # refuses before any I/O
        if local_dir is not None:
            _check_local_dir(local_dir)
            if not local_dir.parent.exists() or local_dir.parent == config.home():
                config.ensure_private_dir(local_dir.parent)
            config.ensure_private_dir(local_dir)
            uri = str(local_dir)
        from macaron_cli.memory.lance import lancedb as import_lancedb

        lancedb = import_lancedb()
        try:
            # Interval 0: every read sees other processes' latest commits (chat + CLI + TUI).
            # On object storage each such check is a LIST of the versions, so a shared memory
            # looks at most once a second (a write always lands on the latest version).
            fresh = timedelta(0) if local_dir is not None else remote.FRESH_WITHIN
            db = lancedb.connect(uri, read_consistency_interval=fresh, storage_options=options)
            names = table_names(db)
            if TABLE in names:
                _check_ours(db.open_table(TABLE), uri)
            lock = WriteLock(local_dir)
            migrating = needs_migration(db, names, uri)
            if migrating:
                with lock.held(), _private_files():
                    _migrate(db, uri, shared=local_dir is None)
            store = cls(db, uri, local_dir)
            if store.vectors and store.vector_model() != embeddings.model_info():
                with store._writing():
                    store._switch_model()
            if migrating:  # a rewritten table needs its indexes again
                with store._writing():
                    store._maintain_indexes()
            store._table.count_rows()  # reads the manifest: a damaged store fails here, not later
        except MacaronError:
            raise
        except Exception as exc:  # lance raises bare RuntimeError/OSError/ValueError
            first = (str(exc).splitlines() or [type(exc).__name__])[0][:300]
            if disk_full(exc):
                raise UserError(
                    f"the disk holding the memory at {uri} is full; free some space and run it "
                    "again (the memory is as it was before this command)."
                ) from None
            raise UserError(f"cannot open the memory at {uri} ({first}); move it away or set MACARON_HOME.") from None
        return store

    # ── the model of the vectors ───────────────────────────────────────────────────────
    def vector_model(self) -> dict | None:
        """The model the store's vectors are from, as the store records it."""
        return vector_model(self._table.schema.field("vector"))

    def _switch_model(self) -> None:
        """Make the vector column the model in use's, empty: its vectors come from
        memory/reembed.py, and search goes by words until they are all there. Dropping and
        adding a column rewrites no data (other processes' reads see one or the other)."""
        if self.vector_model() == embeddings.model_info():  # another process did it meanwhile
            return
        if "vector" in self._indexes():
            self._table.drop_index(self._indexes()["vector"].name)
        self._table.drop_columns(["vector"])
        self._table.add_columns(vector_field())

    def vectors_complete(self) -> bool:
        """True when every memory has a vector of the model in use (cached until the table changes)."""
        version = self._table.version
        if self._complete[0] != version:
            self._complete = (
                version,
                self.vector_model() == embeddings.model_info() and self._table.count_rows("vector IS NULL") == 0,
            )
        return self._complete[1]

    def _schema(self):
        return memory_schema(self._table.schema.field("vector"))

    @property
    def shared(self) -> bool:
        """On object storage: other machines may write at any moment, and no lock keeps them out."""
        return self._dir is None

    @contextmanager
    def _writing(self):
        with self._lock.held(), _private_files():
            yield

    @property
    def table(self):
        """The LanceDB table, for the queries retrieval builds; every write goes through this class."""
        return self._table

    # ── writing ─────────────────────────────────────────────────────────────────────────
    @_readable
    def add(self, text: str, **fields) -> Memory:
        memory = self.prepare(Memory.from_dict({"text": text, **fields}))
        rows = self._rows([memory])
        with self._writing():
            if "id" in fields and self._existing_ids([memory.id]):
                raise UserError(f"a memory with id {memory.id!r} already exists; use `macaron memory edit`.")
            self._table.add(rows)
            self._maintain_indexes()
        return memory

    @_readable
    def add_many(self, memories: Iterable[Memory | dict], *, on_batch: Callable[[int], None] | None = None) -> int:
        """Add records in batches of BATCH; a record whose id exists replaces it (so an
        interrupted import can simply be run again). Streams: any iterable works.
        `on_batch(total)` is called after each batch is durably committed."""
        count, previous = 0, None
        for batch in _batched(memories, BATCH):
            prepared: dict[str, Memory] = {}
            contexts: dict[str, Memory | None] = {}
            for item in batch:
                memory = self.prepare(item if isinstance(item, Memory) else Memory.from_dict(item))
                prepared[memory.id] = memory  # the last of duplicate ids wins, as in a replay
                contexts[memory.id] = previous if _same_episode(previous, memory) else None
                previous = memory
            rows = self._rows(list(prepared.values()), [contexts[i] for i in prepared])
            with self._writing():
                if self._existing_ids(list(prepared)):
                    (
                        self._table.merge_insert("id")
                        .when_matched_update_all()
                        .when_not_matched_insert_all()
                        .execute(rows, on_bad_vectors="null")
                    )
                else:
                    self._table.add(rows)
                count += len(prepared)
                if on_batch:
                    on_batch(count)
        if count:
            with self._writing():
                self._maintain_indexes()
        return count

    def prepare(self, memory: Memory) -> Memory:
        """Redact secrets and fill in what can be inferred, before anything is stored."""
        memory = redacted(memory)
        language = memory.language
        if language == "en":
            language = detect_language(memory.text)
        return replace(memory, language=language)

    def _rows(self, memories: list[Memory], contexts: list[Memory | None] | None = None):
        import pyarrow as pa

        schema = self._schema()
        ours = self.vectors and vector_model(schema.field("vector")) == embeddings.model_info()
        texts = [meaning_form(m.text, m.language) for m in memories]
        vectors = embeddings.embed(texts) if ours else [None] * len(memories)
        contexts = contexts or [None] * len(memories)
        return pa.Table.from_pylist(
            [
                _row(m, None if v is None else [float(x) for x in v], c)
                for m, v, c in zip(memories, vectors, contexts, strict=True)
            ],
            schema=schema,
        )

    @_readable
    def update(self, memory_id: str, **changes) -> Memory:
        """Change fields in place; a new text makes a new version that supersedes the old."""
        unknown = sorted(set(changes) - set(MEMORY_COLUMNS) - {"text"} | ({"id"} & set(changes)))
        if unknown:
            raise UserError(
                f"cannot change {', '.join(unknown)}; changeable: {', '.join(c for c in MEMORY_COLUMNS if c != 'id')}."
            )
        old = self.get(memory_id)
        if "text" in changes and changes["text"] != old.text:
            keep = {k: v for k, v in old.to_dict().items() if k not in ("id", "text", "created_at", "use_count")}
            return self.add(changes.pop("text"), **{**keep, "supersedes": old.id, "updated_at": now_iso(), **changes})
        changes.pop("text", None)
        updated = replace(old, **changes, updated_at=now_iso())
        updated.validate()
        updated = redacted(updated)
        derived = ("id", "vector", "search_text", "text", "context", "context_id")
        values = {k: v for k, v in _row(updated).items() if k not in derived}
        with self._writing():
            self.get(memory_id)  # still there under the lock
            self._table.update(where=f"id = {quote(memory_id)}", values=values)
        return updated

    def pin(self, memory_id: str, pinned: bool = True) -> Memory:
        return self.update(memory_id, pinned=bool(pinned))

    @_readable
    def forget(self, memory_id: str) -> list[str]:
        """Delete a memory, the older versions it superseded and what was derived from them
        (see memory/derived.py), and leave no trace on disk: the data files that held them
        are rewritten, indexes rebuilt, old versions purged. Returns the ids removed."""
        plan = self.forget_plan(memory_id)
        self.apply_forget(plan)
        return plan.ids

    @_readable
    def forget_plan(self, memory_id: str) -> ForgetPlan:
        """What forgetting `memory_id` would remove or rewrite; changes nothing."""
        chain = self._version_chain(memory_id)
        plan = ForgetPlan(memory_id, [m.id for m in chain], [m.text for m in chain])
        while True:
            gone = set(plan.ids)
            more = False
            for memory in self._derived_from(gone):
                if memory.id in gone:
                    continue
                rewritten = derived.without(plan.rewrites.get(memory.id, memory), gone)
                if rewritten is None:
                    plan.rewrites.pop(memory.id, None)
                    plan.ids.append(memory.id)
                    plan.texts.append(memory.text)
                    more = True
                else:
                    plan.rewrites[memory.id] = rewritten
            if not more:
                # Memories that quote it without a link go the same way.
                return derived.with_quotes(plan, self.list(limit=None))

    @_readable
    def apply_forget(self, plan: ForgetPlan) -> None:
        """Carry out a plan. Safe to run again after an interruption at any point: what is
        already gone is skipped and the old versions are purged every time."""
        with self._writing():
            # Under the local lock nothing races these; on a shared memory another machine's
            # commit may land first, and each step is safe to run again.
            remote.retrying(lambda: self._rewrite_without(plan.ids, plan.rewrites))
            remote.retrying(self._rebuild_indexes)
            self.purge_history()

    def _version_chain(self, memory_id: str) -> list[Memory]:
        chain: list[Memory] = []
        current: Memory | None = self.get(memory_id)
        while current is not None and current.id not in [m.id for m in chain]:
            chain.append(current)
            older = current.supersedes
            current = self._get_or_none(older) if older else None
        return chain

    def _derived_from(self, ids: set[str]) -> list[Memory]:
        rows = (
            self._table.search()
            .where(f"meta LIKE '%{derived.DERIVED_FROM}%'")
            .select(MEMORY_COLUMNS)
            .limit(None)
            .to_list()
        )
        return [m for m in map(_memory, rows) if derived.sources(m) & ids]

    def _rewrite_without(self, ids: list[str], rewrites: dict[str, Memory] | None = None) -> None:
        """Drop `ids` and rewrite the rest of every fragment that held them, in one commit.

        A plain delete only marks rows deleted: their text stays in the data file until a
        compaction that may never come. merge_insert rewrites the fragment's other rows into
        new files (the old file is then unreferenced and purged) and deletes `ids` atomically.
        `rewrites` (memories derived from the forgotten ones) replace their rows in the same commit.
        """
        rewrites = rewrites or {}
        # Turns indexed with a forgotten one as their context lose that context too.
        dependents = self._table.search().where(f"context_id IN ({', '.join(quote(i) for i in ids)})")
        dependents = {r["id"] for r in dependents.select(["id"]).limit(None).to_list()} - set(ids)
        affected = _id_in([*ids, *dependents, *rewrites])
        addresses = self._table.search().where(affected).select(["id", "_rowaddr"]).limit(None).to_list()
        if not addresses:
            return  # done already (a forget run again after an interruption)
        fragments = sorted({r["_rowaddr"] >> 32 for r in addresses})
        in_fragments = " OR ".join(f"(_rowaddr >= {f << 32} AND _rowaddr < {(f + 1) << 32})" for f in fragments)
        schema = self._schema()
        mates = (
            self._table.search()
            .where(f"({in_fragments}) AND NOT {_id_in(ids)}")
            .select(schema.names)
            .limit(None)
            .to_arrow()
        )
        if mates.num_rows:
            import pyarrow as pa

            rows = mates.select(schema.names).to_pylist()
            for row in rows:
                if row["id"] in rewrites:
                    memory = rewrites[row["id"]]
                    vector = embeddings.embed([meaning_form(memory.text, memory.language)])[0] if self.vectors else None
                    keeps_context = row.get("context") and row["id"] not in dependents
                    context = Memory(text=row["context"], id=row["context_id"]) if keeps_context else None
                    row.update(_row(memory, None if vector is None else [float(x) for x in vector], context))
                elif row["id"] in dependents:
                    row.update(_row(_memory(row), row["vector"], None))
            mates = pa.Table.from_pylist(rows, schema=schema)
            (
                self._table.merge_insert("id")
                .when_matched_update_all()
                .when_not_matched_by_source_delete(_id_in(ids))
                .execute(mates, on_bad_vectors="null")
            )
        else:
            self._table.delete(_id_in(ids))

    def purge_history(self) -> None:
        """Delete every older version of the table (and files no version uses)."""
        import warnings

        with self._writing(), warnings.catch_warnings():
            # We mean it: old versions still hold forgotten text.
            warnings.simplefilter("ignore")
            if not self.shared:  # we hold the write lock: no file is part of a commit in flight
                self._table.optimize(cleanup_older_than=timedelta(0), delete_unverified=True)
                return
            # Another machine may be between writing a data file and committing it: deleting
            # files no version names yet could break its commit. Every file that an older
            # version names (the forgotten text among them) goes now.
            remote.retrying(lambda: self._table.optimize(cleanup_older_than=timedelta(0)))

    # ── indexes ─────────────────────────────────────────────────────────────────────────
    def _indexes(self) -> dict:
        return {ix.columns[0]: ix for ix in self._table.list_indices()}

    def _maintain_indexes(self) -> None:
        """Keep indexes current cheaply: build once, then fold new rows in incrementally."""
        if not self.shared:
            self._upkeep()
            return
        try:
            self._upkeep()
        except Exception as exc:  # lance raises bare RuntimeError/OSError
            if not remote.is_conflict(exc):
                raise
            # Another machine committed first; its write or the next one does this upkeep.

    def _upkeep(self) -> None:
        rows = self._table.count_rows()
        if rows == 0:
            return
        if self._table.stats()["fragment_stats"]["num_fragments"] > MAX_FRAGMENTS:
            self._optimize()  # compacts, and folds every unindexed row into the indexes
        indexes = self._indexes()
        if FTS_COLUMN not in indexes:
            self._create_fts_index()
        # Unindexed rows are still found, but slowly (a scan), and BM25 scores them with their
        # own statistics, which skews it while they are a large share. Rewritten rows (an
        # upsert, a forget) fall out of the id index too. Fold them in (incrementally) at once
        # in small local stores, where it is cheap, and in batches in large ones. optimize()
        # also compacts, which rewrites every small fragment: on object storage that is the
        # whole table over the network, and a race with other machines' commits, so a shared
        # memory folds rows in only with the compaction every MAX_FRAGMENTS writes.
        unindexed = max((self._unindexed(ix.name) for ix in indexes.values()), default=0)
        small = rows < SMALL_STORE and not self.shared
        if unindexed and (small or unindexed >= max(REINDEX_AFTER, rows // 100)):
            self._optimize()
        if rows >= SCALAR_INDEX_ROWS:
            from lancedb.index import Bitmap, BTree

            # id: get, edit, forget; context_id: the turns beside a search's best matches;
            # privacy: every search for a cloud model filters on it before ranking.
            for column, kind in (("id", BTree), ("context_id", BTree), ("privacy", Bitmap)):
                if column not in indexes:
                    self._table.create_index(column, config=kind())
        if self.vectors and rows >= self._vector_index_rows() and "vector" not in indexes:
            self._create_vector_index(rows)

    def _optimize(self) -> None:
        """Compact, fold unindexed rows into the indexes, and drop versions past their use."""
        if not self.shared:
            import warnings

            # Each write leaves a table version with its own index files; LanceDB's default
            # keeps them a week (bench/disk_after_adds.py). Here they go once KEEP_VERSIONS old:
            # the version just written (younger) still names every file a reader of the one
            # before it can need, and this runs under the write lock.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                self._table.optimize(cleanup_older_than=KEEP_VERSIONS)
            return
        # Every read of a shared memory LISTs its versions: keep an hour of them (enough for
        # any commit in flight), not LanceDB's default week of every write.
        self._table.optimize(cleanup_older_than=remote.KEEP_VERSIONS)

    def _unindexed(self, index_name: str) -> int:
        stats = self._table.index_stats(index_name)
        return stats.num_unindexed_rows if stats else 0

    def _create_fts_index(self) -> None:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self._table.create_fts_index(
                FTS_COLUMN,
                replace=True,
                base_tokenizer="simple",
                stem=True,
                remove_stop_words=True,
                ascii_folding=True,
                lower_case=True,
                with_position=False,
            )

    def _vector_index_rows(self) -> int:
        return min(VECTOR_INDEX_ROWS, SHARED_VECTOR_INDEX_ROWS) if self.shared else VECTOR_INDEX_ROWS

    def _create_vector_index(self, rows: int) -> None:
        with_vectors = self._table.count_rows("vector IS NOT NULL")
        if with_vectors < self._vector_index_rows():
            return
        dim = self._table.schema.field("vector").type.list_size
        self._table.create_index("vector", replace=True, config=vector_index_config(with_vectors, dim))

    def _rebuild_indexes(self) -> None:
        """Rebuild from the current rows only, so no index keeps a forgotten memory's terms."""
        indexes = self._indexes()
        if self._table.count_rows() == 0:
            for ix in indexes.values():
                self._table.drop_index(ix.name)
            return
        if FTS_COLUMN in indexes:
            self._create_fts_index()
        if "vector" in indexes:
            self._create_vector_index(self._table.count_rows())

    # ── reading ─────────────────────────────────────────────────────────────────────────
    @_readable
    def get(self, memory_id: str) -> Memory:
        memory = self._get_or_none(memory_id)
        if memory is None:
            raise UserError(f"no memory with id {memory_id!r}; `macaron memory list` shows the ids.")
        return memory

    def _get_or_none(self, memory_id: str) -> Memory | None:
        rows = self._table.search().where(f"id = {quote(memory_id)}").select(MEMORY_COLUMNS).limit(1).to_list()
        return _memory(rows[0]) if rows else None

    def _existing_ids(self, ids: list[str]) -> set[str]:
        if not ids or self._table.count_rows() == 0:
            return set()
        rows = self._table.search().where(_id_in(ids)).select(["id"]).limit(None).to_arrow()
        return set(rows["id"].to_pylist())

    def superseded_ids(self) -> frozenset:
        """Ids of memories a newer version replaced (cached until the table changes)."""
        version = self._table.version
        if self._superseded[0] != version:
            rows = self._table.search().where("supersedes IS NOT NULL").select(["supersedes"]).limit(None).to_arrow()
            self._superseded = (version, frozenset(rows["supersedes"].to_pylist()))
        return self._superseded[1]

    # From here on, `list` in this class is this method: annotations say builtins.list.
    @_readable
    def list(self, limit: int | None = 50, offset: int = 0, where: str | None = None) -> builtins.list[Memory]:
        """Newest first. `where` is a LanceDB SQL filter, e.g. "domain = 'food'"."""
        # Lance sorts and pages (a top-k over two small columns, nothing sorted in Python),
        # then whole rows are read for this page alone, however large the store.
        q = self._table.search().select(["id", "created_at"]).with_row_id(True).order_by(_newest_first()).limit(limit)
        if offset:
            q = q.offset(offset)
        if where:
            q = q.where(where)
        chosen = q.to_arrow().to_pylist()
        rows = self.whole_rows(chosen, MEMORY_COLUMNS)
        return [_memory(rows[r["id"]]) for r in chosen if r["id"] in rows]

    def whole_rows(self, found: builtins.list[dict], columns: builtins.list[str]) -> dict[str, dict]:
        """`columns` of rows a query found (each with its `id` and `_rowid`), by id. Queries read
        a few columns of many rows; the rest is read here for the few rows that matter, by row
        id (no index lookup). A row that moved since (another process compacted the table in
        between) is read by its id instead."""
        if not found:
            return {}
        columns = columns if "id" in columns else ["id", *columns]
        wanted = {r["id"] for r in found}
        try:
            taken = self._table.take_row_ids([r["_rowid"] for r in found]).select(columns).to_list()
        except (OSError, ValueError, RuntimeError):  # an address no longer in the table
            taken = []
        rows = {r["id"]: r for r in taken if r["id"] in wanted}
        if len(rows) < len(wanted):
            missing = _id_in(wanted - set(rows))
            rows.update((r["id"], r) for r in self._table.search().where(missing).select(columns).limit(None).to_list())
        return rows

    @_readable
    def iter_all(self) -> Iterator[Memory]:
        for batch in self._table.search().select(MEMORY_COLUMNS).limit(None).to_batches(BATCH):
            for row in batch.to_pylist():
                yield _memory(row)

    @_readable
    def count(self, where: str | None = None) -> int:
        """How many memories (under a LanceDB SQL filter, e.g. "domain = 'food'")."""
        return self._table.count_rows(where)

    @_readable
    def distinct(self, column: str) -> builtins.list[str]:
        """Every value one column takes (e.g. the domains in use), reading only that column."""
        import pyarrow.compute as pc

        values = self._table.search().select([column]).limit(None).to_arrow()[column]
        return sorted(v for v in pc.unique(values).to_pylist() if v is not None)

    def weight(self, memory: Memory, now: datetime | None = None) -> float:
        """The memory's importance now, as search weighs it (reward, age since last use, verified, pinned)."""
        from macaron_cli.memory.retrieval import importance

        return importance(memory, now or datetime.now(UTC), self.settings.decay_per_day)

    @_readable
    def stats(self) -> dict:
        import pyarrow.compute as pc

        data = (
            self._table.search()
            .select(["kind", "domain", "language", "privacy", "pinned", "supersedes"])
            .limit(None)
            .to_arrow()
        )

        def counts(column: str) -> dict:
            return (
                {r["values"]: r["counts"] for r in pc.value_counts(data[column]).to_pylist()} if data.num_rows else {}
            )

        return {
            "total": data.num_rows,
            "pinned": int(pc.sum(data["pinned"]).as_py() or 0) if data.num_rows else 0,
            "superseded": len({v for v in data["supersedes"].to_pylist() if v}),
            **{f"by_{c}": counts(c) for c in ("kind", "domain", "language", "privacy")},
            "uri": self.uri,
            **describe(self._db),
            "embeddings": self.vectors,
            "with_vectors": self._table.count_rows("vector IS NOT NULL") if data.num_rows else 0,
            "vector_model": self.vector_model(),
            "indexes": sorted(ix.index_type for ix in self._table.list_indices()),
            "disk_bytes": _disk_bytes(self._dir) if self._dir else None,
        }

    @_readable
    def search(
        self, query: str, k: int = 10, *, privacy: Iterable[str] | None = None, now: datetime | None = None, **options
    ) -> builtins.list[Hit]:
        """Hybrid retrieval, re-weighted softly; see memory/retrieval.py."""
        from macaron_cli.memory.retrieval import search

        return search(self, query, k=k, privacy=privacy, now=now, **options)


def _migrate(db, uri: str, shared: bool) -> None:
    """Bring the store to the current schema. On object storage a second machine opening a
    new memory at the same moment may create its tables first: then wait for its migration."""
    for attempt in range(40):
        try:
            migrate(db, uri)
            return
        except MacaronError:
            raise
        except Exception:
            if not shared or attempt == 39:
                raise
            time.sleep(0.25)
            if not needs_migration(db, table_names(db), uri):
                return


def _check_local_dir(path: Path) -> None:
    """Refuse, with a clear line, anything at `path` that is not (or cannot be) our store."""
    if path.exists() and not path.is_dir():
        raise UserError(f"{path} is a file, not a memory store; move it away or set MACARON_HOME.")
    if not path.exists():
        return
    try:
        entries = {p.name for p in path.iterdir()}
    except PermissionError:
        raise UserError(
            f"cannot read the memory at {path} (permission denied); fix its owner or permissions."
        ) from None
    if not os.access(path, os.R_OK | os.W_OK | os.X_OK):
        raise UserError(f"cannot read and write the memory at {path}; fix its owner or permissions.")
    foreign = sorted(entries - {LOCK_NAME, REEMBED_LOCK_NAME, f"{TABLE}.lance", "migrations.lance"})
    if foreign:
        raise UserError(
            f"{path} holds something that is not a macaron memory ({foreign[0]}); "
            "choose another MACARON_HOME or MACARON_MEMORY_URI."
        )


def _check_ours(table, uri: str) -> None:
    version = schema_version_of(table)
    if version is None or "search_text" not in table.schema.names:
        raise UserError(f"{uri} holds a table that macaron did not write; choose another MACARON_HOME.")
    if version > SCHEMA_VERSION:
        raise UserError(f"the memory at {uri} was written by a newer macaron (schema {version}); upgrade macaron.")


@contextmanager
def _private_files():
    """Files LanceDB creates meanwhile are readable by the person alone (0600, dirs 0700)."""
    old = os.umask(0o077)
    try:
        yield
    finally:
        os.umask(old)


def _disk_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def _batched(items: Iterable, size: int):
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch
