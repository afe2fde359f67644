"""How long verifying an app takes, against doing the same work by hand without a sandbox.

    python3 bench/verify_app.py [--rounds 3] [--app tests/fixtures/apps/good] [--backend bubblewrap]

Each round, alternating so machine load hits both alike:
  verify  macaron's verify_app(): tests and the browser check, in the sandbox, on copies.
  direct  the same work by hand, one after the other and unsandboxed: the app's test
          command, then start its server, launch Chromium (Playwright), load / and
          screenshot it.
Prints per-round figures, the phases of the last verify, and the median ratio
verify / direct (target: at most 1.2; below 1 when the two checks overlap).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from macaron_cli.sandbox import BACKENDS, get_sandbox
from macaron_cli.sandbox.manifest import runnable_manifest
from macaron_cli.sandbox.open_check import CHROMIUM_ARGS, expand_argv, free_port, wait_until_answers
from macaron_cli.sandbox.verify import verify_app


def direct(app: Path) -> float:
    """Tests, then server + Chromium + screenshot: no sandbox, no copies, no checks."""
    from playwright.sync_api import sync_playwright

    manifest = runnable_manifest(app)
    started = time.monotonic()
    subprocess.run(
        expand_argv(manifest.test, sys.executable),
        cwd=app,
        capture_output=True,
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
    )
    port = free_port()
    server = subprocess.Popen(
        expand_argv(manifest.run, sys.executable, port), cwd=app, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            wait_until_answers(f"http://127.0.0.1:{port}/", server, 30)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/", wait_until="load")
            page.wait_for_selector(manifest.main_selector)
            page.screenshot(path=str(app / "direct.png"))
            browser.close()
    finally:
        server.terminate()
        server.wait()
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--app", default=str(Path(__file__).resolve().parents[1] / "tests/fixtures/apps/good"))
    parser.add_argument("--backend", choices=list(BACKENDS), default=None)
    args = parser.parse_args()
    sandbox = BACKENDS[args.backend]() if args.backend else get_sandbox()
    with tempfile.TemporaryDirectory(prefix="macaron-bench-verify-") as work:
        app = Path(work) / "app"
        shutil.copytree(args.app, app, ignore=shutil.ignore_patterns(".git", ".macaron", "__pycache__"))
        verify_times, direct_times, report = [], [], None
        for n in range(args.rounds):
            order = ("verify", "direct") if n % 2 == 0 else ("direct", "verify")
            for kind in order:
                if kind == "verify":
                    t0 = time.monotonic()
                    report = verify_app(app, sandbox=sandbox)
                    verify_times.append(time.monotonic() - t0)
                    assert report.ok, report.feedback()
                else:
                    direct_times.append(direct(app))
            print(f"round {n + 1}: verify {verify_times[-1]:.2f} s   direct {direct_times[-1]:.2f} s", flush=True)
    v, d = statistics.median(verify_times), statistics.median(direct_times)
    print(f"backend: {sandbox.name}   load average: {os.getloadavg()[0]:.1f}")
    print(f"last verify's phases (s): {json.dumps(report.timings)}")
    print(f"median verify {v:.2f} s   median direct {d:.2f} s   ratio {v / d:.2f} (target <= 1.2)")


if __name__ == "__main__":
    main()
