"""Hybrid search at 100k: this checkout's retrieval against another git revision's, paired.

    python3 bench/search_ab.py [--against REV] [--store DIR] [--rounds 3]

This machine's speed drifts by a third within an hour, so two runs of memory_scale.py cannot
tell a 5 ms change. Here every query runs once with each version, alternating which goes
first, on the same store in the same process: the drift hits both alike. The store is
memory_scale's (100,000 synthetic memories with random vectors); `--store` keeps it for the
next run. The other revision's memory/retrieval.py runs against this checkout's store code.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD~1", help="git revision to compare with (default HEAD~1)")
    parser.add_argument("--store", help="where to keep the 100k store (built on first use)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    import memory_scale as scale

    from macaron_cli.memory import embeddings
    from macaron_cli.memory import retrieval as current

    other = _retrieval_at(args.against)
    path = Path(args.store) if args.store else Path(tempfile.mkdtemp(prefix="search-ab-")) / "memory"
    store = scale.store_100k(path)
    embeddings.embed(["warm the model"])

    versions = {"this checkout": current, args.against: other}
    names = list(versions)
    times = {name: [] for name in names}
    cpu = dict.fromkeys(names, 0.0)
    queries = scale.queries()
    for module in versions.values():
        module.search(store, queries[0], k=10)  # the first search opens the index files
    for round_ in range(args.rounds):
        for i, query in enumerate(queries):
            for name in names if (i + round_) % 2 else names[::-1]:
                started, cpu_started = time.perf_counter(), time.process_time()
                versions[name].search(store, query, k=10)
                times[name].append(time.perf_counter() - started)
                cpu[name] += time.process_time() - cpu_started
    for name in names:
        print(
            f"{name:>14}: hybrid search p50 {scale.pct(times[name], 0.5):.1f} ms  "
            f"p95 {scale.pct(times[name], 0.95):.1f} ms  CPU {1000 * cpu[name] / len(times[name]):.1f} ms/query"
        )


def _retrieval_at(revision: str):
    source = subprocess.run(
        ["git", "-C", str(REPO), "show", f"{revision}:macaron_cli/memory/retrieval.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    file = Path(tempfile.mkdtemp(prefix="search-ab-")) / "retrieval_other.py"
    file.write_text(source)
    spec = importlib.util.spec_from_file_location("retrieval_other", file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    main()
