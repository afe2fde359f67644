"""Snapshots of a person's app data (git-ignored), kept beside each checkpoint.

The data (say the SQLite file holding a water log) is never rolled back with the code:
only `rollback --with-data` restores it. Each checkpoint n keeps the data as it was in
`.macaron/snapshots/<n>/`: `files/<path>` plus `manifest.json`
({"taken_ns": when, "files": {path: [size, mtime_ns]}}).

To stay cheap, a file unchanged since the previous snapshot is hard-linked to that
snapshot's copy instead of copied again. "Unchanged" means the same bytes; equal size and
mtime answer that without reading, except when the mtime was within RACY_NS of the
snapshot (file-system clocks are coarse: a write in the same tick keeps the mtime), where
the bytes are compared. Snapshot copies are never linked to the live file: SQLite writes
in place and would change the snapshot with it.
"""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import time
from pathlib import Path

from macaron_cli.untrusted import data_paths

# SQLite keeps recent writes in these beside the database; a database restored without
# removing a newer -wal would have that WAL replayed onto it and be corrupted.
SQLITE_SIDECARS = ("-wal", "-shm", "-journal")
MANIFEST = "manifest.json"
RACY_NS = 2_000_000_000


class DataSnapshots:
    def __init__(self, app_dir: Path, data_files: list[str], root: Path):
        self.app_dir = app_dir
        # Only paths inside the app's data folder, never through a link (untrusted/data_paths.py).
        self.data_files = data_paths.declared(data_files)
        self.root = root  # .macaron/snapshots

    # ── the live data ───────────────────────────────────────────────────────────────
    def live_files(self) -> dict[str, list[int]]:
        """Every data file present now: {relative path: [size, mtime_ns]}."""
        found: dict[str, list[int]] = {}
        for declared in self.data_files:
            for sidecar in ("", *SQLITE_SIDECARS):
                for rel in data_paths.files_under(self.app_dir, declared + sidecar):
                    st = (self.app_dir / rel).lstat()
                    found[rel] = [st.st_size, st.st_mtime_ns]
        return found

    def _owned(self, rel: str) -> bool:
        """Whether `rel` is data this app declared (so restore may replace or remove it)."""
        for declared in self.data_files:
            d = declared.rstrip("/")
            if rel == d or rel.startswith(d + "/") or any(rel == d + s for s in SQLITE_SIDECARS):
                return True
        return False

    # ── snapshots ───────────────────────────────────────────────────────────────────
    def manifest(self, n: int) -> dict | None:
        try:
            return json.loads((self.root / str(n) / MANIFEST).read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError):
            return None

    def _latest_before(self, n: int) -> int | None:
        if not self.root.is_dir():
            return None
        earlier = [int(p.name) for p in self.root.iterdir() if p.name.isdigit() and int(p.name) < n]
        return max(earlier, default=None)

    def _unchanged(self, rel: str, live_stat: list[int], n: int, manifest: dict) -> bool:
        """Whether the live file `rel` has the same bytes as its copy in snapshot n."""
        recorded = manifest["files"].get(rel)
        if recorded is None or recorded[0] != live_stat[0]:
            return False
        if recorded == live_stat and recorded[1] < manifest["taken_ns"] - RACY_NS:
            return True
        return filecmp.cmp(self.app_dir / rel, self.root / str(n) / "files" / rel, shallow=False)

    def take(self, n: int) -> None:
        """Keep the live data as snapshot n (nothing at all when the app declares no data)."""
        if not self.data_files:
            return
        taken_ns = time.time_ns()
        live = self.live_files()
        prev = self._latest_before(n)
        prev_manifest = self.manifest(prev) if prev is not None else None
        tmp = self.root / f".{n}.{os.getpid()}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        (tmp / "files").mkdir(parents=True)
        for rel, stat in live.items():
            dest = tmp / "files" / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            if prev is not None and prev_manifest and self._unchanged(rel, stat, prev, prev_manifest):
                try:
                    os.link(self.root / str(prev) / "files" / rel, dest)
                    continue
                except OSError:
                    pass  # a file system without hard links: copy instead
            shutil.copy2(self.app_dir / rel, dest)
        (tmp / MANIFEST).write_text(json.dumps({"taken_ns": taken_ns, "files": live}), encoding="utf-8")
        shutil.rmtree(self.root / str(n), ignore_errors=True)
        tmp.rename(self.root / str(n))

    def matches_live(self, n: int) -> bool:
        """Whether the live data has exactly the bytes of snapshot n."""
        manifest = self.manifest(n)
        if manifest is None:
            return not self.live_files()
        live = self.live_files()
        return set(live) == set(manifest["files"]) and all(
            self._unchanged(rel, stat, n, manifest) for rel, stat in live.items()
        )

    def restore(self, n: int) -> bool:
        """Make the live data exactly snapshot n: copy its files back, remove data it lacks.
        False when checkpoint n has no snapshot (the app declared no data then)."""
        manifest = self.manifest(n)
        if manifest is None:
            return False
        for rel in self.live_files():
            if rel not in manifest["files"] and self._owned(rel):
                (self.app_dir / rel).unlink()
        # A snapshot taken before data paths were confined may name a file elsewhere: left alone.
        for rel in [r for r in manifest["files"] if self._owned(r) and data_paths.inside(self.app_dir, r)]:
            dest = self.app_dir / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            tmp = dest.with_name(f".{dest.name}.macaron-restore")
            # A copy, never a link: the app will write to it.
            shutil.copy2(self.root / str(n) / "files" / rel, tmp)
            tmp.replace(dest)
        return True


def drop_holding(root: Path, texts: list[str], shortest: int) -> list[int]:
    """Remove each snapshot under `root` (.macaron/snapshots) a file of which still holds one
    of `texts` (their UTF-8 bytes, at least `shortest` long): a forgotten memory must not come
    back with `rollback --with-data`. Text files were scrubbed before (forgetting.py); what is
    left is a binary copy (a SQLite database) that cannot be edited in place. A rollback to
    that checkpoint then leaves the data as it is. The snapshots removed, by number."""
    needles = [t.encode("utf-8") for t in texts if len(t) >= shortest]
    if not needles or not root.is_dir():
        return []
    dropped = []
    for folder in sorted(p for p in root.iterdir() if p.name.isdigit() and p.is_dir() and not p.is_symlink()):
        if any(_holds(path, needles) for path in folder.rglob("*") if path.is_file() and not path.is_symlink()):
            shutil.rmtree(folder)
            dropped.append(int(folder.name))
    return dropped


def _holds(path: Path, needles: list[bytes]) -> bool:
    try:
        content = path.read_bytes()
    except OSError:
        return False
    return any(needle in content for needle in needles)
