"""The app's files that git must never hold: macaron's private folder and the person's data
(the `data_files` macaron pinned from its template, with their SQLite sidecars), which is snapshotted with each
checkpoint instead."""

from __future__ import annotations

from pathlib import Path

from macaron_cli.apps import PRIVATE_DIR, pinned
from macaron_cli.data_snapshots import SQLITE_SIDECARS, DataSnapshots
from macaron_cli.untrusted import data_paths


class AppFiles:
    def __init__(self, path: Path):
        self.path = path
        self.snapshot_root = path / PRIVATE_DIR / "snapshots"

    def data_files(self) -> list[str]:
        """The person's data files, as macaron pinned them when the app was made (never what
        the app's own macaron.json says: the coder may have written it), inside data/."""
        return data_paths.declared(pinned(self.path).data_files)

    def snapshots(self) -> DataSnapshots:
        return DataSnapshots(self.path, self.data_files(), self.snapshot_root)

    def keep_out_of_git(self, ignore_file: Path) -> None:
        """Name the private folder and the data files in `ignore_file` (a .gitignore or
        .git/info/exclude), appending only the lines it lacks."""
        lines = [f"/{PRIVATE_DIR}/"]
        for f in self.data_files():
            lines += [f"/{f}", *(f"/{f}{s}" for s in SQLITE_SIDECARS)]
        _ensure_lines(ignore_file, lines)


def _ensure_lines(path: Path, lines: list[str]) -> None:
    """Append the lines `path` lacks (written only when something is missing)."""
    existing = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    missing = [line for line in lines if line not in existing]
    if not missing:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    prefix = "" if not existing or path.read_text(encoding="utf-8").endswith("\n") else "\n"
    with path.open("a", encoding="utf-8") as fh:
        fh.write(prefix + "\n".join(missing) + "\n")
