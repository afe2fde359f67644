"""A memory on S3 next to the same memory on local disk: import, search and add latency.

    python3 bench/memory_remote.py [--size 10000] [--queries 200] [--adds 40] [--hybrid]

The S3 side is moto's S3-compatible server on 127.0.0.1 (the one the tests use), so the
figures hold no network round trip beyond loopback, and they do include moto itself: a
Python server that answers each request slower than S3 or MinIO would, and reads a whole
object to answer a ranged GET of part of it (so reads of a few rows from a large data file,
as a search by meaning makes, cost it far more than they would cost S3). Both stores get the
same synthetic memories (bench/memory_scale.py, keyword-only), then the same queries;
"add" is one `MemoryStore.add` (a commit plus index upkeep, the compaction every 32nd
write on S3 included, so its p95 shows it). --hybrid gives every memory a random vector
and times hybrid search too (the query is embedded by the real model).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.memory_scale import add_random_vectors, pct, queries, synthetic  # noqa: E402


def measure(label: str, uri: str, args, qs: list[str]) -> None:
    from macaron_cli.memory.store import MemoryStore

    os.environ["MACARON_EMBEDDINGS"] = "off"
    start = time.perf_counter()
    store = MemoryStore.open(uri)
    store.add_many(synthetic(args.size))
    took = time.perf_counter() - start
    print(f"\n{label}: {uri}")
    print(f"  import {args.size:,} memories       {took:.1f} s ({args.size / took:,.0f}/s, indexes included)")
    store = MemoryStore.open(uri)  # a fresh process's view, as a CLI call has
    report("keyword search", lambda q: store.search(q, k=10), qs)
    adds = []
    for i in range(args.adds):
        begin = time.perf_counter()
        store.add(f"one more memory after the import, number {i}, about the garden")
        adds.append(time.perf_counter() - begin)
    print(
        f"  add (one memory)             p50 {pct(adds, 0.5):7.1f} ms  p95 {pct(adds, 0.95):7.1f} ms  "
        f"mean {statistics.mean(adds) * 1000:.1f} ms  ({args.adds} adds)"
    )
    if args.hybrid:
        from macaron_cli.memory import embeddings

        os.environ.pop("MACARON_EMBEDDINGS", None)
        if not embeddings.available():
            print("  hybrid: skipped (the `embeddings` extra is not installed)")
            return
        add_random_vectors(store)
        embeddings.embed(["warm the model"])
        report("hybrid search", lambda q: store.search(q, k=10), qs)


def report(name: str, fn, qs: list[str]) -> None:
    fn(qs[0])  # the first query opens files (index, fragments)
    times = []
    for q in qs:
        begin = time.perf_counter()
        fn(q)
        times.append(time.perf_counter() - begin)
    print(f"  {name:<28} p50 {pct(times, 0.5):7.1f} ms  p95 {pct(times, 0.95):7.1f} ms  ({len(qs)} queries)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--adds", type=int, default=40)
    parser.add_argument("--hybrid", action="store_true")
    args = parser.parse_args()
    from tests.support.s3_server import S3Server

    work = Path(tempfile.mkdtemp(prefix="macaron-remote-"))
    os.environ["MACARON_HOME"] = str(work / "home")
    print(f"load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    qs = queries(args.queries)
    measure("local disk", str(work / "memory"), args, qs)
    with S3Server() as s3:
        os.environ.update(s3.env())
        measure("S3 (moto on 127.0.0.1)", f"s3://{s3.new_bucket()}/memory", args, qs)
    print(f"\nload average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
