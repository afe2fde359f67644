"""What `macaron change` costs beside `macaron make`, measured in the same run.

  1. offline changes, command to verified app (`change APP REQUEST --offline --yes`; target
     median ≤ 6 s), beside an offline make of the same app (idea to verified app), each with
     its verification's own seconds (the app's tests and the headless browser, from the app's
     .macaron/verify.json): a change of what the app tracks (its water goal: the tests run
     again) and a change of a setting the tests lay their own over (imperial units: the
     tests' last pass stands, sandbox/test_inputs.py; the browser opens it anew);
  2. with the scripted model server (tests/support/model_server.py) answering at once:
     command → first model request, for make and for change (a change with a model where this
     checkout has one; otherwise said).

Run: python3 bench/change_overhead.py [--runs N]

As bench/make_overhead.py: macaron runs with its bytecode compiled, and the load average is
printed before and after (two shared cores: compare only runs under the same load).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.make_overhead import TimedServer, _env, _make  # noqa: E402
from tests.support.model_server import Reply  # noqa: E402

IDEA = "毎日の水分補給を記録したい"
REQUESTS = {"goal": "set the water goal to 2.5 liters", "units": "show it in imperial units"}


def _verify_seconds(app: Path) -> float:
    return float(json.loads((app / ".macaron" / "verify.json").read_text(encoding="utf-8"))["seconds"])


def _change(app: Path, env: dict, request: str, *extra: str) -> tuple[float, subprocess.CompletedProcess]:
    start = time.time()
    run = subprocess.run(
        [sys.executable, "-m", "macaron_cli", "change", str(app), request, "--yes", "--json", *extra],
        env=env,
        capture_output=True,
        text=True,
    )
    return start, run


def offline(work: Path) -> dict:
    env = _env(work)
    _, state, app = _make([IDEA, "--offline"], env)
    found = {"make_s": state["wall"], "make_verify_s": _verify_seconds(app)}
    for kind, request in REQUESTS.items():
        start, run = _change(app, env, request, "--offline")
        found[f"{kind}_s"] = time.time() - start
        out = json.loads(run.stdout) if run.stdout.strip().startswith("{") else {}
        if run.returncode != 0 or out.get("tests") != "passed":
            ended = f"{run.returncode} (tests {out.get('tests')})"
            print(f"  note: the change ended {ended}: {run.stderr[-300:]}", file=sys.stderr)
        found[f"{kind}_verify_s"] = _verify_seconds(app)
    return found


def first_requests(work: Path) -> dict:
    with TimedServer(lambda req: Reply.text("Built.")) as server:
        env = _env(work, server)
        start, _, app = _make([IDEA, "--max-rounds", "0"], env)
        make_first = server.arrivals[0] - start
        seen = len(server.arrivals)
        start, run = _change(app, env, REQUESTS["goal"])
        change_first = server.arrivals[seen] - start if len(server.arrivals) > seen else None
    why = None if change_first is not None else (run.stderr.strip().splitlines() or ["no model request"])[-1]
    return {"make_first_s": make_first, "change_first_s": change_first, "why": why}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-model", action="store_true", help="only the offline figures")
    args = parser.parse_args()
    compileall.compile_dir(REPO / "macaron_cli", quiet=1)
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    rows: dict[str, list[float]] = {}
    why = None
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            found = offline(Path(tmp) / "offline")
            if not args.no_model:
                model = first_requests(Path(tmp) / "model")
                why = model.pop("why")
                found |= {k: v for k, v in model.items() if v is not None}
        for key, value in found.items():
            rows.setdefault(key, []).append(value)
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"runs: {args.runs} (median of each); the app: {IDEA!r}")
    print(f"offline make, idea → verified app: {med['make_s']:.2f} s  (verifying {med['make_verify_s']:.2f} s)")
    for kind, request in REQUESTS.items():
        total, verifying = med[f"{kind}_s"], med[f"{kind}_verify_s"]
        print(
            f"offline change {request!r}, command → verified app: {total:.2f} s  (verifying {verifying:.2f} s)"
            f"   target ≤ 6 s: {'OK' if total <= 6 else 'MISSED'}"
        )
    if "make_first_s" in med:
        print(f"command → first model request: make {med['make_first_s']:.2f} s", end="")
        if "change_first_s" in med:
            print(f", change {med['change_first_s']:.2f} s")
        else:
            print(f"; change: no model request ({why})")
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
