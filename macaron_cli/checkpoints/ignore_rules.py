"""What a checkpoint's own ignore rules say, and what moving to it leaves on disk.

Rollback moves between two trees whose .gitignore files differ. A file the target
neither holds nor would track (its rules ignore it: a `node_modules/` ignored only from
that checkpoint on) is the person's, as an ignored file always is, so it stays on disk;
and an ignored file on disk that the target holds byte for byte is not in the way. What
the target ignores is decided by real git, reading the target's .gitignore files (written
out to a scratch folder, since `git check-ignore` reads rules only from a work tree) and
the app's info/exclude."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from macaron_cli.checkpoints.trees import Entries
from macaron_cli.errors import WorkFailed
from macaron_cli.untrusted import git as untrusted_git

REGULAR = (0o100644, 0o100755)
EXECUTABLE = 0o100755
Blobs = Callable[[str], bytes]  # a blob's bytes by its id


def lookup(entries: Entries, tree: str, path: str) -> tuple[str, int, bool] | None:
    """The entry at `path` (a/b/c) in `tree`, or None."""
    *folders, name = path.split("/")
    for folder in folders:
        found = entries(tree).get(folder)
        if not found or not found[2]:
            return None
        tree = found[0]
    return entries(tree).get(name)


def ignored_under(app: Path, entries: Entries, read_blob: Blobs, tree: str, paths: list[str]) -> set[str]:
    """The `paths` that `tree`'s .gitignore files (and the app's info/exclude) ignore."""
    if not paths:
        return set()
    folders = {str(parent) for p in paths for parent in PurePosixPath(p).parents}
    with tempfile.TemporaryDirectory(prefix="macaron-ignore-rules-") as rules:
        for folder in folders:
            rel = ".gitignore" if folder == "." else f"{folder}/.gitignore"
            entry = lookup(entries, tree, rel)
            if entry and entry[1] in REGULAR:  # git reads no .gitignore that is a link
                (Path(rules) / rel).parent.mkdir(parents=True, exist_ok=True)
                (Path(rules) / rel).write_bytes(read_blob(entry[0]))
        done = untrusted_git.run(
            app,
            "check-ignore",
            "--no-index",
            "-z",
            "--stdin",
            input=b"\0".join(p.encode("utf-8", "surrogateescape") for p in paths) + b"\0",
            env={"GIT_WORK_TREE": rules},
            capture_output=True,
            check=False,
        )
    if done.returncode not in (0, 1):  # 1: none of them is ignored
        raise WorkFailed(f"git check-ignore failed: {done.stderr.decode(errors='replace').strip()}")
    return {p.decode("utf-8", "surrogateescape") for p in done.stdout.split(b"\0") if p}


def same_on_disk(app: Path, rel: str, entry: tuple[str, int, bool] | None, read_blob: Blobs) -> bool:
    """Whether `rel` in `app` is a plain file (reached through no link) that is exactly
    this tree entry: its bytes and its executable bit."""
    if entry is None or entry[1] not in REGULAR:
        return False
    steps = [app / PurePosixPath(*PurePosixPath(rel).parts[: i + 1]) for i in range(len(PurePosixPath(rel).parts))]
    if any(step.is_symlink() for step in steps) or not steps[-1].is_file():
        return False
    executable = bool(steps[-1].stat().st_mode & 0o100)
    return executable == (entry[1] == EXECUTABLE) and steps[-1].read_bytes() == read_blob(entry[0])
