"""Recall as people ask: hit@1, hit@5 and MRR per class of question, hybrid against words and dense.

    python3 bench/memory_recall.py [bench/recall-dev.json] [--misses]

The file (bench/recall-dev.json, written for macaron) holds five histories (en/ja/ko/zh/tl)
of a person and their companion, every turn one memory, and questions asked at a given
moment (`now`), each of a class: dated, chatty, numeric, particle, plain, broader (bench/broader-dev.json:
a general word for the specific things a history names). Each history is
one person's memory (its own store); a question searches its language's. It prints per
class and overall, for:
  dense     the bundled model's vectors alone (cosine, no words): a baseline, same run
  words     MemoryStore.search by words alone (MACARON_EMBEDDINGS=off)
  hybrid    MemoryStore.search (words + vectors, fused, re-weighted, re-ranked)
  chat      the same, searched as the friend and agents search a turn (purpose "chat")
hit@1 (the answer is first), hit@5, and MRR (1 / the answer's rank, 0 past 10), how many
questions got fewer than 10 hits, and the load average when the run started (other processes
slow every timing, not these figures).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from datetime import datetime
from pathlib import Path

import tuning_arg

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DEFAULT_DATA = REPO / "bench" / "recall-dev.json"
CLASSES = ("dated", "chatty", "numeric", "particle", "plain", "broader")
DEPTH = 10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", nargs="?", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--misses", action="store_true", help="print the questions hybrid does not answer first")
    tuning_arg.add(parser)
    args = parser.parse_args()
    tuned = tuning_arg.options(args)
    data = json.loads(args.data.read_text(encoding="utf-8"))
    memories, queries = data["memories"], data["queries"]
    print(
        f"{args.data.name}: {len(memories)} memories, {len(queries)} questions "
        f"({', '.join(f'{k} {v}' for k, v in Counter(q['kind'] for q in queries).items())}); "
        f"load average {os.getloadavg()[0]:.2f}"
    )

    import numpy as np

    from macaron_cli.memory import MemoryStore, embeddings

    histories = {m["language"]: [n for n in memories if n["language"] == m["language"]] for m in memories}
    ranked: dict[str, dict[str, list[str]]] = {"dense": {}}
    for language, history in histories.items():
        matrix = embeddings.embed([m["text"] for m in history])
        for q in (q for q in queries if q["language"] == language):
            vector = embeddings.embed([q["query"]])[0]
            order = np.argsort(-(matrix @ vector), kind="stable")[:DEPTH]
            ranked["dense"][q["id"]] = [history[i]["id"] for i in order]

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["MACARON_HOME"] = str(Path(tmp) / "home")  # default settings, nothing of the person's
        runs = [("words", "off", {}), ("hybrid", None, {})]
        if _has_purposes():
            runs.append(("chat", None, {"purpose": "chat"}))
        for name, env, options in runs:
            if env:
                os.environ["MACARON_EMBEDDINGS"] = env
            else:
                os.environ.pop("MACARON_EMBEDDINGS", None)
            ranked[name] = {}
            for language, history in histories.items():
                store = MemoryStore.open(Path(tmp) / f"{name}-{language}")
                store.add_many(dict(m) for m in history)
                for q in (q for q in queries if q["language"] == language):
                    hits = store.search(q["query"], k=DEPTH, now=datetime.fromisoformat(q["now"]), **options, **tuned)
                    ranked[name][q["id"]] = [h.memory.id for h in hits]

    groups = [c for c in CLASSES if any(q["kind"] == c for q in queries)]
    sizes = [f"{g} n={sum(q['kind'] == g for q in queries)}" for g in groups] + [f"all n={len(queries)}"]
    print(f"\n{'':<8}" + "".join(f"{size:>24}" for size in sizes))
    print(f"{'':<8}" + f"{'hit@1  hit@5    MRR':>24}" * (len(groups) + 1))
    for name, found in ranked.items():
        cells = [_cell([q for q in queries if q["kind"] == g], found) for g in groups]
        print(f"{name:<8}" + "".join(cells) + _cell(queries, found))
    short = {name: sum(len(f) < DEPTH for f in found.values()) for name, found in ranked.items()}
    print("fewer than 10 hits: " + ", ".join(f"{name} {n}" for name, n in short.items()))
    if args.misses:
        texts = {m["id"]: m["text"] for m in memories}
        for q in queries:
            got = ranked["hybrid"][q["id"]]
            if got[:1] != q["expect"][:1]:
                first = texts.get(got[0], "nothing") if got else "nothing"
                print(f"  {q['id']} {q['kind']}: {q['query']!r} → first {first!r} (answer at {_rank(q, got) or '-'})")


def _has_purposes() -> bool:
    """Whether this code's search takes a purpose (so the bench runs on older code too)."""
    import inspect

    from macaron_cli.memory import retrieval

    return "purpose" in inspect.signature(retrieval.search).parameters


def _rank(q: dict, found: list[str]) -> int | None:
    return next((n for n, memory_id in enumerate(found, 1) if memory_id in q["expect"]), None)


def _cell(chosen: list[dict], found: dict[str, list[str]]) -> str:
    ranks = [_rank(q, found[q["id"]]) for q in chosen]
    hit1 = 100 * sum(r == 1 for r in ranks) / len(ranks)
    hit5 = 100 * sum(r is not None and r <= 5 for r in ranks) / len(ranks)
    mrr = 100 * sum(1 / r for r in ranks if r) / len(ranks)
    return f"{hit1:>10.0f} {hit5:>6.0f} {mrr:>6.1f}"


if __name__ == "__main__":
    main()
