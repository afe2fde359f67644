"""Making a checkpoint: stage the whole working tree, write its commit (trailers and date
set here), then move the branch and create its ref in one `update-ref` transaction.

A checkpoint captures every tracked change and untracked, non-ignored file, however it
was made (editor, shell, agent); the person's data never goes into git."""

from __future__ import annotations

import os
import shutil
from datetime import datetime
from pathlib import Path

import git

from macaron_cli.checkpoints.app_files import AppFiles
from macaron_cli.checkpoints.history import History
from macaron_cli.checkpoints.records import REFS, Checkpoint, commit_message, trailers_for
from macaron_cli.git_plumbing import Plumbing

ZERO = "0" * 40
# `git gc --auto` (which only packs when git thinks it worth it) every this many checkpoints:
# git's own commands run it on every commit; macaron's plumbing never would.
GC_EVERY = 25


class Making:
    def __init__(
        self, repo: git.Repo, plumbing: Plumbing, history: History, files: AppFiles, warnings: list[str]
    ) -> None:
        self.repo = repo
        self.git = plumbing
        self.history = history
        self.files = files
        self.common_dir = Path(repo.common_dir)
        self._warnings = warnings

    def checkpoint(self, phase: str, message: str, tests=None, cost_usd: float | None = None) -> Checkpoint:
        """The next checkpoint, of the working tree as it is now (the app held, state checked)."""
        tree = self.stage_all()
        n = max(self.history.refs(), default=0) + 1
        head = self.git.head_commit()
        made = self.commit(n, tree, head, message, trailers_for(n, phase, tests=tests, cost_usd=cost_usd))
        self.update_refs(head, made)
        self.files.snapshots().take(n)
        if n % GC_EVERY == 0:
            self.git.run("gc", "--auto", "--quiet")
        return made

    def stage_all(self, scratch: bool = False) -> str:
        """Stage everything (tracked changes, deletions, untracked non-ignored files); the tree id."""
        if not scratch:
            # The person's data never goes into git, even if the app's .gitignore forgot it.
            self.files.keep_out_of_git(self.common_dir / "info" / "exclude")
        # Every git run first moves a nested repository's metadata out of the app
        # (untrusted/git.py), so its folder is plain files now; a link to its commit that an
        # earlier checkpoint recorded (mode 160000) is replaced by those files: no gitlink
        # lands in a checkpoint, and the person's own `git status` never enters one.
        self.git.run("add", "-A", "--", ".")
        links = [
            entry.split("\t", 1)[1]
            for entry in self.git.run("ls-files", "-s", "-z", strip=False).split("\0")
            if entry.startswith("160000 ")
        ]
        if links:
            self.git.run("rm", "-r", "-q", "--cached", "--", *links)
            self.git.run("add", "-A", "--", *links)
        return self.git.run("write-tree")

    def commit(self, n: int, tree: str, parent: str | None, message: str, trailers: dict[str, str]) -> Checkpoint:
        """Write checkpoint n's commit object (no ref yet). Its date is set here, so the
        Checkpoint is known without reading the commit back."""
        now = datetime.now().astimezone()
        stamp = f"{int(now.timestamp())} {now.strftime('%z')}"
        env = {"GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
        args = ["commit-tree", "--no-gpg-sign", *(["-p", parent] if parent else []), tree]
        commit = self.git.run(*args, stdin=commit_message(message, trailers).encode("utf-8"), env=env)
        when = now.replace(microsecond=0).isoformat()
        return self.history.remember(n, commit, tree, parent, message.strip(), trailers, when)

    def update_refs(self, old_head: str | None, made: Checkpoint) -> None:
        """Move the branch to `made` and create its checkpoint ref, all or nothing; the
        old value guards against anyone having moved the branch meanwhile."""
        lines = f"update HEAD {made.commit} {old_head or ZERO}\ncreate {REFS}{made.id} {made.commit}\n"
        self.git.run(
            "update-ref", "-m", f"macaron: checkpoint {made.id} ({made.phase})", "--stdin", stdin=lines.encode()
        )

    def write_ref(self, cp: Checkpoint) -> None:
        """Create a checkpoint ref without a git process: a new loose ref file, written
        the way git does (lock file, then rename). Only ids nobody has used get here."""
        path = self.common_dir / REFS / str(cp.id)
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = path.with_name(path.name + ".lock")
        with open(lock, "x", encoding="utf-8") as fh:
            fh.write(cp.commit + "\n")
        os.replace(lock, path)

    def remove(self, cp: Checkpoint) -> None:
        """Take back a checkpoint nothing else refers to yet: its ref and its data snapshot."""
        (self.common_dir / REFS / str(cp.id)).unlink(missing_ok=True)
        shutil.rmtree(self.files.snapshot_root / str(cp.id), ignore_errors=True)
