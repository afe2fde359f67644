"""What the current truth's read of later memories costs a search at 100k, paired.

    python3 bench/current_truth_speed.py [--store DIR] [--rounds 1]

Updated (memory/rerankers.py) reads the later memories that share the best hits' words, for a
question of a slot or a day. Every query of memory_scale's synthetic 100,000-memory store (random
vectors) runs with Tuning.later_of at its default and at 0 (the read off), alternating which goes
first, in one process: the machine's drift hits both alike. `--store` keeps the store.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", help="where to keep the 100k store (built on first use)")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()

    import memory_scale as scale

    from macaron_cli.memory import embeddings
    from macaron_cli.memory.tuning import TUNING

    path = Path(args.store) if args.store else Path(tempfile.mkdtemp(prefix="truth-speed-")) / "memory"
    store = scale.store_100k(path)
    tunings = {f"later_of={TUNING.later_of}": TUNING, "later_of=0": dataclasses.replace(TUNING, later_of=0)}
    queries = scale.queries()
    for hybrid in (False, True):
        store.vectors = hybrid
        if hybrid:
            embeddings.embed(["warm the model"])
        times: dict[str, list[float]] = {name: [] for name in tunings}
        for tuning in tunings.values():
            store.search(queries[0], k=10, tuning=tuning)  # the first search opens the index files
        names = list(tunings)
        for round_ in range(args.rounds):
            for i, query in enumerate(queries):
                for name in names if (i + round_) % 2 else names[::-1]:
                    started = time.perf_counter()
                    store.search(query, k=10, tuning=tunings[name])
                    times[name].append(time.perf_counter() - started)
        for name in names:
            p50, p95 = scale.pct(times[name], 0.5), scale.pct(times[name], 0.95)
            print(f"{'hybrid' if hybrid else 'words-only':<11} {name}: p50 {p50:.1f} ms  p95 {p95:.1f} ms")


if __name__ == "__main__":
    main()
