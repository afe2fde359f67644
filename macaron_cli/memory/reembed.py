"""Re-embedding: giving every memory a vector of the model in use.

A store made with another model (or with vectors off) has its vector column swapped for an
empty one of the model in use when it is opened (store._switch_model); this fills it in.
Each batch is committed on its own, so a process killed at any point (kill -9 included)
leaves every finished batch in place, and the next run carries on with the memories that
still have no vector. One re-embedder runs at a time per store (a lock file beside the
store's write lock; the kernel drops it when the process dies).

Search goes by words alone until every memory has its vector, and says so once per process;
it starts the re-embedding in the background itself (a detached `python -m
macaron_cli.memory.reembed_worker URI`), so nobody has to know about `macaron memory reembed`.
This module takes the store it is given and imports no store: retrieval calls it.
"""

from __future__ import annotations

import fcntl
import os
import sys
from collections.abc import Callable
from contextlib import contextmanager
from functools import partial

from macaron_cli.memory import detached
from macaron_cli.memory.locking import REEMBED_LOCK_NAME as LOCK_NAME
from macaron_cli.memory.text import meaning_form

# Memories per commit: a few hundred milliseconds of embedding, so a kill loses little.
BATCH = 512
# Batches between two index upkeeps (each commit adds a fragment; upkeep compacts them).
UPKEEP_EVERY = 16
_noted = False
_started: set[str] = set()


def pending(store) -> int:
    """Memories that still need a vector of the model in use."""
    return store._table.count_rows("vector IS NULL")


@contextmanager
def _exclusive(store):
    """Yields True while this process is the store's one re-embedder, False if another is."""
    if store._dir is None:  # object storage: no lock file; two runs only do some work twice
        yield True
        return
    fd = os.open(store._dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def running(store) -> bool:
    """True while another process re-embeds this store."""
    with _exclusive(store) as mine:
        return not mine


def run(store, on_progress: Callable[[int, int], None] | None = None) -> int | None:
    """Embed every memory without a vector, batch by batch; returns how many were embedded,
    or None when another process is already doing it."""
    import pyarrow as pa

    from macaron_cli.memory import embeddings

    with _exclusive(store) as mine:
        if not mine:
            return None
        total, done, batches, previous = pending(store), 0, 0, None
        field = store._table.schema.field("vector")
        while True:
            columns = ["id", "text", "language"]
            rows = store._table.search().where("vector IS NULL").select(columns).limit(BATCH).to_list()
            if not rows:
                break
            ids = [r["id"] for r in rows]
            if ids == previous:  # nothing was written: never loop for ever
                raise RuntimeError("re-embedding made no progress")
            previous = ids
            vectors = embeddings.embed([meaning_form(r["text"], r["language"]) for r in rows])
            update = pa.table({"id": ids, "vector": pa.array(list(vectors), type=field.type)})
            with store._writing() as commit:
                if store.vector_model() != embeddings.model_info():
                    break  # the store moved on to another model meanwhile
                # Only rows still there and still without a vector: a memory forgotten meanwhile
                # must not come back, and a vector written meanwhile is as good as this one.
                fill_in = store._table.merge_insert("id").when_matched_update_all(where="target.vector IS NULL")
                commit(partial(fill_in.execute, update))
                batches += 1
                if batches % UPKEEP_EVERY == 0:
                    store._maintain_indexes()
            done += len(rows)
            if on_progress:
                on_progress(min(done, total), max(total, done))
        with store._writing():
            store._maintain_indexes()
        return done


def start_in_background(store) -> bool:
    """Start a detached re-embedder for a local store unless one runs; True when one runs now."""
    if store._dir is None:
        return False
    if running(store):
        return True
    if store.uri in _started:  # it ended with memories left (it failed): one try per process
        return False
    _started.add(store.uri)
    detached.start("macaron_cli.memory.reembed_worker", store.uri)
    return True


def note_words_only(store) -> None:
    """Start the re-embedding and say, once per process, that search goes by words meanwhile."""
    global _noted
    started = start_in_background(store)
    if _noted:
        return
    _noted = True
    left = pending(store)
    how = "in the background" if started else "with `macaron memory reembed`"
    print(
        f"macaron: searching memory by words only while {left} memories get vectors of the "
        f"{_model_name()} model ({how}).",
        file=sys.stderr,
    )


def _model_name() -> str:
    from macaron_cli.memory import embeddings

    return embeddings.model_info()["name"]
