"""Tiny apps that follow macaron's manifest contract (tests/fixtures/apps/), copied for a test."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "apps"


def copy_app(name: str, dest: Path, git: bool = False) -> Path:
    """A fresh copy of fixture app `name` at `dest` (a git repo when `git`, as real apps are)."""
    shutil.copytree(FIXTURES / name, dest, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache", ".macaron"))
    if git:
        subprocess.run(["git", "init", "-q", str(dest)], check=True)
    return dest
