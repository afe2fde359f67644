"""Write memories to JSONL in the import format, readable by the person alone."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from macaron_cli import files
from macaron_cli.files import atomic_write
from macaron_cli.memory import Memory


def export_jsonl(memories: Iterable[Memory], path: Path) -> int:
    """Write to a new file only (never over an existing one); returns how many were written."""
    count = 0
    # 0600 from the first byte, in a temp file that never outlives a failure: an export
    # holds private and secret memories too.
    with atomic_write(path, overwrite=False) as out:
        for memory in memories:
            out.write(json.dumps(memory.to_dict(), ensure_ascii=False) + "\n")
            count += 1
    return count


def check_target(path: Path) -> Path:
    """Raise UserError unless `path` can be created as a new file; returns it expanded."""
    return files.check_target(path, overwrite=False)
