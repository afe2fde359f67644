"""The write path at scale: one `add` at 1k, 10k, 30k and 100k memories, beside a raw LanceDB append.

    python3 bench/memory_add.py [--sizes 1000,10000,30000,100000] [--adds 100] [--searches 100]

For each size it imports synthetic memories (bench/memory_scale.py's, keyword-only, then
random unit vectors and the indexes an import with vectors ends with: embedding 100k texts
on two cores would take most of an hour, and what a write costs does not depend on what the
vectors mean), then times, one after another:
  raw append   LanceDB's table.add of one prepared row (with its vector): the baseline, same run
  embed        the bundled model embedding one memory's text (part of every add with vectors)
  add          MemoryStore.add of one memory, vectors on: redaction, embedding, the append
               and whatever index upkeep and compaction that write pays for (in a large store
               a detached worker compacts meanwhile, on the same cores: that slows these too)
  search beside upkeep  MemoryStore.search right after those adds (hybrid, query embedding
               included), while the upkeep they started may still run in the background
  upkeep       how long after those searches the background upkeep was done
  search, writes wait  the same searches once it is done and as many more adds as may wait
               before the next upkeep, unindexed, each in a fragment of its own (in brackets)
  search, all indexed  the same searches once every add is folded in and compacted: the
               baseline for the two lines above
  chat-like turns  --turns turns of one search and one add each, --pause seconds apart (a
               person's pace): searches meet whatever writes wait and the upkeep they start,
               as in use; the add of each turn in brackets
Each as p50 / p95 / max wall ms; the load average at the start (other work on the machine
slows every timing, the baseline too).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from memory_scale import add_random_vectors, pct, queries, synthetic  # noqa: E402


def timings(fn, items) -> str:
    return _figures([_timed(fn, item) for item in items])


def _timed(fn, item) -> float:
    start = time.perf_counter()
    fn(item)
    return time.perf_counter() - start


def _figures(times: list[float]) -> str:
    return f"p50 {pct(times, 0.5):6.1f}  p95 {pct(times, 0.95):6.1f}  max {max(times) * 1000:6.1f} ms"


def _pending(store) -> str:
    fragments = store.table.stats()["fragment_stats"]["num_fragments"]
    unindexed = max(store.table.index_stats(ix.name).num_unindexed_rows for ix in store.table.list_indices())
    return f"{unindexed} rows unindexed, {fragments} fragments"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,30000,100000")
    parser.add_argument("--adds", type=int, default=100)
    parser.add_argument("--searches", type=int, default=100)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--pause", type=float, default=1.0)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="macaron-add-"))
    os.environ["MACARON_HOME"] = str(work / "home")
    from macaron_cli.memory import MemoryStore, embeddings, upkeep

    embeddings.embed(["warm the model"])
    texts = [f"added note {i}: lunch with my cousin at the new ramen place, {i % 7} stars" for i in range(args.adds)]
    qs = queries(args.searches)
    print(f"load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.adds} adds per size")
    for n in [int(s) for s in args.sizes.split(",")]:
        path = work / "memory"
        shutil.rmtree(path, ignore_errors=True)
        os.environ["MACARON_EMBEDDINGS"] = "off"
        store = MemoryStore.open(path)
        start = time.perf_counter()
        store.add_many(synthetic(n))
        os.environ.pop("MACARON_EMBEDDINGS")
        add_random_vectors(store)
        print(f"\n{n:,} memories (import, vectors and indexes {time.perf_counter() - start:.0f} s)")

        raw = store.table
        row = raw.search().limit(1).to_arrow()  # a real row, vector and all, given new ids
        import pyarrow as pa

        def append(i: int, row=row, raw=raw) -> None:
            raw.add(row.set_column(0, "id", pa.array([f"raw{i}"])))

        print(f"  raw LanceDB append   {timings(append, range(args.adds))}")
        raw.delete("id LIKE 'raw%'")
        store._maintain_indexes()  # as it was before the appends
        print(f"  embed one text       {timings(lambda t: embeddings.embed([t]), texts)}")
        print(f"  MemoryStore.add      {timings(store.add, texts)}")
        # Random vectors share no meaning with any query: without this, search would rightly
        # drop every one of them as unrelated and time less work than a real memory costs.
        unrelated, embeddings.UNRELATED_BELOW = embeddings.UNRELATED_BELOW, -1.0
        store.search(qs[0], k=10)

        def search(query: str, store=store) -> None:
            store.search(query, k=10)

        print(f"  search beside upkeep {timings(search, qs)}")
        start = time.perf_counter()
        store.settle()
        waited = time.perf_counter() - start
        print(f"  upkeep               done {waited:.1f} s after those searches")
        # As many writes as wait unindexed before the next upkeep is due, each its own fragment.
        fragments = store.table.stats()["fragment_stats"]["num_fragments"]
        for text in texts[: max(0, upkeep.MAX_FRAGMENTS - fragments)]:
            store.add(text)
        print(f"  search, writes wait  {timings(search, qs)}  ({_pending(store)})")
        upkeep.optimize(store.table, shared=False)  # every add folded in: the baseline of the line above
        print(f"  search, all indexed  {timings(search, qs)}")
        searches, adds = [], []
        for turn in range(args.turns):
            time.sleep(args.pause)
            searches.append(_timed(search, qs[turn % len(qs)]))
            adds.append(_timed(store.add, f"turn {turn}: {texts[turn % len(texts)]}"))
        print(f"  chat-like turns      {_figures(searches)}  (add {_figures(adds)})")
        store.settle()
        embeddings.UNRELATED_BELOW = unrelated


if __name__ == "__main__":
    main()
