"""Checkpoint and rollback time against raw git, for repos of 100, 1,000 and 10,000 files.

    python3 bench/checkpoints.py [--sizes 100,1000,10000] [--rounds 9]

Two identical repos per size. Each round makes the same edits in both (modify 10 files, add
one, delete one), then times:
  checkpoint  macaron: AppRepo.checkpoint()     raw git: git add -A; git commit
  rollback    macaron: AppRepo.rollback(to=1)   raw git: git add -A; git commit (save the
              dirty state); git read-tree -u --reset <first>; git commit
Macaron's side also keeps its data snapshot (a 64 KB data file) and its refs. Each round
runs both sides back to back, alternating which goes first, so machine load hits both
alike; medians are printed.
Target: macaron at most 1.5x raw git.
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

from macaron_cli.checkpoints import AppRepo

DATA = "data/app.db"
GIT_ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@localhost",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@localhost",
}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=GIT_ENV
    ).stdout.strip()


def make_repo(path: Path, files: int) -> None:
    """`files` small source files in folders of 100, a manifest and a data file."""
    for i in range(files):
        f = path / f"pkg{i // 100:03d}" / f"mod{i:05d}.py"
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(f"def f{i}():\n    return {i}\n")
    (path / "macaron.json").write_text(json.dumps({"name": "bench", "data_files": [DATA]}))
    (path / DATA).parent.mkdir()
    (path / DATA).write_bytes(os.urandom(64 * 1024))
    AppRepo.init(path)
    git(path, "config", "user.name", "bench")
    git(path, "config", "user.email", "bench@localhost")


def edit(path: Path, files: int, round_no: int) -> None:
    step = max(1, files // 10)
    for i in range(0, step * 10, step):
        (path / f"pkg{i // 100:03d}" / f"mod{i:05d}.py").write_text(f"# round {round_no}\nx = {i}\n")
    (path / f"new_{round_no}.py").write_text("y = 1\n")
    v = (round_no * 7 + 3) % files
    victim = path / f"pkg{v // 100:03d}" / f"mod{v:05d}.py"
    if victim.exists():
        victim.unlink()


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def bench_size(files: int, rounds: int, root: Path) -> dict[str, tuple[float, float]]:
    ours, raw = root / f"macaron-{files}", root / f"raw-{files}"
    for path in (ours, raw):
        path.mkdir()
        make_repo(path, files)
    repo = AppRepo.open(ours)
    first = repo.checkpoint("scaffold", "start").id
    git(raw, "add", "-A")
    git(raw, "commit", "-q", "-m", "start")
    raw_first = git(raw, "rev-parse", "HEAD")

    times = {"checkpoint": ([], []), "rollback": ([], [])}
    for r in range(rounds):
        ops = {
            "checkpoint": (
                lambda r=r: repo.checkpoint("build", f"round {r}"),
                lambda r=r: (git(raw, "add", "-A"), git(raw, "commit", "-q", "-m", f"round {r}")),
            ),
            "rollback": (
                lambda: repo.rollback(to=first),
                lambda: (
                    git(raw, "add", "-A"),
                    git(raw, "commit", "-q", "-m", "pre-rollback"),
                    git(raw, "read-tree", "-u", "--reset", raw_first),
                    git(raw, "commit", "-q", "-m", "rollback"),
                ),
            ),
        }
        for op, (ours_op, raw_op) in ops.items():
            edit(ours, files, r * 2 + (op == "rollback"))  # rollback: dirty state it must save
            edit(raw, files, r * 2 + (op == "rollback"))
            # Alternate who goes first, so neither always meets a warmer cache.
            pair = [(0, ours_op), (1, raw_op)]
            for side, fn in pair if r % 2 == 0 else reversed(pair):
                times[op][side].append(timed(fn))
        assert git(ours, "rev-parse", "HEAD^{tree}") == git(raw, "rev-parse", "HEAD^{tree}")
    return {op: (statistics.median(a), statistics.median(b)) for op, (a, b) in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="macaron-bench-"))
    try:
        print(f"{'files':>6}  {'operation':<10}  {'macaron':>10}  {'raw git':>10}  {'ratio':>6}")
        worst = 0.0
        for files in (int(s) for s in args.sizes.split(",")):
            for op, (ours, raw) in bench_size(files, args.rounds, root).items():
                worst = max(worst, ours / raw)
                print(
                    f"{files:>6}  {op:<10}  {ours * 1000:>8.1f}ms  {raw * 1000:>8.1f}ms  {ours / raw:>5.2f}x",
                    flush=True,
                )
        print(f"worst ratio {worst:.2f}x (target <= 1.50x): {'met' if worst <= 1.5 else 'NOT met'}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
