"""Where an app's data may be: inside its own data folder (`data/`), reached without a link.

A data path comes from macaron's pinned values, but the folders it names are the app's:
the coder may have made `data` a link to the person's home or put `../` in a name. Every
snapshot, restore and chmod of app data asks here first, so a path that leaves the data
folder, is absolute, or passes a symbolic link at any component is never followed.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

DATA_DIR = "data"  # the app finds it in MACARON_APP_DATA


def declared(paths: Iterable[str]) -> list[str]:
    """The declared data paths that name something inside `data/` (relative, no `..`),
    normalised ("data/app.db"); the rest are dropped."""
    kept = []
    for raw in paths:
        rel = raw.strip().strip("/")
        parts = PurePosixPath(rel).parts
        if raw.startswith("/") or "\\" in rel or not parts or parts[0] != DATA_DIR or ".." in parts:
            continue
        rel = PurePosixPath(*parts).as_posix()
        if rel not in kept:
            kept.append(rel)
    return kept


def inside(app_dir: Path, rel: str) -> bool:
    """Whether `rel` lies in the app's data folder with no link on the way: each of its
    components that exists is a real folder (the last one a real file or folder)."""
    if rel not in declared([rel]):
        return False
    here = Path(app_dir)
    for part in PurePosixPath(rel).parts:
        here = here / part
        try:
            mode = here.lstat().st_mode
        except FileNotFoundError:
            return True  # nothing there yet: writing it creates real folders
        except OSError:
            return False
        if stat.S_ISLNK(mode):
            return False
    return True


def files_under(app_dir: Path, rel: str) -> list[str]:
    """The regular files at or below data path `rel` (relative to the app), never through a link."""
    if not inside(app_dir, rel):
        return []
    top = Path(app_dir) / rel
    try:
        mode = top.lstat().st_mode
    except OSError:
        return []
    if stat.S_ISREG(mode):
        return [rel]
    if not stat.S_ISDIR(mode):
        return []
    found = []
    for root, dirs, names in os.walk(top, followlinks=False):
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
        for name in names:
            path = Path(root) / name
            if path.is_file() and not path.is_symlink():
                found.append(path.relative_to(app_dir).as_posix())
    return sorted(found)
