"""How the memory browser scales: time to open, and keypress-to-table latency in search.

    python3 bench/tui_scale.py [--sizes 10000,100000] [--keep DIR]

For each size it builds a memory with MemoryStore.add_many (synthetic, seeded), then starts
a fresh Python process that opens the browser headless (Textual's run_test, 120x40) and:
  open     from before the process starts to the first page in the table (imports included)
  keypress from a key typed in the search box to the table showing that query's results
           (no debounce: the search starts at once), one key at a time, for a few typed queries
  filter   from choosing a domain to the table showing it
Baseline, measured in the same run on the same store: MemoryStore.list (first page) and
MemoryStore.search alone, i.e. what the browser cannot be faster than.
Targets at 100k: open <= 1.5 s, keypress <= 150 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

QUERIES = ["coffee", "kyoto trip", "sister birthday", "budget rent", "knee pain"]
TARGET_OPEN_S = 1.5
TARGET_KEY_MS = 150

SUBJECTS = ["I", "My sister", "Mom", "Dad", "My partner", "The team", "Our neighbour", "My friend Ken"]
VERBS = ["likes", "hates", "booked", "planned", "forgot", "bought", "tried", "wants", "cooked", "visited"]
OBJECTS = ["oat milk coffee", "a trip to Kyoto", "ramen with extra egg", "the rent payment", "a birthday cake",
           "the budget spreadsheet", "a knee pain appointment", "guitar lessons", "a new running route",
           "tickets for the fireworks", "the garden beds", "a film camera", "sushi night", "a yoga class",
           "a train to Osaka", "the dentist", "green tea", "the book club", "a bike repair", "piano practice"]
WHEN = ["on Monday", "last week", "every morning", "in March", "before work", "on weekends", "tonight", "in 2025"]
DOMAINS = ["food", "health", "fitness", "travel", "finance", "work", "family", "hobby"]
KINDS = ["fact", "preference", "episode"]
LEVELS = ["public", "personal", "personal", "private", "secret"]


def synthetic(n: int, seed: int = 7):
    rnd = random.Random(seed)
    for i in range(n):
        text = f"{rnd.choice(SUBJECTS)} {rnd.choice(VERBS)} {rnd.choice(OBJECTS)} {rnd.choice(WHEN)} (note {i})"
        yield {
            "id": f"m_{i:09d}", "text": text, "language": "en",
            "domain": rnd.choice(DOMAINS), "kind": rnd.choice(KINDS), "privacy": rnd.choice(LEVELS),
            "created_at": f"20{20 + i * 6 // n:02d}-{1 + i % 12:02d}-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:00+00:00",
            "pinned": i % 211 == 0, "reward": (i % 5) / 4,
        }


def build(path: Path, n: int) -> float:
    from macaron_cli.memory import MemoryStore

    started = time.perf_counter()
    MemoryStore.open(path).add_many(synthetic(n))
    return time.perf_counter() - started


def baseline(path: Path) -> dict:
    from macaron_cli.memory import MemoryStore

    store = MemoryStore.open(path)
    store.search("warm up", k=1)  # the browser warms the index too, before anyone types
    lists, searches = [], []
    for _ in range(5):
        t = time.perf_counter()
        store.list(100, 0)
        store.count()
        lists.append(time.perf_counter() - t)
    for query in QUERIES:
        for end in range(1, len(query) + 1):
            t = time.perf_counter()
            store.search(query[:end], k=50)
            searches.append(time.perf_counter() - t)
    return {"list_ms": 1000 * statistics.median(lists), "search_ms": _summary(searches)}


def _summary(seconds: list[float]) -> dict:
    ms = sorted(1000 * s for s in seconds)
    return {"p50": statistics.median(ms), "p95": ms[max(0, int(len(ms) * 0.95) - 1)], "max": ms[-1], "n": len(ms)}


# ── the child process: open the browser, type, measure ──────────────────────────────────
def child(path: str) -> None:
    from macaron_cli.memory import MemoryStore
    from macaron_cli.tui.app import MemoryBrowser

    # As `macaron memory` does: the window first, the store opened (LanceDB imported) in a worker.
    app = MemoryBrowser(open_store=lambda: MemoryStore.open(path))
    result: dict = {}

    async def until_shown(after: int, timeout: float = 30.0) -> None:
        deadline = time.perf_counter() + timeout
        while app.pages_shown <= after:
            if time.perf_counter() > deadline:
                raise SystemExit("the table never updated")
            await asyncio.sleep(0.001)

    async def main():
        async with app.run_test(size=(120, 40)) as pilot:
            result["window_at"] = time.time()
            await until_shown(0)
            result["first_page_at"] = time.time()
            usage = resource.getrusage(resource.RUSAGE_SELF)  # CPU, all threads: what load cannot inflate
            result["open_cpu_s"] = usage.ru_utime + usage.ru_stime
            warm_up = [w for w in app.workers if w.name == "_warm_search"]
            await app.workers.wait_for_complete(warm_up)
            result["ready_at"] = time.time()
            await pilot.press("slash")
            latencies = []
            for query in QUERIES:
                for ch in query:
                    if ch == " ":  # the same words, so the same results: nothing to redraw
                        await pilot.press("space")
                        continue
                    shown = app.pages_shown
                    t = time.perf_counter()
                    await pilot.press(ch)
                    await until_shown(shown)
                    latencies.append(time.perf_counter() - t)
                    await pilot.pause()
                app.query_one("#search").value = ""
                await until_shown(app.pages_shown)
            result["keypress"] = _summary(latencies)
            filters = []
            for domain in ("food", "travel", "work"):
                shown = app.pages_shown
                t = time.perf_counter()
                app.query_one("#filter-domain").value = domain
                await until_shown(shown)
                filters.append(time.perf_counter() - t)
            result["filter"] = _summary(filters)
            shown = app.pages_shown
            t = time.perf_counter()
            await pilot.press("escape", "right_square_bracket")
            await until_shown(shown)
            result["next_page_ms"] = 1000 * (time.perf_counter() - t)

    asyncio.run(main())
    print(json.dumps(result))


def measure(path: Path) -> dict:
    started = time.time()
    out = subprocess.run([sys.executable, __file__, "--child", str(path)], capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["open_s"] = result["first_page_at"] - started
    result["window_s"] = result["window_at"] - started
    result["ready_s"] = result["ready_at"] - started
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--keep", type=Path, help="build the stores here (and reuse them next time)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child)
    root = args.keep or Path(tempfile.mkdtemp(prefix="tui-bench-"))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (figures are wall time unless marked cpu)")
    print(f"{'memories':>9} {'build s':>8} {'open s':>7} {'cpu s':>6} {'keypress ms p50/p95/max':>24} "
          f"{'filter ms':>9} {'page ms':>8} | baseline: {'list ms':>7} {'search ms p50/p95':>17}")
    verdicts = []
    for n in (int(s) for s in args.sizes.split(",")):
        path = root / f"m{n}"
        built = build(path, n) if not path.exists() else 0.0
        base = baseline(path)
        got = measure(path)
        key, search = got["keypress"], base["search_ms"]
        print(f"{n:>9,} {built:>8.1f} {got['open_s']:>7.2f} {got['open_cpu_s']:>6.2f} "
              f"{key['p50']:>9.0f}/{key['p95']:.0f}/{key['max']:.0f}".ljust(60)
              + f" {got['filter']['p50']:>9.0f} {got['next_page_ms']:>8.0f} | "
              f"{' ' * 10}{base['list_ms']:>7.0f} {search['p50']:>9.0f}/{search['p95']:.0f}")
        if n >= 100_000:
            verdicts.append(f"open {got['open_s']:.2f} s, {got['open_cpu_s']:.2f} s cpu (target {TARGET_OPEN_S} s): "
                            f"{'met' if got['open_s'] <= TARGET_OPEN_S else 'MISSED'}; "
                            f"keypress p50 {key['p50']:.0f} ms, p95 {key['p95']:.0f} ms (target {TARGET_KEY_MS} ms): "
                            f"{'met' if key['p95'] <= TARGET_KEY_MS else 'MISSED'}")
    for line in verdicts:
        print("at 100k:", line)
    print(f"(window {got['window_s']:.2f} s, index warm {got['ready_s']:.2f} s after start at the largest size;"
          f" load average now {os.getloadavg()[0]:.1f}; stores in {root})")


if __name__ == "__main__":
    main()
