"""Keyword-only search at 100k, whole checkouts against each other (the p50/p95 of bench/memory_scale.py's
200 queries, in-process), run alternately so the machine's drift hits each alike.

    python3 bench/search_trees.py TREE [TREE ...] [--home DIR] [--rounds 3]

Each TREE is a checkout (make clean copies with `git archive REV | tar -x -C DIR`: a working checkout's
stale caches move the figures). The store is memory_scale's 100,000 synthetic memories, built once in
--home by the first tree; every tree searches that same store with its own code, in a process of its own.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ONE_TREE = """
import os, sys, time, statistics
from pathlib import Path
tree, home = sys.argv[1], sys.argv[2]
sys.path[:0] = [tree, tree + "/bench"]
os.environ["MACARON_EMBEDDINGS"] = "off"
os.environ["MACARON_HOME"] = home
from memory_scale import queries, synthetic
from macaron_cli.memory import MemoryStore
store = MemoryStore.open(Path(home) / "memory")
if not store.count():
    store.add_many(synthetic(100_000))
qs = queries()
for q in qs[:20]:
    store.search(q, k=10)
times = []
for q in qs:
    start = time.perf_counter()
    store.search(q, k=10)
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print(f"p50 {statistics.median(times):5.1f}   p95 {times[int(0.95 * len(times)) - 1]:5.1f}")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--home", type=Path, default=Path("/tmp/search-trees-home"))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    print("ms, in-process, keyword-only, 100k memories")
    for _ in range(args.rounds):
        for tree in args.trees:
            run = [sys.executable, "-c", ONE_TREE, str(tree.resolve()), str(args.home)]
            figures = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout.strip()
            print(f"  {tree!s:<28} {figures}")


if __name__ == "__main__":
    main()
