"""How long an app's digest takes on 10k records, as macaron runs it, against the same
digest on an empty app in the same run (what starting Python and the sandbox cost).

Each template's app is made from the template, loaded with N records through its own
migrations, and its digest run: inside one Python process (the digest's own work, no
start-up), in a plain process (`python -m server.macaron_life`),
in the sandbox on a read-only copy (what `macaron apps digest` and the friend do), and
from the cache (nothing changed since).

    python3 bench/app_digest.py [--records 10000] [--runs 7] [--templates habit-tracker,budget]

Target: a digest of 10k records in at most 200 ms (median): the digest's own work, judged
in-process; the sandboxed figure adds starting Python and the sandbox, which the empty
app's column shows alone (it varies with the machine's load, not with the records).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TARGET_MS = 200
DAYS = ["2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03"]


def timed(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


IN_PROCESS = """
import datetime as dt, statistics, sys, time
sys.path.insert(0, ".")
from server.macaron_life import run
times = []
for _ in range({runs}):
    t0 = time.perf_counter()
    run(dt.date.fromisoformat("{since}"), dt.date.fromisoformat("{today}"), "week")
    times.append((time.perf_counter() - t0) * 1000)
print(statistics.median(times))
"""


def in_process(app: Path, runs: int, since: str, today: str) -> float:
    code = IN_PROCESS.format(runs=runs, since=since, today=today)
    done = subprocess.run([sys.executable, "-c", code], cwd=app, check=True, capture_output=True, text=True)
    return float(done.stdout.strip())


def main() -> None:
    from tests.support.app_records import DAY, TEMPLATES, bulk_load, make_template_app

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--templates", default=",".join(TEMPLATES))
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="macaron-bench-digest-"))
    os.environ["MACARON_HOME"] = str(root / "home")
    from macaron_cli.sandbox import get_sandbox
    from macaron_cli.sandbox.digest import read_digest

    sandbox = get_sandbox()
    today = dt.date.fromisoformat(DAY)
    print(f"sandbox: {sandbox.name}; {args.records} records; median of {args.runs} runs (ms)")
    print(
        f"{'template':<14} {'in-proc':>8} {'process':>8} {'sandbox':>8} {'cached':>7} │ "
        f"{'empty, sandbox':>14} {'records add':>11}"
    )
    worst = slowest = 0.0
    for template in args.templates.split(","):
        full = make_template_app(template, root / f"{template}-full")
        bulk_load(full, template, args.records, DAYS)
        empty = make_template_app(template, root / f"{template}-empty")
        argv = [sys.executable, "-m", "server.macaron_life", "--since", DAYS[0], "--today", DAY]

        def process(app=full, argv=argv):
            subprocess.run(argv, cwd=app, check=True, capture_output=True)

        def sandboxed(app=full):
            read_digest(app, today=today, sandbox=sandbox, cache=False)

        def cached(app=full):
            read_digest(app, today=today, sandbox=sandbox)

        read_digest(full, today=today, sandbox=sandbox)  # warm: fill the cache, the page cache
        p_ms, s_ms, c_ms = timed(process, args.runs), timed(sandboxed, args.runs), timed(cached, args.runs)
        e_ms = timed(lambda app=empty: read_digest(app, today=today, sandbox=sandbox, cache=False), args.runs)
        i_ms = in_process(full, args.runs, DAYS[0], DAY)
        worst, slowest = max(worst, i_ms), max(slowest, s_ms)
        print(
            f"{template:<14} {i_ms:>8.1f} {p_ms:>8.0f} {s_ms:>8.0f} {c_ms:>7.1f} │ {e_ms:>14.0f} {s_ms - e_ms:>11.0f}"
        )
    verdict = "met" if worst <= TARGET_MS else "NOT met"
    print(f"slowest digest of {args.records} records, in-process: {worst:.1f} ms (target ≤ {TARGET_MS} ms: {verdict})")
    print(f"slowest sandboxed, with Python and sandbox start-up: {slowest:.0f} ms")


if __name__ == "__main__":
    main()
