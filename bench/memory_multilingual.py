"""Multilingual memory retrieval: hit@5 per kind of question, macaron against dense vectors alone.

    python3 bench/memory_multilingual.py [../shared/data/multilingual-dev.json] [--k 5]

The file holds memories (en/ja/ko/zh/tl facts with near-miss distractors) and questions,
each of a kind: lexical (shares words with its answer), paraphrase (same language, other
words), cross (asked in another language than the memory's). It prints, per kind and
overall, hit@k for:
  dense     the bundled model's vectors alone (cosine, no words): the baseline, same run
  words     MemoryStore.search by words alone (MACARON_EMBEDDINGS=off)
  hybrid    MemoryStore.search (words + vectors, fused and re-weighted)
  chat      the same, searched as the friend and agents search a turn (purpose "chat")
and how many questions got fewer than k hits,
plus the query embedding latency p50/p95 and the import rate with vectors, and the load
average when the run started (other processes on the machine slow every timing).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import tuning_arg

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DEFAULT_DATA = REPO.parent / "shared" / "data" / "multilingual-dev.json"
KINDS = ("lexical", "paraphrase", "cross")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", nargs="?", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--misses", action="store_true", help="print the questions hybrid misses")
    tuning_arg.add(parser)
    args = parser.parse_args()
    tuned = tuning_arg.options(args)
    data = json.loads(args.data.read_text())
    memories, queries = data["memories"], data["queries"]
    print(
        f"{args.data.name}: {len(memories)} memories, {len(queries)} questions "
        f"({', '.join(f'{k} {v}' for k, v in Counter(q['kind'] for q in queries).items())}); "
        f"load average {os.getloadavg()[0]:.2f}"
    )

    import numpy as np

    from macaron_cli.memory import MemoryStore, embeddings

    embeddings.embed(["warm the model"])
    started = time.perf_counter()
    matrix = embeddings.embed([m["text"] for m in memories])
    rate = len(memories) / (time.perf_counter() - started)
    print(f"model: {embeddings.model_info()['name']}; {rate:.0f} texts/s in one batch")
    latencies, dense = [], {}
    for q in queries:
        t = time.perf_counter()
        vector = embeddings.embed([q["query"]])[0]
        latencies.append((time.perf_counter() - t) * 1000)
        dense[q["id"]] = [memories[i]["id"] for i in np.argsort(-(matrix @ vector), kind="stable")[: args.k]]
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    print(f"query embedding: p50 {statistics.median(latencies):.1f} ms, p95 {p95:.1f} ms")

    results = {"dense": dense}
    with tempfile.TemporaryDirectory() as tmp:
        for name, env in (("words", "off"), ("hybrid", None)):
            if env:
                os.environ["MACARON_EMBEDDINGS"] = env
            else:
                os.environ.pop("MACARON_EMBEDDINGS", None)
            store = MemoryStore.open(Path(tmp) / name)
            t = time.perf_counter()
            store.add_many(dict(m) for m in memories)
            if name == "hybrid":
                print(
                    f"import with vectors: {len(memories) / (time.perf_counter() - t):.0f} memories/s "
                    f"({len(memories)} memories)"
                )
            results[name] = {
                q["id"]: [h.memory.id for h in store.search(q["query"], k=args.k, **tuned)] for q in queries
            }
            if name == "hybrid" and _has_purposes():
                results["chat"] = {
                    q["id"]: [h.memory.id for h in store.search(q["query"], k=args.k, purpose="chat", **tuned)]
                    for q in queries
                }

    print(f"\nhit@{args.k}      " + "".join(f"{k:>14}" for k in (*KINDS, "same-language", "all", f"< {args.k} hits")))
    for name, found in results.items():
        cells = []
        for group in (*[(k,) for k in KINDS], ("lexical", "paraphrase"), KINDS):
            chosen = [q for q in queries if q["kind"] in group]
            hits = sum(bool(set(found[q["id"]]) & set(q["expect"])) for q in chosen)
            cells.append(f"{hits}/{len(chosen)} {100 * hits / len(chosen):3.0f}%")
        cells.append(str(sum(len(found[q["id"]]) < args.k for q in queries)))
        print(f"{name:<12}" + "".join(f"{c:>14}" for c in cells))
    if args.misses:
        for q in queries:
            if not set(results["hybrid"][q["id"]]) & set(q["expect"]):
                print(
                    f"  miss {q['id']} {q['kind']} {q['language']}: {q['query']!r} → expected {q['expect']}, "
                    f"got {results['hybrid'][q['id']]}"
                )


def _has_purposes() -> bool:
    """Whether this code's search takes a purpose (so the bench runs on older code too)."""
    import inspect

    from macaron_cli.memory import retrieval

    return "purpose" in inspect.signature(retrieval.search).parameters


if __name__ == "__main__":
    main()
