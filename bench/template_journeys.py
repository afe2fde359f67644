#!/usr/bin/env python3
"""How long each starter template's browser journey takes, next to what any journey costs.

Prints, per template, the wall time of `python -m pytest -q tests/test_journey.py` in a
fresh copy, and a baseline measured in the same run on the same machine: pytest's own
start plus one Chromium launch that opens about:blank (what no journey can avoid).
Run: python3 bench/template_journeys.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from macaron_cli.resources import compose_template, templates_dir

BASELINE = """
from playwright.sync_api import sync_playwright
def test_blank():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium",
                              args=["--no-sandbox", "--disable-gpu", "--no-first-run",
                                    "--disable-background-networking"])
        b.new_page().goto("about:blank")
        b.close()
"""


def timed(command: list[str], cwd: Path) -> float:
    started = time.monotonic()
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"failed in {cwd}:\n{result.stdout[-2000:]}")
    return time.monotonic() - started


def main() -> None:
    templates = sorted(p for p in templates_dir().iterdir() if (p / "macaron.json").is_file())
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        (work / "baseline").mkdir()
        (work / "baseline" / "test_blank.py").write_text(BASELINE)
        baseline = timed(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_blank.py"], work / "baseline"
        )
        times = {}
        for template in templates:
            copy = work / template.name
            compose_template(template, copy, lambda rel: rel.name in ("__pycache__", "data"))
            times[template.name] = timed([sys.executable, "-m", "pytest", "-q", "tests/test_journey.py"], copy)
    print(f"baseline (pytest + Chromium on about:blank): {baseline:5.1f} s")
    for name, seconds in times.items():
        print(f"{name:<16} journey {seconds:5.1f} s  ({seconds / baseline:.1f}x baseline)")
    total = sum(times.values())
    print(f"all {len(times)} journeys       {total:5.1f} s  ({total / baseline:.1f}x baseline)")


if __name__ == "__main__":
    main()
