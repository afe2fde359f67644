"""The checkpoints as their refs and commits record them, and whether each is whole: a
damaged ref, commit or missing object is named (DamagedCheckpoint), never followed.

Refs are read from their files (git_refs.py); commits through GitPython's one long-lived
`git cat-file`, each once per AppRepo (commits never change)."""

from __future__ import annotations

from pathlib import Path

import git

from macaron_cli import git_refs
from macaron_cli.checkpoints.records import REFS, Checkpoint, DamagedCheckpoint, from_commit, is_sha, split_trailers
from macaron_cli.checkpoints.trees import Trees, new_objects
from macaron_cli.git_plumbing import Plumbing


class History:
    def __init__(self, path: Path, repo: git.Repo, plumbing: Plumbing, trees: Trees):
        self.path = path
        self.repo = repo
        self.git = plumbing
        self.trees = trees
        self._known: dict[str, Checkpoint] = {}  # commit → checkpoint

    def refs(self) -> dict[int, str]:
        """Checkpoint id → commit, read from the ref files themselves (no git process)."""
        return git_refs.numbered(Path(self.repo.common_dir), REFS)

    def intact(self) -> tuple[list[Checkpoint], dict[int, str]]:
        """Every intact checkpoint, oldest first, and what is wrong with each damaged one."""
        found, damaged = [], {}
        for n, commit in sorted(self.refs().items()):
            try:
                found.append(self.load(n, commit))
            except DamagedCheckpoint as exc:
                damaged[n] = exc.what
        # One pass over every object the checkpoints need; only when something is missing
        # (rare) is each checked on its own, to say which.
        if found and self._missing(*{cp.tree for cp in found}):
            for cp in list(found):
                try:
                    self.check_complete(cp)
                except DamagedCheckpoint as exc:
                    found.remove(cp)
                    damaged[cp.id] = exc.what
        return found, damaged

    def load(self, n: int, commit: str) -> Checkpoint:
        """Checkpoint n from its commit; DamagedCheckpoint when the ref or commit is broken."""
        if commit not in self._known:
            ref = f"{REFS}{n}"
            if not is_sha(commit):
                raise self._damaged(n, f"{ref} holds {commit[:40]!r}, not a commit id")
            try:
                kind = self.repo.odb.info(bytes.fromhex(commit)).type
            except (ValueError, OSError):
                raise self._damaged(n, f"its commit {commit[:8]} is missing from .git/objects") from None
            if kind != b"commit":
                raise self._damaged(n, f"{ref} names a {kind.decode()}, not a commit")
            try:
                obj = git.Commit(self.repo, bytes.fromhex(commit))
                text = obj.message if isinstance(obj.message, str) else obj.message.decode("utf-8", "replace")
                message, trailers = split_trailers(text)
                parent = obj.parents[0].hexsha if obj.parents else None
                tree = obj.tree.hexsha
                when = obj.committed_datetime.isoformat()
            except (ValueError, OSError, TypeError):
                raise self._damaged(n, f"its commit {commit[:8]} is unreadable") from None
            try:
                self.repo.odb.info(bytes.fromhex(tree))
            except (ValueError, OSError):
                raise self._damaged(n, f"its list of files, tree {tree[:8]}, is missing from .git/objects") from None
            self.remember(n, commit, tree, parent, message, trailers, when)
        return self._known[commit]

    def remember(
        self, n: int, commit: str, tree: str, parent: str | None, message: str, trailers: dict[str, str], when: str
    ) -> Checkpoint:
        """Checkpoint n, known from its commit's parts (just written, or just read)."""
        made = from_commit(n, commit, tree, message, trailers, when, lambda: self.trees.changed_since(parent, tree))
        self._known[commit] = made
        return made

    def at(self, refs: dict[int, str], commit: str | None) -> Checkpoint | None:
        """The (latest) checkpoint whose commit is `commit`, if any."""
        n = max((n for n, c in refs.items() if c == commit), default=None)
        return self.load(n, refs[n]) if n is not None else None

    def check_complete(self, cp: Checkpoint, current_tree: str | None = None) -> None:
        """Every object checkpoint `cp`'s files need is in the repo, so a rollback to it cannot
        stop halfway for want of one. With `current_tree` (just staged, so whole) only what
        differs from it is looked up: the trees read on the way, the files in one
        `git cat-file --batch-check`; without it, everything, in one `git rev-list`."""
        if current_tree is None:
            missing = self._missing(cp.tree)
        else:
            try:
                wanted = list(new_objects(self.trees.entries, current_tree, cp.tree))
            except (ValueError, OSError):  # a folder's tree object is gone
                wanted, missing = [], ["a folder"]
            else:
                checked = self.git.run("cat-file", "--batch-check", stdin="\n".join(wanted).encode()) if wanted else ""
                missing = [line.split()[0] for line in checked.splitlines() if line.endswith(" missing")]
        if missing:
            raise self._damaged(
                cp.id, f"{len(missing)} of its files or folders are missing from .git/objects, e.g. {missing[0][:8]}"
            )

    def _missing(self, *trees: str) -> list[str]:
        """The objects these trees need that the repo lacks."""
        listed = self.git.run("rev-list", "--objects", "--missing=print", *trees)
        return [line[1:] for line in listed.splitlines() if line.startswith("?")]

    def _damaged(self, n: int, what: str) -> DamagedCheckpoint:
        return DamagedCheckpoint(self.path.name, n, what)
