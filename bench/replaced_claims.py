"""What "replaced by a newer memory" costs on long chats: how many hits search marks replaced,
how many of them are a question's evidence, and recall with the replaced left out, as the
friend and MCP hear memory (privacy.search answers with what is true now only).

    python3 bench/replaced_claims.py DATA [DATA…] [--format auto|locomo|multilingual|groups]

DATA as bench/recall_side_by_side.py reads it (../shared/data/locomo-dev.json: long chats of two
people, where few facts are ever updated). A mark on a question's evidence is a claim that hid an
answer. `--show N` prints N of the marked hits beside the question, to read whether the claim holds.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, nargs="+")
    parser.add_argument("--format", default="auto", choices=("auto", "locomo", "multilingual", "groups"))
    parser.add_argument("--show", type=int, default=0, help="print this many marked hits, chosen at random")
    args = parser.parse_args()

    from recall_side_by_side import imported, loaded

    groups, queries = loaded(args.data, args.format)
    work = Path(tempfile.mkdtemp(prefix="replaced-claims-"))
    os.environ["MACARON_HOME"] = str(work / "home")  # default settings, nothing of the person's
    stores = imported(groups, work)[3]
    print(f"{' + '.join(p.name for p in args.data)}: {len(queries)} questions, k = 10")
    print(f"  {'':<8}{'hits marked':>12}{'evidence marked':>17}{'R@10':>7}{'R@10 without the replaced':>27}")
    marked_hits = []
    for purpose in ("lookup", "chat"):
        marked = evidence_marked = 0
        recall, current = [], []
        for q in queries:
            hits = stores[q["group"]].search(q["query"], k=10, purpose=purpose)
            evidence = set(q["evidence"])
            replaced = [h for h in hits if h.replaced]
            marked += len(replaced)
            evidence_marked += sum(h.memory.id in evidence for h in replaced)
            recall.append(len(evidence & {h.memory.id for h in hits}) / len(evidence))
            current.append(len(evidence & {h.memory.id for h in hits if not h.replaced}) / len(evidence))
            if purpose == "chat":
                marked_hits += [(q["query"], h.memory.text) for h in replaced]
        print(
            f"  {purpose:<8}{marked:>12}{evidence_marked:>17}"
            f"{100 * statistics.mean(recall):>7.1f}{100 * statistics.mean(current):>27.1f}"
        )
    for question, text in random.Random(0).sample(marked_hits, min(args.show, len(marked_hits))):
        print(f"\n  {question}\n    marked replaced: {text[:200]}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
