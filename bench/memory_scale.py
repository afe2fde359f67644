"""Memory at scale: import throughput, search latency, CLI start-up and disk size.

    python3 bench/memory_scale.py [--sizes 10000,100000] [--hybrid] [--cli-runs 5]

For each size it imports synthetic memories (made here from a fixed seed: short notes
about food, work, family, travel … in English with some Japanese, Chinese and Korean)
through MemoryStore.add_many, keyword-only, then measures 200 searches in-process and a
few cold `macaron memory search` processes. Baselines measured in the same run: a raw
LanceDB full-text query on the same table (macaron's overhead on top of it) and a bare
`python -c "import lancedb"` (the floor of any cold start).
--hybrid also times vector search at the largest size: vectors for the stored memories
are random unit vectors (embedding 100k texts on two cores would take most of an hour;
ANN latency does not depend on what the vectors mean), while each query is embedded by
the real model, so query latency includes the embedding.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

WORDS = {
    "food": "ramen sushi curry coffee tea bread cheese peanuts allergy dinner lunch recipe spicy vegan".split(),
    "work": "meeting deadline project manager report client office salary promotion laptop email".split(),
    "family": "sister brother mother father daughter son grandma birthday wedding cousin visit".split(),
    "travel": "flight hotel passport kyoto paris beach train museum tickets luggage visa".split(),
    "fitness": "running marathon gym yoga knee swim bike stretch steps weight coach".split(),
    "finance": "budget rent savings tax invoice card bank loan pension insurance".split(),
}
CJK = [
    "カフェインが苦手",
    "京都で抹茶を飲んだ",
    "我对花生过敏",
    "每天早上喝绿茶",
    "자전거를 타고 출근",
    "김치를 좋아해요",
]
VERBS = "likes hates planned remembered bought booked forgot enjoyed needs wants".split()


def synthetic(n: int, seed: int = 7):
    rng = random.Random(seed)
    domains = list(WORDS)
    for i in range(n):
        domain = rng.choice(domains)
        words = rng.sample(WORDS[domain], 3) + rng.sample(WORDS[rng.choice(domains)], 2)
        text = (
            f"note {i}: I {rng.choice(VERBS)} the {words[0]} and {words[1]} with {words[2]}, also {words[3]} {words[4]}"
        )
        if rng.random() < 0.1:
            text += " " + rng.choice(CJK)
        yield {
            "id": f"s{i:07d}",
            "text": text,
            "domain": domain,
            "created_at": f"20{rng.randint(18, 26)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T12:00:00Z",
        }


def queries(n: int = 200, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        domain = rng.choice(list(WORDS))
        out.append(rng.choice(CJK)[:3] if rng.random() < 0.1 else " ".join(rng.sample(WORDS[domain], 2)))
    return out


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * (len(values) - 1) + 0.5))] * 1000


def timed(fn, qs) -> tuple[float, float, float]:
    """Wall p50, wall p95 and mean CPU ms per call (CPU of all this process's threads: on a
    machine shared with other work, wall time mostly measures the queue for a core)."""
    fn(qs[0])  # warm: first query opens files
    times, cpu = [], time.process_time()
    for q in qs:
        start = time.perf_counter()
        fn(q)
        times.append(time.perf_counter() - start)
    return pct(times, 0.5), pct(times, 0.95), (time.process_time() - cpu) / len(qs) * 1000


def cli_times(args: list[str], env: dict, runs: int) -> tuple[float, float, float]:
    """Wall p50 and max, and mean CPU ms, of `runs` fresh processes."""
    import resource

    times = []
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(args, env=env, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / runs * 1000
    return pct(times, 0.5), max(times) * 1000, cpu


def disk_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--hybrid", action="store_true")
    parser.add_argument("--cli-runs", type=int, default=5)
    args = parser.parse_args()
    os.environ["MACARON_EMBEDDINGS"] = "off"
    work = Path(tempfile.mkdtemp(prefix="macaron-scale-"))
    env = {**os.environ, "MACARON_HOME": str(work / "home"), "PYTHONPATH": str(REPO)}
    os.environ["MACARON_HOME"] = env["MACARON_HOME"]
    from macaron_cli.memory import MemoryStore

    macaron = [sys.executable, "-m", "macaron_cli"]
    print(f"load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    p50, worst, cpu = cli_times([sys.executable, "-c", "import lancedb"], env, args.cli_runs)
    print(f"baseline: python -c 'import lancedb'  p50 {p50:.0f} ms (max {worst:.0f}), CPU {cpu:.0f} ms")
    p50, worst, cpu = cli_times([*macaron, "--help"], env, args.cli_runs)
    print(f"macaron --help                        p50 {p50:.0f} ms (max {worst:.0f}), CPU {cpu:.0f} ms")

    qs = queries()
    for n in [int(s) for s in args.sizes.split(",")]:
        path = work / "home" / "memory"
        shutil.rmtree(path, ignore_errors=True)
        store = MemoryStore.open(path)
        start, cpu = time.perf_counter(), time.process_time()
        store.add_many(synthetic(n))
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(
            f"\n{n:,} memories: import {took:.1f} s = {n / took:,.0f} memories/s wall, {n / cpu:,.0f}/s per CPU-second "
            f"(keyword-only, indexes included); disk {disk_mb(path):.1f} MB"
        )
        table = store._table
        p50, p95, cpu = timed(
            lambda q, table=table: (
                table.search(q, query_type="fts", fts_columns="search_text")
                .select(["id", "_score"])
                .limit(10)
                .to_list()
            ),
            qs,
        )
        print(f"  baseline raw LanceDB FTS query     p50 {p50:.1f} ms  p95 {p95:.1f} ms  CPU {cpu:.1f} ms/query")
        p50, p95, cpu = timed(lambda q, store=store: store.search(q, k=10), qs)
        print(f"  macaron search, in-process         p50 {p50:.1f} ms  p95 {p95:.1f} ms  CPU {cpu:.1f} ms/query")
        p50, worst, cpu = cli_times([*macaron, "memory", "search", qs[0], "--json"], env, args.cli_runs)
        print(f"  macaron memory search (cold CLI)   p50 {p50:.0f} ms (max {worst:.0f}), CPU {cpu:.0f} ms")
        start = time.perf_counter()
        store.add("one more memory after the import")
        print(f"  one add at this size (its index upkeep amortised)  {1000 * (time.perf_counter() - start):.0f} ms")

    if args.hybrid:
        hybrid(store, qs)


def hybrid(store, qs) -> None:
    from macaron_cli.memory import embeddings

    os.environ.pop("MACARON_EMBEDDINGS", None)
    if not embeddings.available():
        print("\nhybrid: skipped (vectors are off or the model is missing)")
        return
    start = time.perf_counter()
    add_random_vectors(store)
    print(f"\nhybrid at {store.count():,}: synthetic vectors + IVF-PQ index {time.perf_counter() - start:.1f} s")
    embeddings.embed(["warm the model"])
    # Random vectors share no meaning with any query: without this, search would rightly drop
    # every one of them as unrelated and time less work than a real memory costs.
    embeddings.UNRELATED_BELOW = -1.0
    p50, p95, cpu = timed(lambda q: store.search(q, k=10), qs)
    print(
        f"  macaron hybrid search, in-process (query embedding included)  p50 {p50:.1f} ms  p95 {p95:.1f} ms  "
        f"CPU {cpu:.1f} ms/query"
    )


def store_100k(path: Path):
    """A store of 100,000 synthetic memories with random vectors at `path`, built on first use
    (keyword-only import, then the vectors), opened with vectors on."""
    from macaron_cli.memory import MemoryStore

    if not (path / "memories.lance").exists():
        os.environ["MACARON_EMBEDDINGS"] = "off"
        store = MemoryStore.open(path)
        store.add_many(synthetic(100_000))
        add_random_vectors(store)
        os.environ.pop("MACARON_EMBEDDINGS")
    store = MemoryStore.open(path)
    store.vectors = True
    return store


def add_random_vectors(store) -> None:
    """Give every stored memory a random unit vector, then index as an import with embeddings
    would end (indexes current, IVF-PQ built)."""
    import numpy as np
    import pyarrow as pa

    from macaron_cli.memory.embeddings import DIM

    rng = np.random.default_rng(3)
    # Every id is read before the first update: merge_insert rewrites the rows it updates,
    # so paging by offset while updating would visit some rows twice and others never.
    all_ids = store._table.to_arrow().column("id").to_pylist()
    for lo in range(0, len(all_ids), 20000):
        ids = all_ids[lo : lo + 20000]
        vectors = rng.standard_normal((len(ids), DIM)).astype("float32")
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        update = pa.table({"id": ids, "vector": pa.array(list(vectors), type=pa.list_(pa.float32(), DIM))})
        store._table.merge_insert("id").when_matched_update_all().execute(update)
    store.vectors = True
    store._maintain_indexes()


if __name__ == "__main__":
    main()
