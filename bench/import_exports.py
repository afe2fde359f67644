"""`macaron memory import` of ChatGPT and Claude exports: labels on a hand-labelled sample,
secrets caught, re-import adds nothing, and the time and peak memory of a large export.

1. The small exports in tests/fixtures/exports/ (written to the published formats, each
   message hand-labelled in labels.json): every label, secret and role compared.
2. A generated ChatGPT export of --size MB (default 200): conversations of ordinary turns,
   with secrets, health and money lines planted at known places and one 300,000-character
   reply. Imported through the CLI in a child process (peak memory: its own ru_maxrss), then
   again (0 added), then the planted secrets looked for in the store.
3. With --real FILE, a real export (github.com/pkuppens/my_chat_gpt, history_download/
   conversations.json): imported, timed, counted.

    python3 bench/import_exports.py                 # all, 200 MB
    python3 bench/import_exports.py --size 20       # quicker
    python3 bench/import_exports.py --sizes 5,20,50 # peak memory at each size: flat is bounded
    python3 bench/import_exports.py --store 40000   # the store's (LanceDB's) share alone
    python3 bench/import_exports.py --real /tmp/my_chat_gpt/history_download/conversations.json

Embeddings are off unless --embeddings (the model's time is bench/memory_add.py's figure).

Measured (issue 54, a 2-core machine shared with other jobs: compare CPU seconds, not wall),
bench/import_exports.txt has each run:
- hand-labelled sample: 20/20 labels, secrets and roles right; 0 of 5 non-turns kept;
  re-import added 0.
- generated 20 MB (19,147 turns): import 72 s of CPU; re-import 0 added, 3 s of CPU;
  secrets caught 217/217; labelled private: health 213/213, money 205/205; a
  313,500-character reply kept in 4 parts. 200 MB (193,810 turns): 584 s CPU, peak 735 MB.
- memory: what the import itself holds (Python's allocations) no longer grows with the file
  (tests/test_memory_chat_import.py); the child's peak, 5 → 50 MB, grows 1.6 KB a record on a
  first import (2.2 before) and 0.7 on a re-import (1.3 before): what still grows is native
  (LanceDB's writes and the indexes built at the end; --store shows it alone).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
EXPORTS = REPO / "tests" / "fixtures" / "exports"

ORDINARY = [
    "Can you help me plan a week of dinners that take under thirty minutes?",
    "I'm repainting the spare room this weekend, which colours go with oak floors?",
    "Write a short birthday note for my colleague who loves cycling.",
    "How do I make my sourdough starter more active in a cold kitchen?",
    "Explain the difference between a list and a tuple in Python with an example.",
    "What are some good stretches after a long day at the desk?",
    "Summarise the plot of the book I just finished in three sentences.",
    "My tomato plants have yellow leaves at the bottom, what could it be?",
]
REPLY = (
    "Here is a plan you can follow. **Key Points:**\n1. Start small and keep it simple.\n2. Prepare what you can "
    "ahead of time.\n\n```python\nconfig = load(path)\nloss.backward()\n```\nLet me know if you want more detail. "
)
HEALTH = "My doctor put me on 20mg of citalopram for my depression last month."
MONEY = "I owe 6,000 on my credit card and my salary barely covers rent."


def _secret(n: int) -> str:
    return f"Zq{n:06d}Xv!k{n % 97:02d}"  # a password's shape, unique and findable


def _node(mid, parent, role, text, at):
    message = None
    if role:
        message = {
            "id": mid,
            "author": {"role": role, "name": None, "metadata": {}},
            "create_time": at,
            "content": {"content_type": "text", "parts": [text]},
            "status": "finished_successfully",
            "metadata": {},
        }
    return {"id": mid, "message": message, "parent": parent, "children": []}


def generate(path: Path, megabytes: int, seed: int = 7) -> dict:
    """A ChatGPT conversations.json of about `megabytes`, written as it goes; what was planted."""
    rng = random.Random(seed)
    planted = {"secrets": [], "health": 0, "money": 0, "huge": 0, "turns": 0}
    limit, written, number = megabytes * 1_000_000, 0, 0
    with open(path, "w", encoding="utf-8") as out:
        out.write("[")
        while written < limit:
            number += 1
            t0 = 1_600_000_000 + number * 3600.5
            root = str(uuid.UUID(int=rng.getrandbits(128)))
            mapping = {root: _node(root, None, None, "", None)}
            parent = root
            for turn in range(rng.randint(4, 16)):
                mid = str(uuid.UUID(int=rng.getrandbits(128)))
                role = "user" if turn % 2 == 0 else "assistant"
                if role == "user":
                    text = rng.choice(ORDINARY)
                    roll = rng.random()
                    if roll < 0.02:
                        secret = _secret(len(planted["secrets"]))
                        planted["secrets"].append(secret)
                        text = f"The password for the family NAS is {secret}, how do I share a folder?"
                    elif roll < 0.04:
                        text, planted["health"] = HEALTH, planted["health"] + 1
                    elif roll < 0.06:
                        text, planted["money"] = MONEY, planted["money"] + 1
                else:
                    text = REPLY * rng.randint(2, 8)
                    if number == 3 and turn == 1:
                        text, planted["huge"] = REPLY * 1500, len(REPLY * 1500)  # about 300,000 characters
                mapping[mid] = _node(mid, parent, role, text, t0 + turn * 30)
                mapping[parent]["children"].append(mid)
                parent = mid
                planted["turns"] += 1
            conversation = {
                "title": f"Conversation {number}",
                "create_time": t0,
                "update_time": t0 + 600,
                "mapping": mapping,
                "current_node": parent,
                "id": str(uuid.UUID(int=rng.getrandbits(128))),
            }
            chunk = ("," if number > 1 else "") + json.dumps(conversation, ensure_ascii=False)
            out.write(chunk)
            written += len(chunk.encode("utf-8"))
        out.write("]")
    planted["conversations"] = number
    return planted


@dataclass(frozen=True)
class Run:
    result: subprocess.CompletedProcess
    seconds: float  # wall
    cpu: float  # seconds of CPU: on a busy machine the wall time is mostly the CPU's wait
    peak: float  # MB, the child's peak resident memory


def run_import(path: Path, home: Path, embeddings: bool, *options: str) -> Run:
    """The CLI's import in a child process, its own CPU time and peak memory (os.wait4)."""
    env = {**os.environ, "MACARON_HOME": str(home), "PYTHONPATH": str(REPO)}
    if not embeddings:
        env["MACARON_EMBEDDINGS"] = "off"
    argv = [sys.executable, "-m", "macaron_cli", "memory", "import", str(path), *options]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=out, stderr=err, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        result = subprocess.CompletedProcess(argv, child.returncode, out.read(), err.read())
    if result.returncode != 0:
        raise SystemExit(f"import failed: {result.stderr.strip()}")
    return Run(result, seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def labelled_sample(embeddings: bool) -> None:
    from macaron_cli.memory import MemoryStore

    labels = json.loads((EXPORTS / "labels.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        for name in ("chatgpt_conversations.json", "claude_conversations.json"):
            run_import(EXPORTS / name, home, embeddings)
        memories = MemoryStore.open(home / "memory").iter_all()
        stored = {f"{m.meta['export']}:{m.meta['message']}": m for m in memories}  # labels.json's keys
        right = sum(
            1
            for memory_id, label in labels["kept"].items()
            if (m := stored.get(memory_id)) is not None
            and (m.privacy, sorted(m.meta.get("redacted", [])), m.meta.get("role"))
            == (label["privacy"], sorted(label["redacted"]), label["role"])
        )
        wrongly_kept = [i for i in labels["not_kept"] if i in stored]
        readded = []
        for name in ("chatgpt_conversations.json", "claude_conversations.json"):
            again = run_import(EXPORTS / name, home, embeddings, "--json")
            readded.append(json.loads(again.result.stdout)["added"])
    print(f"hand-labelled sample: {right}/{len(labels['kept'])} labels, secrets and roles right; ")
    print(f"  {len(wrongly_kept)} of {len(labels['not_kept'])} not-turns kept; re-import added {sum(readded)}")


def large(megabytes: int, embeddings: bool) -> None:
    from macaron_cli.memory import MemoryStore

    with tempfile.TemporaryDirectory() as folder:
        path, home = Path(folder) / "conversations.json", Path(folder) / "home"
        start = time.perf_counter()
        planted = generate(path, megabytes)
        size = path.stat().st_size / 1e6
        print(
            f"generated {size:.0f} MB: {planted['conversations']:,} conversations, {planted['turns']:,} turns "
            f"({time.perf_counter() - start:.0f} s)"
        )
        first = run_import(path, home, embeddings)
        print(
            f"import: {first.seconds:.0f} s wall, {first.cpu:.0f} s CPU ({first.cpu / size:.2f} s CPU a MB), "
            f"peak memory {first.peak:.0f} MB"
        )
        print("  " + next(line for line in first.result.stderr.splitlines() if line.startswith("Imported"))[:160])
        again = run_import(path, home, embeddings, "--json")
        report = json.loads(again.result.stdout)
        print(
            f"re-import: {report['added']} added, {report['skipped']:,} skipped "
            f"({again.seconds:.0f} s wall, {again.cpu:.0f} s CPU)"
        )
        stored = list(MemoryStore.open(home / "memory").iter_all())
        texts = "\n".join(m.text for m in stored)
        leaked = [s for s in planted["secrets"] if s in texts]
        health = sum(1 for m in stored if m.text == HEALTH and m.privacy != "personal")
        money = sum(1 for m in stored if m.text == MONEY and m.privacy != "personal")
        parts = [m for m in stored if m.meta.get("part")]
        print(f"secrets caught: {len(planted['secrets']) - len(leaked)}/{len(planted['secrets'])}")
        print(f"labelled private: health {health}/{planted['health']}, money {money}/{planted['money']}")
        print(f"a {planted['huge']:,}-character reply kept in {len(parts)} parts")


def real(path: Path, embeddings: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        run = run_import(path, Path(folder), embeddings)
        print(f"real export {path.stat().st_size / 1e6:.1f} MB: {run.seconds:.1f} s wall, {run.cpu:.1f} s CPU")
        for line in run.result.stderr.strip().splitlines()[:4]:
            print("  " + line[:160])


def flat_line(sizes: list[int], embeddings: bool) -> None:
    """Peak memory of a first import and of a re-import at each size: bounded memory is the
    same peak whatever the size (beyond a batch of records), a flat line."""
    print(f"{'size':>8} {'turns':>9} {'import peak':>12} {'CPU':>7} {'re-import peak':>15} {'CPU':>6}")
    figures = []
    for megabytes in sizes:
        with tempfile.TemporaryDirectory() as folder:
            path, home = Path(folder) / "conversations.json", Path(folder) / "home"
            planted = generate(path, megabytes)
            first = run_import(path, home, embeddings)
            again = run_import(path, home, embeddings)
        figures.append((planted["turns"], first.peak, again.peak))
        print(
            f"{megabytes:>5} MB {planted['turns']:>9,} {first.peak:>9.0f} MB {first.cpu:>5.0f} s "
            f"{again.peak:>12.0f} MB {again.cpu:>4.0f} s"
        )
    (turns_a, first_a, again_a), (turns_b, first_b, again_b) = figures[0], figures[-1]
    per = (turns_b - turns_a) / 1000
    print(
        f"growth from {sizes[0]} to {sizes[-1]} MB: import {(first_b - first_a) / per:+.1f} KB, "
        f"re-import {(again_b - again_a) / per:+.1f} KB per record"
    )


def store_alone(count: int) -> None:
    """The store's share of an import's memory: `count` memories of an export's shape added
    through add_many alone (no file, no planner), resident memory after each batch and after
    the indexes an import waits for."""
    os.environ.setdefault("MACARON_EMBEDDINGS", "off")
    from macaron_cli.memory import MemoryStore
    from macaron_cli.memory.records import Memory

    def resident() -> float:
        status = Path("/proc/self/status").read_text().splitlines()
        return int(next(line for line in status if line.startswith("VmRSS")).split()[1]) / 1024

    def memories():
        for n in range(count):
            text = f"Here is a plan you can follow, step {n}. " * 20
            yield Memory(text, id=f"chatgpt:{n:08d}", kind="episode", source="import", meta={"session": f"c{n // 10}"})

    with tempfile.TemporaryDirectory() as folder:
        store = MemoryStore.open(Path(folder) / "memory")
        marks: list[str] = []
        store.add_many(memories(), ready=True, on_batch=lambda done: marks.append(f"{done // 1000}k:{resident():.0f}"))
        print(f"resident MB after each batch: {' '.join(marks)}; after the indexes: {resident():.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=200, help="MB of the generated export (0: none)")
    parser.add_argument("--sizes", help="MB of generated exports, comma-separated: only the peak memory of each")
    parser.add_argument("--store", type=int, help="only add this many memories to a store: its share of the memory")
    parser.add_argument("--real", type=Path, help="a real ChatGPT or Claude conversations.json")
    parser.add_argument("--embeddings", action="store_true", help="embed every memory (slow)")
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # each figure as it comes (a run cut short keeps them)
    if args.store:
        return store_alone(args.store)
    if args.sizes:
        return flat_line([int(size) for size in args.sizes.split(",")], args.embeddings)
    labelled_sample(args.embeddings)
    if args.real:
        real(args.real, args.embeddings)
    if args.size:
        large(args.size, args.embeddings)


if __name__ == "__main__":
    main()
