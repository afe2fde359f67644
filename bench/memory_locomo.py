"""LoCoMo evidence recall: macaron's retrieval against plain LanceDB full-text search.

    python3 bench/memory_locomo.py [PATH/TO/locomo.json] [--no-embeddings] [--limit N]

Every dialog turn becomes one memory (id = its dia_id, created_at = its session's date,
text = "Speaker: what they said" plus the photo caption when a photo was shared); each
conversation gets its own store, so every question is searched only within its own
conversation. For questions of categories 1–4 it prints evidence recall@1 (is the first
hit evidence), recall@5, recall@10, hit@10 and MRR (of the first evidence turn) per
category and overall, plus query latency p50/p95, for:
  fts       plain LanceDB full-text search over the same texts (the baseline, same run)
  macaron   MemoryStore.search, keyword only
  hybrid    MemoryStore.search with vectors (the bundled multilingual model)
LoCoMo is CC BY-NC 4.0: it is read from where it lies, never copied into the package.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import warnings
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

import tuning_arg

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DEFAULT_DATA = REPO.parent / "shared" / "data" / "locomo-dev.json"
CATEGORIES = (1, 2, 3, 4)


def session_date(text: str) -> str:
    """'1:56 pm on 8 May, 2023' → ISO-8601 (UTC)."""
    parsed = datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")
    return parsed.replace(tzinfo=UTC).isoformat()


def turns(conversation: dict):
    """(dia_id, text, created_at, session) for every turn of one conversation."""
    sessions = sorted(int(k.split("_")[1]) for k in conversation if k.startswith("session_") and k.count("_") == 1)
    for n in sessions:
        when = session_date(conversation[f"session_{n}_date_time"])
        for turn in conversation[f"session_{n}"]:
            text = f"{turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                text += f" [shares a photo: {turn['blip_caption']}]"
            yield turn["dia_id"], text, when, n


def questions(sample: dict):
    for qa in sample["qa"]:
        if qa.get("category") in CATEGORIES and qa.get("evidence"):
            evidence = {e.strip() for item in qa["evidence"] for e in str(item).replace(";", " ").split() if ":" in e}
            if evidence:
                yield qa["question"], qa["category"], evidence


def build_baseline(db, name: str, rows: list[dict]):
    table = db.create_table(name, rows)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table.create_fts_index("text")  # LanceDB's defaults: stemming, stop words, lower case
    return lambda q, k: [r["id"] for r in table.search(q, query_type="fts").select(["id", "_score"]).limit(k).to_list()]


def dense_baseline(store):
    """Exact cosine over the vectors the store holds (embedded once, by the hybrid import)."""
    import numpy as np

    from macaron_cli.memory import embeddings

    table = store.table.to_arrow().select(["id", "vector"])
    ids = table.column("id").to_pylist()
    matrix = np.asarray(table.column("vector").to_pylist(), dtype="float32")
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True) + 1e-12

    def search(q: str, k: int) -> list[str]:
        vector = embeddings.embed([q])[0]
        return [ids[i] for i in np.argsort(-(matrix @ vector), kind="stable")[:k]]

    return search


def has_purposes() -> bool:
    """Whether this code's search takes a purpose (so the bench runs on older code too)."""
    import inspect

    from macaron_cli.memory import retrieval

    return "purpose" in inspect.signature(retrieval.search).parameters


def evaluate(name: str, search, items) -> dict:
    per_cat = defaultdict(lambda: {"r1": [], "r5": [], "r10": [], "h10": [], "mrr": []})
    latencies = []
    short = 0
    for question, category, evidence, conv in items:
        start = time.perf_counter()
        found = search(conv, question, 10)
        latencies.append(time.perf_counter() - start)
        short += len(found) < 10
        first = next((rank for rank, memory_id in enumerate(found, 1) if memory_id in evidence), None)
        for bucket in (per_cat[category], per_cat["all"]):
            bucket["r1"].append(1.0 if evidence & set(found[:1]) else 0.0)
            bucket["mrr"].append(1.0 / first if first else 0.0)
            bucket["r5"].append(len(evidence & set(found[:5])) / len(evidence))
            bucket["r10"].append(len(evidence & set(found[:10])) / len(evidence))
            bucket["h10"].append(1.0 if evidence & set(found[:10]) else 0.0)
    latencies.sort()
    return {
        "name": name,
        "cats": per_cat,
        "short": short,
        "p50": statistics.median(latencies) * 1000,
        "p95": latencies[int(0.95 * (len(latencies) - 1))] * 1000,
    }


def report(result: dict) -> None:
    cats = result["cats"]
    line = f"{result['name']:<8}"
    for c in (*CATEGORIES, "all"):
        b = cats[c]
        line += (
            f" | {c!s:>3} n={len(b['r5']):<4} R@1 {100 * statistics.mean(b['r1']):5.1f} "
            f"R@5 {100 * statistics.mean(b['r5']):5.1f} R@10 {100 * statistics.mean(b['r10']):5.1f} "
            f"H@10 {100 * statistics.mean(b['h10']):5.1f} MRR {100 * statistics.mean(b['mrr']):5.1f}"
        )
    print(line)
    print(
        f"{'':<8}   query p50 {result['p50']:.1f} ms, p95 {result['p95']:.1f} ms; "
        f"fewer than 10 hits: {result['short']} of {len(cats['all']['r1'])}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=str(DEFAULT_DATA))
    parser.add_argument("--no-embeddings", action="store_true", help="skip the hybrid run")
    parser.add_argument("--limit", type=int, default=None, help="only the first N conversations")
    tuning_arg.add(parser)
    args = parser.parse_args()
    tuned = tuning_arg.options(args)
    samples = json.loads(Path(args.data).read_text(encoding="utf-8"))[: args.limit]

    os.environ["MACARON_EMBEDDINGS"] = "off"
    from macaron_cli.memory import MemoryStore, embeddings
    from macaron_cli.memory.lance import lancedb

    work = Path(tempfile.mkdtemp(prefix="locomo-"))
    os.environ["MACARON_HOME"] = str(work / "home")  # default settings (λ), nothing of the person's
    baseline_db = lancedb().connect(work / "fts")
    stores, baselines, items = {}, {}, []
    start = time.perf_counter()
    n_turns = 0
    for i, sample in enumerate(samples):
        rows = [
            {"id": d, "text": t, "created_at": w, "meta": {"session": s}}
            for d, t, w, s in turns(sample["conversation"])
        ]
        n_turns += len(rows)
        stores[i] = MemoryStore.open(work / f"conv{i}")
        stores[i].add_many({**r, "kind": "episode", "source": "import"} for r in rows)
        baselines[i] = build_baseline(baseline_db, f"conv{i}", [{"id": r["id"], "text": r["text"]} for r in rows])
        items += [(q, c, e, i) for q, c, e in questions(sample)]
    print(
        f"LoCoMo {Path(args.data).name}: {len(samples)} conversations, {n_turns} turns, {len(items)} questions "
        f"(categories 1-4); keyword import {time.perf_counter() - start:.1f} s"
    )

    results = [
        evaluate("fts", lambda conv, q, k: baselines[conv](q, k), items),
        evaluate("macaron", lambda conv, q, k: [h.memory.id for h in stores[conv].search(q, k=k, **tuned)], items),
    ]

    os.environ.pop("MACARON_EMBEDDINGS")
    if not args.no_embeddings and embeddings.available():
        start = time.perf_counter()
        hybrid = {}
        for i, sample in enumerate(samples):
            hybrid[i] = MemoryStore.open(work / f"hybrid{i}")
            hybrid[i].add_many(
                {"id": d, "text": t, "created_at": w, "meta": {"session": s}, "kind": "episode", "source": "import"}
                for d, t, w, s in turns(sample["conversation"])
            )
        print(f"hybrid import (embedding every turn) {time.perf_counter() - start:.1f} s")
        dense = {i: dense_baseline(store) for i, store in hybrid.items()}
        results.insert(1, evaluate("dense", lambda conv, q, k: dense[conv](q, k), items))
        results.append(
            evaluate("hybrid", lambda conv, q, k: [h.memory.id for h in hybrid[conv].search(q, k=k, **tuned)], items)
        )
        if has_purposes():
            results.append(
                evaluate(
                    "chat",
                    lambda conv, q, k: [h.memory.id for h in hybrid[conv].search(q, k=k, purpose="chat", **tuned)],
                    items,
                )
            )
    elif not args.no_embeddings:
        print("hybrid: skipped (vectors are off or the model is missing)")
    for result in results:
        report(result)


if __name__ == "__main__":
    main()
