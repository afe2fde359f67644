"""The store's indexes and compaction: built once, then kept current cheaply as rows come,
rebuilt from the rows left after a forget, and old table versions purged.

Each function takes the LanceDB table and what it needs to know about the store: whether
it is `shared` (on object storage, where other machines commit at any moment and no lock
reaches them) and whether it has `vectors`. The store calls them under its write lock.
"""

from __future__ import annotations

import warnings
from datetime import timedelta

from macaron_cli.memory import remote
from macaron_cli.memory.rows import FTS_COLUMN

# Index upkeep and compaction are amortised, so no write's cost grows with the store: new
# rows wait unindexed (search still finds them, by a scan of those few rows) until REINDEX_AFTER
# of them (or 1% of the store) wait, MAX_FRAGMENTS writes have piled up, or the oldest
# pending write is MAX_AGE old; then the one write that finds it so folds them in. A store of
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
# searches markedly quicker (bench/memory_scale.py); the one write in MAX_FRAGMENTS that
# compacts pays for it (bench/memory_add.py).
MAX_FRAGMENTS = 32
MAX_AGE = timedelta(minutes=10)
AGE_EVERY = 8
# A local store keeps old table versions this long (see optimize).
KEEP_VERSIONS = timedelta(seconds=10)


def vector_index_config(rows: int, dim: int):
    """IVF-PQ: about sqrt(rows) partitions, the dimensions in sub-vectors of 8."""
    from lancedb.index import IvfPq

    return IvfPq(distance_type="cosine", num_partitions=max(16, int(rows**0.5)), num_sub_vectors=dim // 8)


def indexes(table) -> dict:
    """The table's indexes, by the column each is on."""
    return {ix.columns[0]: ix for ix in table.list_indices()}


def maintain(table, *, shared: bool, vectors: bool) -> None:
    """Keep indexes current cheaply: build once, then fold new rows in incrementally."""
    if not shared:
        _upkeep(table, shared=False, vectors=vectors)
        return
    try:
        _upkeep(table, shared=True, vectors=vectors)
    except Exception as exc:  # lance raises bare RuntimeError/OSError
        if not remote.is_conflict(exc):
            raise
        # Another machine committed first; its write or the next one does this upkeep.


def _upkeep(table, *, shared: bool, vectors: bool) -> None:
    rows = table.count_rows()
    if rows == 0:
        return
    found = indexes(table)
    if FTS_COLUMN not in found:
        create_fts_index(table)
    # Unindexed rows are still found, but by a scan, and BM25 scores them with their own
    # statistics, which skews it while they are a large share; rewritten rows (an upsert, a
    # forget) fall out of the id index too. optimize() folds them in and compacts. It costs
    # about as much as the store is large, so a write pays for it only once the writes since
    # the last one are many or old. On object storage compaction rewrites every small
    # fragment over the network and races other machines' commits, so there the fragments
    # alone decide.
    # Every new or rewritten row waits for the full-text index as for any other: its count
    # stands for all (one look, not one per index, on every write).
    unindexed = _unindexed(table, found[FTS_COLUMN].name) if FTS_COLUMN in found else 0
    fragments = table.stats()["fragment_stats"]["num_fragments"]
    if fragments > MAX_FRAGMENTS or (
        unindexed
        and (
            unindexed >= max(REINDEX_AFTER, rows // 100)
            or (not shared and rows < SMALL_STORE)
            # Listing the versions costs as many as there are: look at every AGE_EVERY-th write.
            or (not shared and fragments % AGE_EVERY == 0 and _oldest_version_age(table) > MAX_AGE)
        )
    ):
        optimize(table, shared=shared)
    if rows >= SCALAR_INDEX_ROWS:
        from lancedb.index import Bitmap, BTree

        # id: get, edit, forget; context_id: the turns beside a search's best matches;
        # privacy: every search for a cloud model filters on it before ranking.
        for column, kind in (("id", BTree), ("context_id", BTree), ("privacy", Bitmap)):
            if column not in found:
                table.create_index(column, config=kind())
    if vectors and rows >= _vector_index_rows(shared) and "vector" not in found:
        _create_vector_index(table, shared)


def _oldest_version_age(table) -> timedelta:
    """How long ago the oldest version kept was written: optimize() drops versions older than
    KEEP_VERSIONS, so this is about the time since the last one ran. (LanceDB stamps versions
    in local time, without a zone.)"""
    from datetime import datetime

    stamps = [v["timestamp"] for v in table.list_versions()]
    if not stamps:
        return timedelta(0)
    oldest = min(stamps)
    now = datetime.now(oldest.tzinfo) if oldest.tzinfo else datetime.now()
    return now - oldest


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
