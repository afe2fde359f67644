"""How many of the truly nearest memories search by meaning finds once the IVF-PQ index is on.

    python3 bench/vector_recall.py [--copies 10] [--queries 40]

Real MiniLM embeddings: every turn of the LoCoMo dev conversations (../shared/data), and
their questions as queries. The index only exists above 20,000 memories, so each turn
comes `--copies` times (a copy is the turn's vector plus a little noise, like a paraphrase).
For each query it compares the exact 10 and 30 nearest (brute force) with the candidates
search keeps, as macaron reads them (the index's `depth` nearest by compressed vectors,
scored exactly) and, in the same run, with twice as many read and the exact best half kept,
and as LanceDB's own refine step (×4) would.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(REPO.parent / "shared" / "data" / "locomo-dev.json"))
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--queries", type=int, default=40, help="questions per conversation")
    args = parser.parse_args()

    import lancedb
    import memory_locomo
    import numpy as np
    import pyarrow as pa

    from macaron_cli.memory import embeddings
    from macaron_cli.memory.tuning import TUNING
    from macaron_cli.memory.upkeep import vector_index_config

    samples = json.loads(Path(args.data).read_text())
    texts = [text for s in samples for _, text, _, _ in memory_locomo.turns(s["conversation"])]
    questions = [qa["question"] for s in samples for qa in s["qa"][: args.queries]]
    started = time.perf_counter()
    turns, queries = embeddings.embed(texts), embeddings.embed(questions)
    print(f"{len(texts):,} turns and {len(questions)} questions embedded in {time.perf_counter() - started:.0f} s")

    rng = np.random.default_rng(0)
    noise = 0.35 / np.sqrt(turns.shape[1])
    matrix = np.concatenate(
        [turns] + [turns + noise * rng.standard_normal(turns.shape).astype("float32") for _ in range(args.copies - 1)]
    )
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    table = lancedb.connect(tempfile.mkdtemp(prefix="vector-recall-")).create_table(
        "t",
        pa.table(
            {
                "id": np.arange(len(matrix)),
                "vector": pa.array(list(matrix), type=pa.list_(pa.float32(), matrix.shape[1])),
            }
        ),
    )
    started = time.perf_counter()
    table.create_index("vector", config=vector_index_config(len(matrix), matrix.shape[1]))
    print(f"{len(matrix):,} vectors, index built in {time.perf_counter() - started:.0f} s")

    depth = TUNING.meaning_candidates

    def kept(vector, limit: int, refine: int | None) -> set:
        q = (
            table.search(vector, vector_column_name="vector")
            .distance_type("cosine")
            .select(["id", "vector"])
            .nprobes(TUNING.probes)
        )
        if refine:
            q = q.refine_factor(refine)
        found = q.limit(limit).to_arrow()
        near = np.stack(found["vector"].to_numpy(zero_copy_only=False)) @ vector
        return set(np.asarray(found["id"].to_pylist())[np.argsort(-near)[:depth]])

    for label, limit, refine in (
        ("macaron (depth, exact scores)", depth, None),
        ("2x depth, exact best half", 2 * depth, None),
        ("baseline: LanceDB refine x4", depth, 4),
    ):
        found10 = found30 = 0
        started = time.perf_counter()
        for vector in queries:
            exact = np.argsort(-(matrix @ vector))
            got = kept(vector, limit, refine)
            found10 += len(set(exact[:10]) & got)
            found30 += len(set(exact[:30]) & got)
        ms = 1000 * (time.perf_counter() - started) / len(queries)
        print(
            f"{label:32s} holds {100 * found10 / (10 * len(queries)):5.1f}% of the exact 10 nearest, "
            f"{100 * found30 / (30 * len(queries)):5.1f}% of the exact 30 (with brute force, {ms:.0f} ms/query)"
        )


if __name__ == "__main__":
    main()
