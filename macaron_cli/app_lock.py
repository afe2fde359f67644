"""One macaron process at a time per app: `.macaron/lock`, held with flock(2).

Why flock and not "create the file if absent": the kernel drops a flock when its process
dies, however it dies, so a lock left behind by a crash (a file naming a dead pid) is
simply taken over; there is no stale-lock guesswork. The pid inside is only for the
message that tells the person who holds the app.

Re-entrant within one process: `macaron make` holds the app for the whole run and the
checkpoints it makes on the way take the same lock again.
"""

from __future__ import annotations

import fcntl
import os
import threading
from contextlib import contextmanager
from pathlib import Path

from macaron_cli.errors import UserError

# realpath of a lock file → [fd, depth] for locks this process holds.
_held: dict[str, list[int]] = {}
_guard = threading.Lock()


def _holder(path: Path) -> str:
    try:
        pid = path.read_text(encoding="utf-8").split()[0]
    except (OSError, IndexError):
        return "another macaron process"
    return f"another macaron process (pid {pid})"


def _acquire(path: Path) -> int:
    """Open and flock `path`; UserError at once if someone else holds it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise UserError(
                f"{_holder(path)} is working on this app; wait for it to finish (if none is running, delete {path})."
            ) from None
        # The holder before us may have unlinked the file between our open and our flock;
        # then we locked an orphan inode and must try again on the new file.
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
            return fd
        os.close(fd)


def _release(path: Path, fd: int) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass
    os.close(fd)


@contextmanager
def app_lock(path: Path):
    """Hold the lock file at `path` for the duration of the block (re-entrant per process)."""
    key = os.path.realpath(path)
    with _guard:
        entry = _held.get(key)
        if entry:
            entry[1] += 1
        else:
            _held[key] = [_acquire(path), 1]
    try:
        yield
    finally:
        with _guard:
            entry = _held[key]
            entry[1] -= 1
            if entry[1] == 0:
                del _held[key]
                _release(path, entry[0])
