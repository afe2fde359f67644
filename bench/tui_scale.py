"""How the memory browser scales: time to open, and keypress-to-table latency in search.

    python3 bench/tui_scale.py [--sizes 10000,100000] [--keep DIR]

For each size it builds a memory with MemoryStore.add_many (synthetic, seeded), then starts
a fresh Python process that opens the browser headless (Textual's run_test, 120x40) and:
  open     from before the process starts to the first screen update done after the first
           page was put in the table (imports, opening the store and the first list included)
  keypress from the moment a key event is handed to the app (the driver's send_message, as
           Pilot does it) to the moment the last screen update that changed what the screen
           shows is done, after the query's results were put in the table: the search, the
           table and detail updates, the layout passes, each frame's wait for Textual's screen
           timer, and the painting. Headless Textual skips only the last step of a paint,
           turning the screen update into the bytes a terminal is sent; the bench does that
           step too and counts it. Which updates changed the screen is worked out afterwards,
           on a copy of the screen the updates are applied to, outside the timed span.
           One key at a time, for a few typed queries: before each key the process has been
           idle (no 20 ms slice with 1 ms of CPU), as Pilot waits, but that wait is not
           timed. No debounce: the search starts at once. The search box's cursor does not
           blink (its repaints would be counted as the key's). The verdict line also gives
           the time to the first screen update with the results (later ones may still place
           scrollbars) and to the last screen update of any kind (Textual repaints scrollbars
           a frame after each layout pass, though they show the same).
  filter   from choosing a domain to the last screen update that changed the screen, the same way
  page     from "]" (next page) to the last screen update that changed the screen, the same way
Baseline, measured in the same run on the same store: MemoryStore.list (first page) and
MemoryStore.search alone, i.e. what the browser cannot be faster than.
Targets at 100k: open <= 1.5 s, keypress <= 150 ms (p95).
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
OBJECTS = [
    "oat milk coffee",
    "a trip to Kyoto",
    "ramen with extra egg",
    "the rent payment",
    "a birthday cake",
    "the budget spreadsheet",
    "a knee pain appointment",
    "guitar lessons",
    "a new running route",
    "tickets for the fireworks",
    "the garden beds",
    "a film camera",
    "sushi night",
    "a yoga class",
    "a train to Osaka",
    "the dentist",
    "green tea",
    "the book club",
    "a bike repair",
    "piano practice",
]
WHEN = ["on Monday", "last week", "every morning", "in March", "before work", "on weekends", "tonight", "in 2025"]
DOMAINS = ["food", "health", "fitness", "travel", "finance", "work", "family", "hobby"]
KINDS = ["fact", "preference", "episode"]
LEVELS = ["public", "personal", "personal", "private", "secret"]


def synthetic(n: int, seed: int = 7):
    rnd = random.Random(seed)
    for i in range(n):
        text = f"{rnd.choice(SUBJECTS)} {rnd.choice(VERBS)} {rnd.choice(OBJECTS)} {rnd.choice(WHEN)} (note {i})"
        yield {
            "id": f"m_{i:09d}",
            "text": text,
            "language": "en",
            "domain": rnd.choice(DOMAINS),
            "kind": rnd.choice(KINDS),
            "privacy": rnd.choice(LEVELS),
            "created_at": f"20{20 + i * 6 // n:02d}-{1 + i % 12:02d}-{1 + i % 28:02d}"
            f"T{i % 24:02d}:{i % 60:02d}:00+00:00",
            "pinned": i % 211 == 0,
            "reward": (i % 5) / 4,
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
    from rich.cells import cell_len
    from rich.segment import ControlType
    from textual import events
    from textual._compositor import CompositorUpdate

    from macaron_cli.memory import MemoryStore
    from macaron_cli.tui.app import MemoryBrowser

    wall = time.time() - time.perf_counter()  # to report perf_counter times as wall-clock times
    # As `macaron memory` does: the window first, the store opened (LanceDB imported) in a worker.
    app = MemoryBrowser(open_store=lambda: MemoryStore.open(path))
    result: dict = {}
    # When each screen update was done, pages_shown then, and the update.
    paints: list[tuple[float, int, CompositorUpdate]] = []
    cells: dict[tuple[int, int], tuple[str, str]] = {}  # the screen, as the updates so far left it
    applied = [0]  # how many of `paints` are in `cells`

    display = app._display

    def paint(screen, update) -> None:
        display(screen, update)
        if isinstance(update, CompositorUpdate) and not app._batch_count:
            update.render_segments(app.console)  # the bytes a terminal would be sent
            paints.append((time.perf_counter(), app.pages_shown, update))
            if "open_cpu_s" not in result and app.pages_shown:
                usage = resource.getrusage(resource.RUSAGE_SELF)  # CPU, all threads: what load cannot inflate
                result["open_cpu_s"] = usage.ru_utime + usage.ru_stime

    app._display = paint

    async def idle() -> None:
        """Until a 20 ms slice passes with under 1 ms of CPU in the whole process (as Pilot waits)."""
        while True:
            cpu = time.process_time()
            await asyncio.sleep(0.02)
            if time.process_time() - cpu < 0.001:
                return

    def changes(update: CompositorUpdate) -> bool:
        """Apply a screen update to `cells`: does any cell show something else now?"""
        changed, x, y = False, 0, 0
        for segment in update.__rich_console__(app.console, app.console.options):
            if segment.control:
                for code in segment.control:
                    if code[0] == ControlType.CURSOR_MOVE_TO:
                        x, y = code[1], code[2]
                continue
            style = str(segment.style or "")
            for char in segment.text.replace("\n", ""):
                if cells.get((x, y)) != (char, style):
                    cells[x, y], changed = (char, style), True
                x += cell_len(char)
        return changed

    async def painted(shown: int, timeout: float = 30.0) -> tuple[float, float, float]:
        """Once a page after the `shown`-th is in the table and the app is idle: when the first
        screen update after it was done, the last one that changed the screen, and the last one."""
        deadline = time.perf_counter() + timeout
        while True:
            before = len(paints)
            await idle()
            after = [at for at, pages, _ in paints if pages > shown]
            if after and len(paints) == before:
                break
            if time.perf_counter() > deadline:
                raise SystemExit("the table never updated")
        visible = after[0]
        for at, pages, update in paints[applied[0] :]:
            if changes(update) and pages > shown:
                visible = at
        applied[0] = len(paints)
        return after[0], visible, after[-1]

    def send(key: str) -> float:
        """Hand a key to the app as Pilot does; returns when."""
        char = {"space": " ", "slash": "/", "right_square_bracket": "]"}.get(key, key if len(key) == 1 else None)
        event = events.Key(key, char)
        event.set_sender(app)
        sent = time.perf_counter()
        app._driver.send_message(event)
        return sent

    async def main():
        async with app.run_test(size=(120, 40)):
            result["window_at"] = time.time()
            search = app.query_one("#search")
            search.cursor_blink = False
            first, _, _ = await painted(0)
            result["first_page_at"] = wall + first
            warm_up = [w for w in app.workers if w.name == "_warm_search"]
            await app.workers.wait_for_complete(warm_up)
            result["ready_at"] = time.time()
            send("slash")
            await idle()
            latencies, first_paints, last_paints = [], [], []
            for query in QUERIES:
                for ch in query:
                    if ch == " ":  # the same words, so the same results: nothing to redraw
                        send("space")
                        await idle()
                        continue
                    shown = app.pages_shown
                    sent = send(ch)
                    first, visible, last = await painted(shown)
                    latencies.append(visible - sent)
                    first_paints.append(first - sent)
                    last_paints.append(last - sent)
                shown = app.pages_shown
                search.value = ""
                await painted(shown)
            result["keypress"] = _summary(latencies)
            result["first_paint"] = _summary(first_paints)
            result["last_paint"] = _summary(last_paints)
            filters = []
            for domain in ("food", "travel", "work"):
                shown = app.pages_shown
                chosen = time.perf_counter()
                app.query_one("#filter-domain").value = domain
                _, visible, _ = await painted(shown)
                filters.append(visible - chosen)
            result["filter"] = _summary(filters)
            send("escape")
            await idle()
            shown = app.pages_shown
            sent = send("right_square_bracket")
            _, visible, _ = await painted(shown)
            result["next_page_ms"] = 1000 * (visible - sent)

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
    print(
        f"{'memories':>9} {'build s':>8} {'open s':>7} {'cpu s':>6} {'keypress ms p50/p95/max':>24} "
        f"{'filter ms':>9} {'page ms':>8} | baseline: {'list ms':>7} {'search ms p50/p95':>17}"
    )
    verdicts = []
    for n in (int(s) for s in args.sizes.split(",")):
        path = root / f"m{n}"
        built = build(path, n) if not path.exists() else 0.0
        base = baseline(path)
        got = measure(path)
        key, search = got["keypress"], base["search_ms"]
        print(
            f"{n:>9,} {built:>8.1f} {got['open_s']:>7.2f} {got['open_cpu_s']:>6.2f} "
            f"{key['p50']:>9.0f}/{key['p95']:.0f}/{key['max']:.0f}".ljust(60)
            + f" {got['filter']['p50']:>9.0f} {got['next_page_ms']:>8.0f} | "
            f"{' ' * 10}{base['list_ms']:>7.0f} {search['p50']:>9.0f}/{search['p95']:.0f}"
        )
        if n >= 100_000:
            verdicts.append(
                f"open {got['open_s']:.2f} s, {got['open_cpu_s']:.2f} s cpu (target {TARGET_OPEN_S} s): "
                f"{'met' if got['open_s'] <= TARGET_OPEN_S else 'MISSED'}; "
                f"keypress p50 {key['p50']:.0f} ms, p95 {key['p95']:.0f} ms (target {TARGET_KEY_MS} ms): "
                f"{'met' if key['p95'] <= TARGET_KEY_MS else 'MISSED'} "
                f"(first screen update with the results p50/p95 {got['first_paint']['p50']:.0f}/"
                f"{got['first_paint']['p95']:.0f} ms; last screen update of any kind "
                f"{got['last_paint']['p50']:.0f}/{got['last_paint']['p95']:.0f} ms)"
            )
    for line in verdicts:
        print("at 100k:", line)
    print(
        f"(window {got['window_s']:.2f} s, index warm {got['ready_s']:.2f} s after start at the largest size;"
        f" load average now {os.getloadavg()[0]:.1f}; stores in {root})"
    )


if __name__ == "__main__":
    main()
