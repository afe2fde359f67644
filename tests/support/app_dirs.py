"""Helpers for tests that need a real macaron app repo on disk."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

DATA_FILE = "data/app.db"


def make_app_dir(path: Path, data_files=(DATA_FILE,), files: dict[str, str] | None = None) -> Path:
    """A minimal app: macaron.json, a few files, `git init` through AppRepo.init."""
    from macaron_cli.checkpoints import AppRepo

    path.mkdir(parents=True, exist_ok=True)
    manifest = {"name": path.name, "title": path.name, "data_files": list(data_files)}
    (path / "macaron.json").write_text(json.dumps(manifest), encoding="utf-8")
    for rel, text in (files or {"app.py": "print('hello')\n"}).items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_text(text, encoding="utf-8")
    AppRepo.init(path)
    return path


def git(path: Path, *args: str, check: bool = True) -> str:
    return subprocess.run(["git", "-C", str(path), *args], capture_output=True, text=True, check=check).stdout


def tree_files(path: Path, skip=(".git", ".macaron")) -> dict[str, tuple[bytes, bool]]:
    """Every file in the working tree: {relative path: (bytes, executable)}."""
    found = {}
    for root, dirs, names in os.walk(path):
        dirs[:] = [d for d in dirs if not (Path(root) == path and d in skip)]
        for name in names:
            full = Path(root) / name
            found[full.relative_to(path).as_posix()] = (full.read_bytes(), bool(full.stat().st_mode & 0o100))
    return found


def repo_state(path: Path) -> dict:
    """Everything a refusal must leave as it was: refs, HEAD, index, files, data, snapshots."""
    index = Path(git(path, "rev-parse", "--absolute-git-dir").strip()) / "index"
    return {
        "refs": git(path, "for-each-ref", "--format=%(refname) %(objectname)"),
        "head": git(path, "rev-parse", "--symbolic-full-name", "HEAD", check=False)
        + git(path, "rev-parse", "HEAD", check=False),
        "index": hashlib.sha256(index.read_bytes()).hexdigest() if index.exists() else None,
        "files": tree_files(path, skip=(".git",)),
    }
