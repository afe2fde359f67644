"""One writer at a time, across processes: an advisory lock file inside the store.

LanceDB retries conflicting appends itself, but forget (which rewrites data files and
deletes old versions) and index rebuilds must never run beside another writer: a file
deleted under a concurrent commit would lose that commit. So every write to a local
store holds this lock. Readers never take it.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from macaron_cli.errors import UserError

LOCK_NAME = ".macaron.lock"
REEMBED_LOCK_NAME = ".macaron.reembed.lock"  # held by the one re-embedder (memory/reembed.py)


class WriteLock:
    """A re-entrant (per process) exclusive lock on `<store>/.macaron.lock`."""

    def __init__(self, directory: Path | None, timeout: float = 120.0):
        self.path = directory / LOCK_NAME if directory is not None else None
        self.timeout = timeout
        self._depth = 0
        self._fd: int | None = None
        self._thread_lock = threading.RLock()

    @contextmanager
    def held(self):
        if self.path is None:  # object storage: LanceDB's own commit protocol is all we have
            yield
            return
        with self._thread_lock:
            if self._depth == 0:
                self._acquire(self.path)
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self._release()

    def _acquire(self, path: Path) -> None:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(fd)
                    raise UserError(
                        f"another macaron process has been writing to {path.parent} for over "
                        f"{self.timeout:.0f} s; wait for it to finish and try again."
                    ) from None
                time.sleep(0.02)
        self._fd = fd

    def _release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
