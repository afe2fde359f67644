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
# Held by the one upkeep worker (memory/upkeep_worker.py) while it compacts and indexes; its
# modification time is when upkeep last finished.
UPKEEP_LOCK_NAME = ".macaron.upkeep.lock"


class WriteLock:
    """A re-entrant (per process) exclusive lock on `<store>/.macaron.lock` (or another of
    the store's lock files, `name`)."""

    def __init__(self, directory: Path | None, timeout: float = 120.0, name: str = LOCK_NAME):
        self.path = directory / name if directory is not None else None
        self.timeout = timeout
        self._depth = 0
        self._fd: int | None = None
        self._thread_lock = threading.RLock()

    @property
    def mine(self) -> bool:
        """True while this process holds it."""
        return self._depth > 0

    @contextmanager
    def held(self):
        if self.path is None:  # object storage: LanceDB's own commit protocol is all we have
            yield
            return
        with self._thread_lock:
            if self._depth == 0:
                self._fd = waited_for(self.path, self.timeout)
            with self._counted():
                yield

    @contextmanager
    def attempt(self):
        """Like `held`, without waiting: yields True holding the lock, False if another process has it."""
        if self.path is None:
            yield True
            return
        with self._thread_lock:
            if self._depth == 0:
                self._fd = taken_now(self.path)
                if self._fd is None:
                    yield False
                    return
            with self._counted():
                yield True

    @contextmanager
    def _counted(self):
        """One more holder in this process; the last one out releases the lock."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            if self._depth == 0:
                self._release()

    def _release(self) -> None:
        if self._fd is not None:
            released(self._fd)
            self._fd = None


def waited_for(path: Path, timeout: float) -> int:
    """An open descriptor of `path` holding its exclusive lock, once no other process holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(fd)
                raise UserError(
                    f"another macaron process has been writing to {path.parent} for over "
                    f"{timeout:.0f} s; wait for it to finish and try again."
                ) from None
            time.sleep(0.02)


def taken_now(path: Path) -> int | None:
    """An open descriptor of `path` holding its exclusive lock, or None if another holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def released(fd: int) -> None:
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)
