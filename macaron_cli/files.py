"""Files written whole or not at all: the one atomic file writer, and private folders.

Everything macaron writes that a crash must not leave half-written (exports, settings, the
app registry, journals) goes through `atomic_write`: the bytes go to a temp file in the
target's own folder (so the final rename never crosses a file system), readable by the
person alone from its first byte, and are renamed into place only once complete and
flushed to disk. On any failure (a full disk, a write error, Ctrl-C) the temp file is
removed, so no copy of the person's data is left behind where they did not ask for one.
"""

from __future__ import annotations

import errno
import os
import stat
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from macaron_cli.errors import UserError

PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700


def check_target(path: str | os.PathLike, *, overwrite: bool = True) -> Path:
    """`path` expanded, or UserError (one line, before anything is written) when it cannot
    be written as a regular file: a directory, a device, a missing parent folder, or an
    existing file when `overwrite` is False."""
    path = Path(path).expanduser()
    if path.is_dir():
        raise UserError(f"{path} is a directory; give a file name inside it, e.g. {path / 'export.jsonl'}.")
    if path.exists():
        if not stat.S_ISREG(path.stat().st_mode):
            raise UserError(f"{path} is not a regular file (a device or a pipe); choose a file name.")
        if not overwrite:
            raise UserError(f"{path} already exists; choose another file name.")
    if not path.parent.is_dir():
        raise UserError(f"{path.parent} is not a directory; create it or choose a path in an existing directory.")
    return path


@contextmanager
def atomic_write(
    path: str | os.PathLike,
    *,
    text: bool = True,
    mode: int = PRIVATE_FILE,
    overwrite: bool = True,
    encoding: str = "utf-8",
) -> Iterator[IO]:
    """`with atomic_write(path) as f: f.write(...)`: the file appears complete or not at all.

    `overwrite=False` never replaces an existing file, even one created meanwhile (the temp
    file is hard-linked into place, which fails if the name is taken). Raises UserError for
    a target that cannot be a file and for an I/O failure (the temp file is gone by then).
    """
    path = check_target(path, overwrite=overwrite)
    tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        out: IO = os.fdopen(fd, "w", encoding=encoding) if text else os.fdopen(fd, "wb")
        with out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)  # whatever the umask did
        if overwrite:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)
            os.unlink(tmp)
        _sync_folder(path.parent)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, FileExistsError) and not overwrite:
            raise UserError(f"{path} already exists; choose another file name.") from None
        if isinstance(exc, OSError):
            reason = (
                "no space left on the disk"
                if exc.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
                else (exc.strerror or type(exc).__name__)
            )
            raise UserError(
                f"could not write {path} ({reason}); nothing was written. Free some space or choose another place."
            ) from None
        raise


def write_atomic(path: str | os.PathLike, data: str | bytes, **options) -> Path:
    """Write all of `data` to `path` atomically (see atomic_write); returns the path."""
    with atomic_write(path, text=isinstance(data, str), **options) as out:
        out.write(data)
    return Path(path).expanduser()


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (a crash right after must not bring back the old file)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def make_private(root: str | os.PathLike) -> None:
    """Tighten `root` and everything under it to the person alone: folders 0700, files 0600
    (an executable file keeps its x bit for its owner). For folders that existed before
    macaron made them private, or that another program created with its own umask."""
    root = Path(root)
    if not root.exists():
        return
    paths = [root, *root.rglob("*")] if root.is_dir() else [root]
    for p in paths:
        try:
            st = p.lstat()
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(st.st_mode):
            continue
        want = PRIVATE_DIR if stat.S_ISDIR(st.st_mode) else PRIVATE_FILE | (st.st_mode & stat.S_IXUSR)
        if stat.S_IMODE(st.st_mode) != want:
            try:
                os.chmod(p, want)
            except OSError:
                pass
