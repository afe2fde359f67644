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
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

from macaron_cli import config
from macaron_cli.errors import MacaronError, UserError
from macaron_cli.memory import embeddings, opening, remote, rewrite, upkeep
from macaron_cli.memory.completeness import VectorProof
from macaron_cli.memory.derived import ForgetPlan, sources, sources_in
from macaron_cli.memory.failures import as_user_error, readable
from macaron_cli.memory.locking import UPKEEP_LOCK_NAME, WriteLock
from macaron_cli.memory.records import Hit, Memory, Snapshot, now_iso
from macaron_cli.memory.redact import redacted
from macaron_cli.memory.rows import MEMORY_COLUMNS, quote, to_row
from macaron_cli.memory.rows import id_in as _id_in
from macaron_cli.memory.rows import memory_from_row as _memory
from macaron_cli.memory.schema import TABLE, describe, memory_schema, vector_field, vector_model
from macaron_cli.memory.text import meaning_form
from macaron_cli.memory.turns import Thread
from macaron_cli.privacy import labelled_from_sources
from macaron_cli.reading.text import detect_language

BATCH = 2000
# A reply comes within this long of the turn it answers, or it starts an exchange of its own.
TURN_GAP = timedelta(minutes=30)


def _newest_first():
    from lancedb.query import ColumnOrdering

    # Ties on created_at (a batch imported at once) break by id, so pages never overlap.
    return [
        ColumnOrdering(column_name="created_at", ascending=False, nulls_first=False),
        ColumnOrdering(column_name="id", ascending=False),
    ]


def _same_episode(previous: Memory | None, memory: Memory) -> bool:
    """Consecutive turns of one conversation: episodes stored together, of one session, the
    later at most TURN_GAP after the earlier (an export that stamps each message apart is
    still one exchange)."""
    if previous is None or not memory.kind == previous.kind == "episode":
        return False
    if memory.meta.get("session") != previous.meta.get("session"):
        return False
    gap = datetime.fromisoformat(memory.created_at) - datetime.fromisoformat(previous.created_at)
    return timedelta(0) <= gap <= TURN_GAP


class MemoryStore:
    """The person's memory. Open with `MemoryStore.open(settings=…)`; every method is safe to call often."""

    def __init__(self, db, uri: str, local_dir: Path | None, settings: config.Settings):
        self._db = db
        self.uri = uri
        self._dir = local_dir
        self._lock = WriteLock(local_dir)
        self._upkeep = WriteLock(local_dir, name=UPKEEP_LOCK_NAME)
        self._table = db.open_table(TABLE)
        self.vectors = embeddings.available()
        self.settings = settings  # λ of the time decay, trusted endpoints …
        self._snapshot = Snapshot(-1, 0, frozenset())
        self._complete: tuple[int, bool] = (-1, False)
        self._proof = VectorProof(local_dir)

    # ── opening ─────────────────────────────────────────────────────────────────────────
    @classmethod
    def open(cls, home_or_uri: str | os.PathLike | None = None, settings: config.Settings | None = None) -> MemoryStore:
        """The memory at `home_or_uri` (else where the settings say). `settings` are the
        person's, loaded by the command; without them, the defaults (a test's, a bench's)."""
        settings = settings or config.Settings()
        embeddings.choose(settings.embedding_model)
        uri, local_dir, options = opening.locate(home_or_uri, settings)
        from macaron_cli.memory.lance import lancedb as import_lancedb

        lancedb = import_lancedb()
        try:
            db, migrating = opening.connect(lancedb, uri, local_dir, options)
            store = cls(db, uri, local_dir, settings)
            if store.vectors and store.vector_model() != embeddings.model_info():
                with store._exclusive():
                    store._switch_model()
            if migrating:  # a rewritten table needs its indexes again
                with store._writing():
                    store._maintain_indexes()
            store._table.count_rows()  # reads the manifest: a damaged store fails here, not later
        except MacaronError:
            raise
        except Exception as exc:  # lance raises bare RuntimeError/OSError/ValueError
            raise as_user_error(exc, uri, opening=True) from None
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
        indexes = upkeep.indexes(self._table)
        if "vector" in indexes:
            self._table.drop_index(indexes["vector"].name)
        self._table.drop_columns(["vector"])
        self._table.add_columns(vector_field())

    def vectors_complete(self) -> bool:
        """True when every memory has a vector of the model in use: a local store's proof says
        so (memory/completeness.py); else a count, cached until the table changes."""
        model = embeddings.model_info()
        if self._proof.holds(model):
            return True
        version = self._table.version
        if self._complete[0] != version:
            self._complete = (version, self._counted_complete(model))
        return self._complete[1]

    def _counted_complete(self, model: dict) -> bool:
        if self.vector_model() != model or self._table.count_rows("vector IS NULL"):
            return False
        if not self._lock.mine:  # inside a write, what it writes is not counted yet
            with self._lock.attempt() as ours:  # no write may slip in between the count and the proof
                if ours and self.vector_model() == model and not self._table.count_rows("vector IS NULL"):
                    self._proof.prove(model)
        return True

    def _schema(self):
        return memory_schema(self._table.schema.field("vector"))

    @property
    def shared(self) -> bool:
        """On object storage: other machines may write at any moment, and no lock keeps them out."""
        return self._dir is None

    @contextmanager
    def _writing(self):
        """Hold the write lock and yield `commit`, what every write runs through: on a shared
        memory another machine's commits may beat one, which then did not land and runs again
        (memory/remote.py)."""
        with self._lock.held(), opening.private_files():
            # What this process writes has vectors of its model, or none: the proof may not hold after.
            self._proof.keep_for(embeddings.model_info() if self.vectors else None)
            yield remote.retrying

    @contextmanager
    def _exclusive(self):
        """For what must not run beside an upkeep worker's compaction (memory/upkeep_worker.py):
        forget's rewrite and purge, a changed schema."""
        with self._writing(), self._upkeep.held():
            yield

    def settle(self) -> None:
        """Wait until no upkeep runs in the background (benchmarks and tests compare states)."""
        with self._upkeep.held():
            pass

    @property
    def table(self):
        """The LanceDB table, for the queries retrieval builds; every write goes through this class."""
        return self._table

    # ── writing ─────────────────────────────────────────────────────────────────────────
    @readable
    def add(self, text: str, **fields) -> Memory:
        memory = self.prepare(Memory.from_dict({"text": text, **fields}))
        rows = self._rows([memory])
        with self._writing() as commit:
            if "id" in fields and self._existing_ids([memory.id]):
                raise UserError(f"a memory with id {memory.id!r} already exists; use `macaron memory edit`.")
            commit(lambda: self._table.add(rows))
            self._maintain_indexes(later=True)
        return memory

    @readable
    def add_many(
        self, memories: Iterable[Memory | dict], *, on_batch: Callable[[int], None] | None = None, ready: bool = False
    ) -> int:
        """Add records in batches of BATCH; a record whose id exists replaces it (so an
        interrupted import can simply be run again). Streams: any iterable works.
        `on_batch(total)` is called after each batch is durably committed. `ready`: each
        record came from `prepare` already (an import that compares redacted texts)."""
        count, thread = 0, Thread(_same_episode)  # which turn each follows (memory/turns.py)
        for batch in _batched(memories):
            prepared: dict[str, Memory] = {}
            contexts: dict[str, Memory | None] = {}
            for item in batch:
                memory = item if isinstance(item, Memory) else Memory.from_dict(item)
                memory = memory if ready else self.prepare(memory)
                prepared[memory.id] = memory  # the last of duplicate ids wins, as in a replay
                contexts[memory.id] = thread.context(memory)
            rows = self._rows(list(prepared.values()), [contexts[i] for i in prepared])
            with self._writing() as commit:
                commit(partial(self._commit_batch, list(prepared), rows))
                count += len(prepared)
                if on_batch:
                    on_batch(count)
        if count:
            with self._writing():
                # An import waits for its indexes; a few memories at once (chat's) do not.
                self._maintain_indexes(later=count < BATCH)
        return count

    def _commit_batch(self, ids: list[str], rows) -> None:
        """One batch of add_many, as one commit: a replayed id replaces its memory."""
        if self._existing_ids(ids):
            (
                self._table.merge_insert("id")
                .when_matched_update_all()
                .when_not_matched_insert_all()
                .execute(rows, on_bad_vectors="null")
            )
        else:
            self._table.add(rows)

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
                to_row(m, None if v is None else [float(x) for x in v], c)
                for m, v, c in zip(memories, vectors, contexts, strict=True)
            ],
            schema=schema,
        )

    @readable
    def update(self, memory_id: str, **changes) -> Memory:
        """Change fields in place; a new text makes a new version that supersedes the old."""
        unknown = sorted(set(changes) - set(MEMORY_COLUMNS) - {"text"} | ({"id"} & set(changes)))
        if unknown:
            raise UserError(
                f"cannot change {', '.join(unknown)}; changeable: {', '.join(c for c in MEMORY_COLUMNS if c != 'id')}."
            )
        old = self._stored(memory_id)
        if "text" in changes and changes["text"] != old.text:
            if old.id in self.superseded_ids():  # a second new version of it would leave two live ones
                live = self.live_version(old.id)
                raise UserError(
                    f"{old.id} was replaced by a newer version; edit that one: {live.id} ({live.text[:60]!r})."
                )
            keep = {k: v for k, v in old.to_dict().items() if k not in ("id", "text", "created_at", "use_count")}
            return self.add(changes.pop("text"), **{**keep, "supersedes": old.id, "updated_at": now_iso(), **changes})
        changes.pop("text", None)
        updated = replace(old, **changes, updated_at=now_iso())
        updated.validate()
        updated = redacted(updated)
        derived = ("id", "vector", "search_text", "text", "context", "context_id")
        values = {k: v for k, v in to_row(updated).items() if k not in derived}
        with self._writing() as commit:
            self._stored(memory_id)  # still there under the lock
            commit(lambda: self._table.update(where=f"id = {quote(memory_id)}", values=values))
        return updated

    @readable
    def used(self, memory_ids: Iterable[str]) -> None:
        """Count one use of each memory (`use_count` + 1, used and updated now), in one write:
        an answer uses several, and each write leaves the table a fragment every search then
        pays for. A memory forgotten meanwhile has nothing to count."""
        ids = sorted(set(memory_ids))
        if not ids:
            return
        stamp = quote(now_iso())
        changes = {"use_count": "use_count + 1", "last_used_at": stamp, "updated_at": stamp}
        with self._writing() as commit:
            commit(lambda: self._table.update(where=_id_in(ids), values_sql=changes))

    def live_version(self, memory_id: str) -> Memory:
        """The newest version of a memory (itself when nothing replaced it)."""
        current, seen = self.get(memory_id), {memory_id}
        while newer := self.list(limit=1, where=f"supersedes = {quote(current.id)}"):
            if newer[0].id in seen:
                break
            current = newer[0]
            seen.add(current.id)
        return current

    def pin(self, memory_id: str, pinned: bool = True) -> Memory:
        return self.update(memory_id, pinned=bool(pinned))

    @readable
    def forget(self, memory_id: str) -> list[str]:
        """Delete a memory, the older versions it superseded and what was derived from them
        (see memory/derived.py), and leave no trace on disk: the data files that held them
        are rewritten, indexes rebuilt, old versions purged. Returns the ids removed."""
        plan = self.forget_plan(memory_id)
        self.apply_forget(plan)
        return plan.ids

    @readable
    def forget_plan(self, memory_id: str) -> ForgetPlan:
        """What forgetting `memory_id` would remove or rewrite; changes nothing."""
        return rewrite.forget_plan(self, memory_id)

    @readable
    def apply_forget(self, plan: ForgetPlan, on_step: Callable[[str], None] | None = None) -> None:
        """Carry out a plan. Safe to run again after an interruption at any point: what is
        already gone is skipped and the old versions are purged every time. `on_step` hears
        "rewritten" once the rows are, before the old versions are purged."""
        with self._exclusive():
            # Under the local lock nothing races these; on a shared memory another machine's
            # commit may land first, and each step is safe to run again.
            remote.retrying(
                lambda: rewrite.rewrite_without(self._table, self._schema(), self.vectors, plan.ids, plan.rewrites)
            )
            remote.retrying(lambda: upkeep.rebuild(self._table, shared=self.shared))
            if on_step:
                on_step("rewritten")
            self.purge_history()

    def purge_history(self) -> None:
        """Delete every older version of the table (and files no version uses)."""
        with self._exclusive():
            upkeep.purge_history(self._table, shared=self.shared)

    def _maintain_indexes(self, *, later: bool = False) -> None:
        """Keep indexes current cheaply after a write (memory/upkeep.py); `later`: in the
        background where the store is large."""
        upkeep.maintain(
            self._table, shared=self.shared, vectors=self.vectors, local_dir=self._dir, lock=self._upkeep, later=later
        )

    # ── reading ─────────────────────────────────────────────────────────────────────────
    @readable
    def get(self, memory_id: str) -> Memory:
        memory = self.find(memory_id)
        if memory is None:
            raise UserError(f"no memory with id {memory_id!r}; `macaron memory list` shows the ids.")
        return memory

    def find(self, memory_id: str) -> Memory | None:
        """The memory with `memory_id`, or None."""
        rows = self._table.search().where(f"id = {quote(memory_id)}").select(MEMORY_COLUMNS).limit(1).to_list()
        return self.labelled([_memory(rows[0])])[0] if rows else None

    def _stored(self, memory_id: str) -> Memory:
        """The memory as stored, its own label (not its sources'): what a write starts from."""
        rows = self._table.search().where(f"id = {quote(memory_id)}").select(MEMORY_COLUMNS).limit(1).to_list()
        if not rows:
            raise UserError(f"no memory with id {memory_id!r}; `macaron memory list` shows the ids.")
        return _memory(rows[0])

    # ── labels: a derived memory is as private as its sources are now ──────────────────
    # Every reader gets memories through `labelled` (find, list, iter_all, search), so the
    # gate, which reads `privacy`, sees the label computed from the sources at every read.
    def labelled(self, memories: builtins.list[Memory]) -> builtins.list[Memory]:
        """`memories` with each derived one's label raised to its sources' (the gate's rule)."""
        return labelled_from_sources(memories, sources, self._levels_and_sources)

    def _levels_and_sources(self, ids: set[str]) -> dict[str, tuple[str, set[str]]]:
        rows = self._table.search().where(_id_in(ids)).select(["id", "privacy", "meta"]).limit(None).to_list()
        return {r["id"]: (r["privacy"], sources_in(json.loads(r["meta"] or "{}"))) for r in rows}

    def _existing_ids(self, ids: list[str]) -> set[str]:
        if not ids or self._table.count_rows() == 0:
            return set()
        rows = self._table.search().where(_id_in(ids)).select(["id"]).limit(None).to_arrow()
        return set(rows["id"].to_pylist())

    def superseded_ids(self) -> frozenset:
        """Ids of memories a newer version replaced (cached until the table changes)."""
        return self.snapshot().superseded

    def snapshot(self) -> Snapshot:
        """The table as of its latest version, cached until the table changes: a search looks
        at the version once, where a count and a read of the replaced would each look again."""
        version = self._table.version
        if self._snapshot.version != version:
            rows = self._table.count_rows()
            found = self._table.search().where("supersedes IS NOT NULL").select(["supersedes"]).limit(None)
            superseded = frozenset(found.to_arrow()["supersedes"].to_pylist()) if rows else frozenset()
            self._snapshot = Snapshot(version, rows, superseded)
        return self._snapshot

    # ── live versions: the rule every reader follows ─────────────────────────────────────
    # A memory edited (or an app's digest renewed) keeps its old text as a version the new
    # one supersedes: history, never an answer. Readers ask for `live` and `iter_live`, and
    # search drops what `superseded_ids` names; `list` and `iter_all` hold every version for
    # the few that show or need history (`memory list --all`, the memory browser, forget,
    # import's matching), named in tests/test_live_versions.py.
    @readable
    def live(self, limit: int | None = 50, offset: int = 0, where: str | None = None) -> builtins.list[Memory]:
        """Newest first, the versions nothing replaced. `where` is a LanceDB SQL filter."""
        return self._page(limit, offset, where, self.superseded_ids())

    @readable
    def live_with_text(self, text: str) -> Memory | None:
        """The live memory that says exactly `text` (as it would be stored: redacted), if any."""
        from macaron_cli.memory.redact import redact

        found = self.live(limit=1, where=f"text = {quote(redact(text)[0])}")
        return found[0] if found else None

    @readable
    def iter_live(self) -> Iterator[Memory]:
        """Every memory nothing replaced, in no order (a batch at a time)."""
        replaced = self.superseded_ids()
        return (m for m in self.iter_all() if m.id not in replaced)

    # From here on, `list` in this class is this method: annotations say builtins.list.
    @readable
    def list(self, limit: int | None = 50, offset: int = 0, where: str | None = None) -> builtins.list[Memory]:
        """Newest first, every version (replaced ones too: see `live`). `where` is a LanceDB
        SQL filter, e.g. "domain = 'food'"."""
        return self._page(limit, offset, where, frozenset())

    def _page(self, limit: int | None, offset: int, where: str | None, skipped: frozenset) -> builtins.list[Memory]:
        # Lance sorts and pages (a top-k over two small columns, nothing sorted in Python),
        # then whole rows are read for this page alone, however large the store. Skipped ids
        # are dropped from the narrow rows, so the page reads as many more of them.
        q = self._table.search().select(["id", "created_at"]).with_row_id(True).order_by(_newest_first())
        if skipped:
            q = q.limit(None if limit is None else offset + limit + len(skipped))
        else:
            q = q.limit(limit)
            if offset:
                q = q.offset(offset)
        if where:
            q = q.where(where)
        chosen = q.to_arrow().to_pylist()
        if skipped:
            chosen = [r for r in chosen if r["id"] not in skipped]
            chosen = chosen[offset:] if limit is None else chosen[offset : offset + limit]
        rows = self.whole_rows(chosen, MEMORY_COLUMNS)
        return self.labelled([_memory(rows[r["id"]]) for r in chosen if r["id"] in rows])

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

    @readable
    def iter_all(self) -> Iterator[Memory]:
        for batch in self._table.search().select(MEMORY_COLUMNS).limit(None).to_batches(BATCH):
            yield from self.labelled([_memory(row) for row in batch.to_pylist()])

    @readable
    def count(self, where: str | None = None) -> int:
        """How many memories (under a LanceDB SQL filter, e.g. "domain = 'food'")."""
        return self._table.count_rows(where)

    @readable
    def distinct(self, column: str) -> builtins.list[str]:
        """Every value one column takes (e.g. the domains in use), reading only that column."""
        import pyarrow.compute as pc

        values = self._table.search().select([column]).limit(None).to_arrow()[column]
        return sorted(v for v in pc.unique(values).to_pylist() if v is not None)

    def weight(self, memory: Memory, now: datetime | None = None) -> float:
        """The memory's importance now, as search weighs it (reward, age since last use, verified, pinned)."""
        from macaron_cli.memory.retrieval import importance

        return importance(memory, now or datetime.now(UTC), self.settings.decay_per_day)

    @readable
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

    @readable
    def search(
        self, query: str, k: int = 10, *, privacy: Iterable[str] | None = None, now: datetime | None = None, **options
    ) -> builtins.list[Hit]:
        """Hybrid retrieval, re-weighted softly; see memory/retrieval.py."""
        from macaron_cli.memory.retrieval import search

        hits = search(self, query, k=k, privacy=privacy, now=now, **options)
        labels = {m.id: m for m in self.labelled([h.memory for h in hits])}
        return [replace(h, memory=labels[h.memory.id]) for h in hits]


def _disk_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def _batched(items: Iterable):
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) >= BATCH:
            yield batch
            batch = []
    if batch:
        yield batch
