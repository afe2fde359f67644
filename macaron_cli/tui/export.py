"""Write memories to JSONL in the import format, readable by the person alone."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable

from macaron_cli.errors import UserError
from macaron_cli.memory import Memory


def export_jsonl(memories: Iterable[Memory], path: Path) -> int:
    """Write to a new file only (never over an existing one); returns how many were written."""
    path = check_target(path)
    count = 0
    # 0600 from the first byte: an export holds private and secret memories too.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        for memory in memories:
            out.write(json.dumps(memory.to_dict(), ensure_ascii=False) + "\n")
            count += 1
    return count


def check_target(path: Path) -> Path:
    """Raise UserError unless `path` can be created as a new file; returns it expanded."""
    path = Path(path).expanduser()
    if path.exists():
        raise UserError(f"{path} already exists; choose another file name.")
    if not path.parent.is_dir():
        raise UserError(f"{path.parent} is not a folder; choose a path in an existing folder.")
    return path
