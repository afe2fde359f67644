"""Long personal histories: a person's own later turn as the query, everything said before it
imported, macaron beside FTS, bigram FTS and dense search on the same data.

    python3 bench/long_history.py [PATH/TO/locomo.json] [--held-out] [--tuning NAME=VALUE …]
                                  [--without STEP[,STEP…] …]

Built from LoCoMo (../shared/data/locomo-dev.json: long chats of two people over many sessions,
each question labelled with the turns that hold its answer). Each conversation is read from
each side in turn: one speaker is the person, the other's turns are noise to them. A query is
one of the person's own turns that is evidence for a question whose other evidence was said in
earlier sessions: what the person says now should bring back what was said then (the label
is LoCoMo's, not this bench's). Searched within everything said before that turn's session.

Printed for each system: R@1 (the first hit is earlier evidence), R@5, R@10 (the share of the
earlier evidence in the first 5 or 10), session recall (the share of the evidence's sessions
with any turn among the first 10: the right conversation found, if not the turn) and how many
sessions the first 10 span.
  fts, bigram, dense   as in recall_side_by_side.py
  macaron search       MemoryStore.search as `macaron memory search` asks (purpose lookup: only what
                       passes the relevance floor, so often fewer than 10)
  macaron chat         MemoryStore.search as the friend and agents search a turn (purpose chat),
                       told by the person (the query's speaker, as the friend's turns are the
                       person's: retrieval.search's teller)
    teller unknown     the same, not told who says the turn
    as the friend hears  the same, less the hits marked replaced by a newer memory: the friend and
                       MCP hear only the current truth (privacy.search)
  macaron − STEP       the same with one step of the search left out (--without, repeatable; a
                       reranker or factor by its class name, a retriever by its name, or mmr):
                       which step helps and which pushes the right turn down
Conversations 1–4 are the dev set; 5–6 stay untouched unless --held-out (then only they run).
LoCoMo is CC BY-NC 4.0: read from where it lies, never copied here.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DEFAULT_DATA = REPO.parent / "shared" / "data" / "locomo-dev.json"
DEV, HELD_OUT = (0, 1, 2, 3), (4, 5)
K = 10


def histories(data: list[dict], conversations) -> tuple[dict[str, list[dict]], list[dict]]:
    """(groups of memory rows: every turn said before a session, queries), both sides read."""
    from memory_locomo import questions, turns

    groups: dict[str, list[dict]] = {}
    queries: list[dict] = []
    for index in conversations:
        sample = data[index]
        conversation = sample["conversation"]
        rows = {d: (text, when, session) for d, text, when, session in turns(conversation)}
        said = {
            turn["dia_id"]: turn
            for key, value in conversation.items()
            if key.startswith("session_") and isinstance(value, list)
            for turn in value
        }
        for _question, _category, evidence in questions(sample):
            evidence = {e for e in evidence if e in rows}
            for turn_id in sorted(evidence):
                session = rows[turn_id][2]
                earlier = {e for e in evidence if rows[e][2] < session}
                if not earlier:
                    continue
                group = f"{index}@{session}"
                if group not in groups:
                    groups[group] = [
                        {"id": d, "text": t, "created_at": w, "meta": {"session": s}}
                        for d, (t, w, s) in rows.items()
                        if s < session
                    ]
                queries.append(
                    {
                        "query": said[turn_id]["text"],
                        "evidence": earlier,
                        "sessions": {rows[e][2] for e in earlier},
                        "group": group,
                        "person": said[turn_id]["speaker"],
                    }
                )
    return groups, queries


def evaluate(name: str, search, queries: list[dict], session_of: dict[str, dict[str, int]]) -> dict:
    scores: dict[str, list[float]] = {"r1": [], "r5": [], "r10": [], "sessions": [], "spread": []}
    latencies = []
    for q in queries:
        started = time.perf_counter()
        found = search(q["group"], q, K)
        latencies.append(time.perf_counter() - started)
        evidence = q["evidence"]
        scores["r1"].append(1.0 if evidence & set(found[:1]) else 0.0)
        scores["r5"].append(len(evidence & set(found[:5])) / len(evidence))
        scores["r10"].append(len(evidence & set(found[:K])) / len(evidence))
        sessions = {session_of[q["group"]][i] for i in found[:K]}
        scores["sessions"].append(len(q["sessions"] & sessions) / len(q["sessions"]))
        scores["spread"].append(len(sessions))
    latencies.sort()
    means = {key: statistics.mean(values) for key, values in scores.items()}
    return {"name": name, **means, "p50": latencies[len(latencies) // 2]}


def without(steps: str):
    """A search with `steps` (comma-separated) left out of retrieval's declaration, for one call."""
    from contextlib import contextmanager

    from macaron_cli.memory import retrieval

    names = {s.strip() for s in steps.split(",")}
    every = {type(s).__name__ for s in (*retrieval.RERANKERS, *retrieval.FACTORS)} | {
        r.name for r in retrieval.RETRIEVERS
    }
    unknown = names - every - {"mmr", ""}
    if unknown:
        raise SystemExit(f"--without: no step {sorted(unknown)[0]!r}; use mmr or one of {', '.join(sorted(every))}")

    @contextmanager
    def left_out():
        saved = retrieval.RETRIEVERS, retrieval.RERANKERS, retrieval.FACTORS
        retrieval.RETRIEVERS = tuple(r for r in saved[0] if r.name not in names)
        retrieval.RERANKERS = tuple(r for r in saved[1] if type(r).__name__ not in names)
        retrieval.FACTORS = tuple(f for f in saved[2] if type(f).__name__ not in names)
        try:
            yield {"mmr": False} if "mmr" in names else {}
        finally:
            retrieval.RETRIEVERS, retrieval.RERANKERS, retrieval.FACTORS = saved

    return left_out


def embedded_once() -> None:
    """Each history holds the turns of the one before it: embed each text once, not per history."""
    import numpy as np

    from macaron_cli.memory import embeddings

    embed, seen = embeddings.embed, {}

    def once(texts: list[str]):
        texts = list(texts)
        new = list(dict.fromkeys(t for t in texts if t not in seen))
        if new:
            seen.update(zip(new, embed(new), strict=True))
        return np.asarray([seen[t] for t in texts], dtype=np.float32).reshape(len(texts), -1)

    embeddings.embed = once


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, nargs="?", default=DEFAULT_DATA)
    parser.add_argument("--held-out", action="store_true", help="run the untouched conversations only")
    parser.add_argument("--without", action="append", default=[], metavar="STEP[,STEP…]", help="also without these")
    parser.add_argument(
        "--also", action="append", default=[], metavar="NAME=VALUE[,…]", help="also with this tuning (same stores)"
    )
    sys.path.insert(0, str(REPO / "bench"))
    import tuning_arg

    tuning_arg.add(parser)
    args = parser.parse_args()
    tuned = tuning_arg.options(args)
    groups, queries = histories(json.loads(args.data.read_text(encoding="utf-8")), HELD_OUT if args.held_out else DEV)
    print(
        f"{args.data.name} ({'held out' if args.held_out else 'dev'}): {len(queries)} of the person's turns as "
        f"queries, {len(groups)} histories up to a session, {sum(map(len, groups.values()))} memories in all; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    work = Path(tempfile.mkdtemp(prefix="long-history-"))
    os.environ["MACARON_HOME"] = str(work / "home")  # default settings, nothing of the person's
    from recall_side_by_side import imported

    from macaron_cli.memory.records import CHAT
    from macaron_cli.memory.tuning import tuned as tuned_by

    variants = [(f"− {steps}", without(steps), tuned) for steps in args.without]
    variants += [(f"+ {pairs}", without(""), {"tuning": tuned_by(pairs.split(","))}) for pairs in args.also]
    embedded_once()
    fts, bigram, dense, stores = imported(groups, work)
    session_of = {group: {r["id"]: r["meta"]["session"] for r in rows} for group, rows in groups.items()}

    def chat(g: str, q: dict, k: int, teller: bool = True, heard: bool = False) -> list[str]:
        told = {"teller": q["person"] if teller else None}
        hits = stores[g].search(q["query"], k=k, purpose=CHAT, **told, **tuned)
        return [h.memory.id for h in hits if not (heard and h.replaced)]

    results = [
        evaluate("fts", lambda g, q, k: fts[g](q["query"], k), queries, session_of),
        evaluate("bigram", lambda g, q, k: bigram[g](q["query"], k), queries, session_of),
        evaluate("dense", lambda g, q, k: dense[g](q["query"], k), queries, session_of),
        evaluate(
            "macaron search",
            lambda g, q, k: [h.memory.id for h in stores[g].search(q["query"], k=k)],
            queries,
            session_of,
        ),
        evaluate("macaron chat", chat, queries, session_of),
        evaluate("  teller unknown", lambda g, q, k: chat(g, q, k, teller=False), queries, session_of),
        evaluate("  as the friend hears", lambda g, q, k: chat(g, q, k, heard=True), queries, session_of),
    ]
    for label, left_out, tuning in variants:

        def chat_without(g: str, q: dict, k: int, left_out=left_out, tuning=tuning) -> list[str]:
            with left_out() as options:
                told = {"teller": q["person"], **options, **tuning}
                return [h.memory.id for h in stores[g].search(q["query"], k=k, purpose=CHAT, **told)]

        results.append(evaluate(label, chat_without, queries, session_of))
    print(f"\n{'':<24}  R@1   R@5  R@10  sessions@10  sessions spanned  p50 ms")
    for r in results:
        cells = "".join(f"{100 * r[key]:6.1f}" for key in ("r1", "r5", "r10"))
        print(f"  {r['name']:<22}{cells}  {100 * r['sessions']:11.1f}  {r['spread']:16.1f}  {1000 * r['p50']:6.1f}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
