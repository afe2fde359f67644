"""The store's indexes and compaction: built once, then kept current cheaply as rows come,
rebuilt from the rows left after a forget, and old table versions purged.

Each function takes the LanceDB table and what it needs to know about the store: whether
it is `shared` (on object storage, where other machines commit at any moment and no lock
reaches them) and whether it has `vectors`. The store calls them under its write lock; the
upkeep of a large local store, which costs about as much as the store is large, runs under
an upkeep lock of its own, in a detached worker after a single write (memory/upkeep_worker.py).
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from macaron_cli.memory import detached, locking, remote
from macaron_cli.memory.locking import UPKEEP_LOCK_NAME
from macaron_cli.memory.rows import FTS_COLUMN

# Index upkeep and compaction are amortised, so no write's cost grows with the store: new
# rows wait unindexed (search still finds them, by a scan of those few rows) until REINDEX_AFTER
# of them (or 1% of the store) wait, MAX_FRAGMENTS writes have piled up, or the oldest
# pending write is MAX_AGE old; then the write that finds it so has them folded in. A store of
# fewer than SMALL_STORE rows folds every write in at once: it costs little there, and BM25
# scores unindexed rows with their own statistics, which would reorder equal matches while
# they are a large share of a small store.
REINDEX_AFTER = 1000
SMALL_STORE = 1000
# Above this many rows with vectors, build an IVF-PQ index instead of exact search.
VECTOR_INDEX_ROWS = 20000
# On object storage an exact search reads every vector over the network at each query, so a
# shared memory has its index from far fewer rows.
SHARED_VECTOR_INDEX_ROWS = 1000
SCALAR_INDEX_ROWS = 20000
# Every write adds a data fragment (an import, one per batch). Each query pays for every
# fragment, so past this many they are compacted into one, which makes a large store's
# searches markedly quicker (bench/memory_scale.py); in a large store a worker compacts,
# not the write (bench/memory_add.py).
MAX_FRAGMENTS = 32
MAX_AGE = timedelta(minutes=10)
# A local store keeps old table versions this long (see optimize).
KEEP_VERSIONS = timedelta(seconds=10)


def _btree():
    from lancedb.index import BTree

    return BTree()


def _bitmap():
    from lancedb.index import Bitmap

    return Bitmap()


# id: get, edit, forget; context_id: the turns beside a search's best matches; privacy: every
# search for a cloud model filters on it before ranking; created_at: the current truth's read of
# the memories said after the best hits (memory/updates.py), a filter before ranking too.
_SCALAR = {"id": _btree, "context_id": _btree, "privacy": _bitmap, "created_at": _btree}


def vector_index_config(rows: int, dim: int):
    """IVF-PQ: about sqrt(rows) partitions, the dimensions in sub-vectors of 8."""
    from lancedb.index import IvfPq

    return IvfPq(distance_type="cosine", num_partitions=max(16, int(rows**0.5)), num_sub_vectors=dim // 8)


def indexes(table) -> dict:
    """The table's indexes, by the column each is on."""
    return {ix.columns[0]: ix for ix in table.list_indices()}


@dataclass(frozen=True)
class Work:
    """The upkeep a write found due: compact and fold rows in, and the indexes to create."""

    rows: int = 0
    optimize: bool = False
    fts: bool = False
    indexes: tuple[str, ...] = ()  # scalar columns, and "vector"

    def __bool__(self) -> bool:
        return self.optimize or self.fts or bool(self.indexes)

    def words(self) -> list[str]:
        """As the upkeep worker's arguments."""
        return [*(["optimize"] if self.optimize else []), *(["fts"] if self.fts else []), *self.indexes]

    @classmethod
    def from_words(cls, words: list[str]) -> Work:
        columns = tuple(w for w in words if w in _SCALAR or w == "vector")
        return cls(optimize="optimize" in words, fts="fts" in words, indexes=columns)


def maintain(table, *, shared: bool, vectors: bool, local_dir: Path | None, lock, later: bool = False) -> None:
    """Keep indexes current cheaply: build once, then fold new rows in incrementally.

    `lock` is the store's upkeep lock (locking.UPKEEP_LOCK_NAME). With `later`, the upkeep
    of a large local store runs in a detached worker (memory/upkeep_worker.py), so the write
    that finds it due returns at once; appends and updates go on beside it (a compaction
    that an update beats is retried; the update never fails)."""
    work = due(table, shared=shared, vectors=vectors, since=None if shared else upkept_at(local_dir))
    if not work:
        return
    if shared:
        try:
            run(table, work, shared=True)
        except Exception as exc:  # lance raises bare RuntimeError/OSError
            if not remote.is_conflict(exc):
                raise
            # Another machine committed first; its write or the next one does this upkeep.
        return
    assert local_dir is not None
    # Without a full-text index no word search works, so that one is never left for later.
    if later and work.rows >= SMALL_STORE and not work.fts and not lock.mine and start_worker(local_dir, work):
        return
    with lock.held():
        run(table, work, shared=False)
        finished(local_dir)


def due(table, *, shared: bool, vectors: bool, since: datetime | None) -> Work:
    """What upkeep this table needs now: a few cheap looks, none that grows with the store."""
    stats = table.stats()
    rows = stats["num_rows"]
    if rows == 0:
        return Work()
    found = indexes(table)
    # Unindexed rows are still found, but by a scan, and BM25 scores them with their own
    # statistics, which skews it while they are a large share; rewritten rows (an upsert, a
    # forget) fall out of the id index too. optimize() folds them in and compacts. It costs
    # about as much as the store is large, so it runs only once the writes since the last one
    # are many or old. On object storage compaction rewrites every small fragment over the
    # network and races other machines' commits, so there the fragments alone decide.
    # Every new or rewritten row waits for the full-text index as for any other: its count
    # stands for all (one look, not one per index, on every write).
    unindexed = _unindexed(table, found[FTS_COLUMN].name) if FTS_COLUMN in found else 0
    fragments = stats["fragment_stats"]["num_fragments"]
    optimize = fragments > MAX_FRAGMENTS or bool(
        unindexed
        and (
            unindexed >= max(REINDEX_AFTER, rows // 100)
            or (not shared and rows < SMALL_STORE)
            or (since is not None and datetime.now(UTC) - since > MAX_AGE)
        )
    )
    wanted: list[str] = []
    if rows >= SCALAR_INDEX_ROWS:
        wanted += [column for column in _SCALAR if column not in found]
    if vectors and rows >= _vector_index_rows(shared) and "vector" not in found:
        wanted.append("vector")
    return Work(rows=rows, optimize=optimize, fts=FTS_COLUMN not in found, indexes=tuple(wanted))


def run(table, work: Work, *, shared: bool) -> None:
    """Do `work` (the caller holds the upkeep lock, or the store is on object storage)."""
    if work.fts:
        create_fts_index(table)
    if work.optimize:
        optimize(table, shared=shared)
    for column in work.indexes:
        if column == "vector":
            _create_vector_index(table, shared)
        else:
            table.create_index(column, config=_SCALAR[column]())


def upkept_at(local_dir: Path | None) -> datetime | None:
    """When a local store's upkeep last finished (the upkeep lock file's time)."""
    if local_dir is None:
        return None
    try:
        return datetime.fromtimestamp((local_dir / UPKEEP_LOCK_NAME).stat().st_mtime, UTC)
    except FileNotFoundError:  # never yet: due at once
        return datetime.fromtimestamp(0, UTC)


def finished(local_dir: Path) -> None:
    (local_dir / UPKEEP_LOCK_NAME).touch()


def start_worker(local_dir: Path, work: Work) -> bool:
    """Start the detached upkeep worker with `work`, the upkeep lock held for it from now
    on. True too when another process holds that lock: the worker running does this write's
    upkeep, or the next write finds what is left."""
    fd = locking.taken_now(local_dir / UPKEEP_LOCK_NAME)
    if fd is None:
        return True
    try:
        detached.start("macaron_cli.memory.upkeep_worker", str(fd), str(local_dir), *work.words(), pass_fds=(fd,))
    except OSError:  # no process to be had: the write does it itself
        locking.released(fd)
        return False
    os.close(fd)  # the worker's copy of it holds the lock until the worker exits
    return True


def optimize(table, *, shared: bool) -> None:
    """Compact, fold unindexed rows into the indexes, and drop versions past their use."""
    if not shared:
        # Each write leaves a table version with its own index files; LanceDB's default
        # keeps them a week (bench/disk_after_adds.py). Here they go once KEEP_VERSIONS old:
        # the version just written (younger) still names every file a reader of the one
        # before it can need, and this runs under the write lock.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            table.optimize(cleanup_older_than=KEEP_VERSIONS)
        return
    # Every read of a shared memory LISTs its versions: keep an hour of them (enough for
    # any commit in flight), not LanceDB's default week of every write.
    table.optimize(cleanup_older_than=remote.KEEP_VERSIONS)


def _unindexed(table, index_name: str) -> int:
    stats = table.index_stats(index_name)
    return stats.num_unindexed_rows if stats else 0


def create_fts_index(table) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table.create_fts_index(
            FTS_COLUMN,
            replace=True,
            base_tokenizer="simple",
            stem=True,
            remove_stop_words=True,
            ascii_folding=True,
            lower_case=True,
            with_position=False,
        )


def _vector_index_rows(shared: bool) -> int:
    return min(VECTOR_INDEX_ROWS, SHARED_VECTOR_INDEX_ROWS) if shared else VECTOR_INDEX_ROWS


def _create_vector_index(table, shared: bool) -> None:
    with_vectors = table.count_rows("vector IS NOT NULL")
    if with_vectors < _vector_index_rows(shared):
        return
    dim = table.schema.field("vector").type.list_size
    table.create_index("vector", replace=True, config=vector_index_config(with_vectors, dim))


def rebuild(table, *, shared: bool) -> None:
    """Rebuild from the current rows only, so no index keeps a forgotten memory's terms."""
    found = indexes(table)
    if table.count_rows() == 0:
        for ix in found.values():
            table.drop_index(ix.name)
        return
    if FTS_COLUMN in found:
        create_fts_index(table)
    if "vector" in found:
        _create_vector_index(table, shared)


def purge_history(table, *, shared: bool) -> None:
    """Delete every older version of the table (and files no version uses); the caller
    holds the write lock."""
    with warnings.catch_warnings():
        # We mean it: old versions still hold forgotten text.
        warnings.simplefilter("ignore")
        if not shared:  # the write lock is held: no file is part of a commit in flight
            table.optimize(cleanup_older_than=timedelta(0), delete_unverified=True)
            return
        # Another machine may be between writing a data file and committing it: deleting
        # files no version names yet could break its commit. Every file that an older
        # version names (the forgotten text among them) goes now.
        remote.retrying(lambda: table.optimize(cleanup_older_than=timedelta(0)))
