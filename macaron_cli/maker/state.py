"""A make's own record in the app (`.macaron/make.json`): what was asked, how far it got.

It is what `macaron make --resume APP` continues from, and what the summary and the
feedback question read. Private (git-ignored), like the brief.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from macaron_cli.apps import PRIVATE_DIR

FILE = "make.json"


def path(app: Path) -> Path:
    return app / PRIVATE_DIR / FILE


def load(app: Path) -> dict:
    p = path(app)
    if not p.exists():
        return {}
    try:
        return json.loads(p.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return {}


def save(app: Path, state: dict) -> None:
    p = path(app)
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(state, ensure_ascii=False, indent=2), encoding="utf-8")
    tmp.replace(p)
