"""A folder outside /tmp, for stores and apps a test places where the sandbox's private /tmp
cannot hide them by location (so a wall that forgot them shows)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PARENT = "/var/tmp"


@contextmanager
def outside_tmp(prefix: str = "macaron-test-") -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir=PARENT))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
