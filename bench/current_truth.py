"""The current truth: does search rank a fact the person updated above what it replaced?

    python3 bench/current_truth.py [DATA ...] [--tuning NAME=VALUE] [--misses]

DATA (default: the four sets, bench/data/current-truth-dev.json, current-truth-second.json,
current-truth-third.json and current-truth-fourth.json, each written before its rules; the fourth
blind, all held out) is recall_side_by_side.py's group form, each
question with its `evidence` (the person's update: "we moved to Kyoto last weekend"), the
`original` it replaces ("I live in Osaka") and `held_out` (never looked at while tuning).
A `decoy` question turns it round: a later memory speaks of the same thing without updating it
("my sister moved to Tokyo" after "I live in Osaka"), so the `evidence` is the older fact, still
true, and `original` the later memory it must stay above; decoys are counted apart.
Every group is one chat history: the original, the assistant's reply that repeats it, other
turns, weeks later the update and its reply, each turn "Speaker: text" as `memory import`
keeps a conversation. For each system, on the dev part and the held-out part apart:
  above     the update is found and ranks above the original (one not in the first 10 is below)
  top 5     the update is among the first 5 hits
  first     the update is the first hit
Systems: fts and bigram (LanceDB full text, as recall_side_by_side.py), dense (the bundled
model alone), macaron (`memory search`), macaron chat (as the friend searches a turn) and
macaron words (`memory search` by words alone, as with embeddings off).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import tuning_arg

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
DEFAULT_DATA = [REPO / "bench" / "data" / f"current-truth-{name}.json" for name in ("dev", "second", "third", "fourth")]
K = 10


def measure(found: list[str], update: str, original: str) -> dict[str, float]:
    rank = {memory_id: i for i, memory_id in enumerate(found)}
    above = update in rank and rank[update] < rank.get(original, K)
    return {"above": float(above), "top 5": float(rank.get(update, K) < 5), "first": float(rank.get(update) == 0)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", nargs="*", type=Path, default=DEFAULT_DATA)
    parser.add_argument(
        "--misses", action="store_true", help="print macaron's first hits where the update is not first"
    )
    tuning_arg.add(parser)
    args = parser.parse_args()
    tuned = tuning_arg.options(args)

    for path in args.data:
        run(path, tuned, args.misses)


def run(path: Path, tuned: dict, misses: bool) -> None:
    import json

    data = json.loads(path.read_text(encoding="utf-8"))
    groups, queries = data["groups"], data["queries"]
    work = Path(tempfile.mkdtemp(prefix="current-truth-"))
    os.environ["MACARON_HOME"] = str(work / "home")  # default settings, nothing of the person's
    from recall_side_by_side import imported

    from macaron_cli.memory import embeddings

    if not embeddings.available():
        sys.exit("the bundled embedding model is missing: dense and macaron need it")
    fts, bigram, dense, stores = imported(groups, work)

    def macaron(purpose: str, vectors: bool | None = None):
        return lambda g, q: [h.memory.id for h in stores[g].search(q, k=K, purpose=purpose, vectors=vectors, **tuned)]

    systems = {
        "fts": lambda g, q: fts[g](q, K),
        "bigram": lambda g, q: bigram[g](q, K),
        "dense": lambda g, q: dense[g](q, K),
        "macaron": macaron("lookup"),
        "macaron chat": macaron("chat"),
        "macaron words": macaron("lookup", vectors=False),
    }
    texts = {r["id"]: r["text"] for rows in groups.values() for r in rows}
    for decoys in (False, True):
        asked = [q for q in queries if q.get("decoy", False) == decoys]
        if not asked:
            continue
        held = sum(q["held_out"] for q in asked)
        what = "decoys: the older fact above a later memory that does not update it" if decoys else "updates"
        print(f"{path.name}, {what}: {len(asked)} questions ({held} held out)")
        print(f"{'':<16}{'dev: above  top 5  first':>26}   {'held out: above  top 5  first':>31}")
        for name, search in systems.items():
            parts: dict[bool, dict[str, list[float]]] = {False: defaultdict(list), True: defaultdict(list)}
            for q in asked:
                (update,) = q["evidence"]
                found = search(q["group"], q["query"])
                for key, value in measure(found, update, q["original"]).items():
                    parts[q["held_out"]][key].append(value)
                if misses and name == "macaron" and not q["held_out"] and found[:1] != [update]:
                    print(f"  miss {q['query']!r}: " + " | ".join(texts[f][:50] for f in found[:3]))
            cells = [
                f"{100 * statistics.mean(parts[held][key]):6.1f}" if parts[held][key] else "     -"
                for held in (False, True)
                for key in ("above", "top 5", "first")
            ]
            print(f"  {name:<14}{'':>6}{''.join(cells[:3])}   {'':>13}{''.join(cells[3:])}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
