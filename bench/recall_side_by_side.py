"""Evidence recall, macaron beside three baselines in the same run, on any labelled set.

    python3 bench/recall_side_by_side.py DATA [DATA…] [--format auto|locomo|multilingual|groups]

DATA is one of:
  locomo        LoCoMo's JSON (../shared/data/locomo-dev.json): every turn a memory, one store
                per conversation, questions of categories 1-4 with their evidence turns
  multilingual  ../shared/data/multilingual-dev.json: one store, questions with `expect`
  groups        this bench's own form, written by the converters (bench/convert_*.py):
                {"name", "licence", "groups": {group: [{"id", "text", "created_at"?}]},
                 "queries": [{"query", "evidence": [ids], "group", "kind"?}]}
(`auto` tells them apart by their keys.) Every question is searched only within its group; with
several DATA, each file's groups stay apart (their names prefixed by the file's). A question
marked `held_out` (never looked at while tuning) or of kind "held out" counts in the "held out"
rows, any other in "tuned", as well as in its kind's: the Chinese chat turns are two files,

    python3 bench/recall_side_by_side.py bench/data/zh-chat-turns-dev.json bench/data/dulemon-dev.json

For each system it prints R@1 (is the first hit evidence), R@5 and R@10 (the share of a
question's evidence among the first 5 or 10 hits), averaged (memory_locomo.py's evaluate), per
kind of question where the set has kinds, and how many questions got fewer than k hits,
plus query p50/p95:
  fts       LanceDB full-text search with its defaults (stemming, stop words, lower case)
  bigram    LanceDB full-text search over character bigrams of Chinese, Japanese and Korean
            runs (other words whole, lower case, nothing stemmed or dropped), the usual CJK
            baseline where words are not separated by spaces
  dense     the bundled embedding model alone: exact cosine over the vectors macaron stored
  macaron   MemoryStore.search as `macaron memory search` asks (purpose lookup)
  chat      MemoryStore.search as the friend and agents search a turn (purpose chat)
The load average at the start is printed: other work on the machine slows every timing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

# Han, kana, Hangul (syllables and jamo) and the CJK punctuation-free ideograph extensions.
CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff]+")
WORD = re.compile(r"\w+")


def load(path: Path, form: str) -> tuple[dict[str, list[dict]], list[dict]]:
    """(groups of memory rows, questions) from any of the three forms."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if form == "auto":
        form = "locomo" if isinstance(data, list) else "multilingual" if "memories" in data else "groups"
    if form == "locomo":
        from memory_locomo import questions, turns

        groups, queries = {}, []
        for i, sample in enumerate(data):
            rows = turns(sample["conversation"])
            groups[str(i)] = [{"id": d, "text": t, "created_at": w, "meta": {"session": s}} for d, t, w, s in rows]
            queries += [
                {"query": q, "evidence": e, "group": str(i), "kind": f"cat{c}"} for q, c, e in questions(sample)
            ]
        return groups, queries
    if form == "multilingual":
        groups = {"all": [dict(m) for m in data["memories"]]}
        return groups, [
            {"query": q["query"], "evidence": set(q["expect"]), "group": "all", "kind": q["kind"]}
            for q in data["queries"]
        ]
    queries = [
        {**q, "evidence": set(q["evidence"]), "kind": q.get("kind", "all"), "held_out": held_out(q)}
        for q in data["queries"]
    ]
    return data["groups"], queries


def held_out(question: dict) -> bool:
    return bool(question.get("held_out")) or question.get("kind") == "held out"


def loaded(paths: list[Path], form: str) -> tuple[dict[str, list[dict]], list[dict]]:
    """`load` of each file; with more than one, each file's groups named apart (its stem first)."""
    if len(paths) == 1:
        return load(paths[0], form)
    groups: dict[str, list[dict]] = {}
    queries: list[dict] = []
    for path in paths:
        some, asked = load(path, form)
        groups.update({f"{path.stem}/{name}": rows for name, rows in some.items()})
        queries += [{**q, "group": f"{path.stem}/{q['group']}"} for q in asked]
    return groups, queries


def with_splits(result: dict, queries: list[dict]) -> dict:
    """`result` with "held out" and "tuned" rows, each its questions' scores across kinds."""
    cats = result["cats"]
    at: dict[str, int] = {}
    for q in queries:  # evaluate appends in the questions' order, one score per question and kind
        index = at[q["kind"]] = at.get(q["kind"], -1) + 1
        split = "held out" if q["held_out"] else "tuned"
        if q["kind"] == split:  # a set whose kinds are the split already
            continue
        for key, scores in cats[q["kind"]].items():
            cats[split][key].append(scores[index])
    return result


def grams(text: str) -> str:
    """Overlapping bigrams of every CJK run (a lone character stays whole); other words lower case."""
    out = []
    for piece in re.split(f"({CJK_RUN.pattern})", text):
        if CJK_RUN.fullmatch(piece):
            out += [piece] if len(piece) == 1 else [piece[i : i + 2] for i in range(len(piece) - 1)]
        else:
            out += [w.lower() for w in WORD.findall(piece)]
    return " ".join(out)


def fts_baseline(db, name: str, rows: list[dict], bigrams: bool):
    column = "grams" if bigrams else "text"
    table = db.create_table(name, [{"id": r["id"], column: grams(r["text"]) if bigrams else r["text"]} for r in rows])
    options = (
        {"base_tokenizer": "whitespace", "stem": False, "remove_stop_words": False, "ascii_folding": False}
        if bigrams
        else {}
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table.create_fts_index(column, **options)

    def search(q: str, k: int) -> list[str]:
        q = grams(q) if bigrams else q
        if not q.strip():
            return []
        return [r["id"] for r in table.search(q, query_type="fts").select(["id"]).limit(k).to_list()]

    return search


def imported(groups: dict[str, list[dict]], work: Path) -> tuple[dict, dict, dict, dict]:
    """Each group's rows in each system, under `work`: (fts, bigram, dense, macaron stores),
    each a dict by group."""
    from memory_locomo import dense_baseline

    from macaron_cli.memory import MemoryStore
    from macaron_cli.memory.lance import lancedb

    db = lancedb().connect(work / "baselines")
    fts, bigram, stores = {}, {}, {}
    started = time.perf_counter()
    for i, (group, rows) in enumerate(groups.items()):
        fts[group] = fts_baseline(db, f"fts{i}", rows, bigrams=False)
        bigram[group] = fts_baseline(db, f"bigram{i}", rows, bigrams=True)
        stores[group] = MemoryStore.open(work / f"store{i}")
        stores[group].add_many({"kind": "episode", "source": "import", **r} for r in rows)
    print(f"import (vectors included) {time.perf_counter() - started:.1f} s")
    return fts, bigram, {group: dense_baseline(store) for group, store in stores.items()}, stores


def report(results: list[dict]) -> None:
    kinds = sorted(results[0]["cats"], key=lambda kind: (kind == "all", kind))
    for kind in kinds:
        n = len(results[0]["cats"][kind]["r1"])
        print(f"\n{kind} (n={n})" + " " * max(1, 14 - len(kind) - len(str(n))) + "  R@1   R@5  R@10")
        for r in results:
            b = r["cats"][kind]
            cells = "".join(f"{100 * statistics.mean(b[key]):6.1f}" for key in ("r1", "r5", "r10"))
            print(f"  {r['name']:<16}{cells}")
    print(f"\n{'':<18}< 10 hits   query p50   p95 (ms)")
    for r in results:
        print(f"  {r['name']:<16}{r['short']:>8}   {r['p50']:9.1f} {r['p95']:5.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data", type=Path, nargs="+")
    parser.add_argument("--format", default="auto", choices=("auto", "locomo", "multilingual", "groups"))
    args = parser.parse_args()
    groups, queries = loaded(args.data, args.format)
    print(
        f"{' + '.join(p.name for p in args.data)}: {len(groups)} groups, {sum(map(len, groups.values()))} memories, "
        f"{len(queries)} questions; load average {os.getloadavg()[0]:.2f}"
    )

    work = Path(tempfile.mkdtemp(prefix="side-by-side-"))
    os.environ["MACARON_HOME"] = str(work / "home")  # default settings, nothing of the person's
    from memory_locomo import evaluate

    from macaron_cli.memory import embeddings

    if not embeddings.available():
        sys.exit("the bundled embedding model is missing: dense, macaron and chat need it")
    fts, bigram, dense, stores = imported(groups, work)

    def macaron(purpose: str):
        return lambda g, q, k: [h.memory.id for h in stores[g].search(q, k=k, purpose=purpose)]

    items = [(q["query"], q["kind"], q["evidence"], q["group"]) for q in queries]
    results = [
        evaluate("fts", lambda g, q, k: fts[g](q, k), items),
        evaluate("bigram", lambda g, q, k: bigram[g](q, k), items),
        evaluate("dense", lambda g, q, k: dense[g](q, k), items),
        evaluate("macaron", macaron("lookup"), items),
        evaluate("macaron chat", macaron("chat"), items),
    ]
    if any(q["held_out"] for q in queries):
        results = [with_splits(r, queries) for r in results]
    report(results)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
