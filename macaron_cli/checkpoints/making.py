"""Making a checkpoint: stage the whole working tree, write its commit (trailers and date
set here), then move the branch and create its ref in one `update-ref` transaction.

A checkpoint captures every tracked change and untracked, non-ignored file, however it
was made (editor, shell, agent); the person's data never goes into git."""

from __future__ import annotations

import os
import re
import shutil
from datetime import datetime
from pathlib import Path

import git

from macaron_cli.checkpoints.app_files import AppFiles
from macaron_cli.checkpoints.history import History
from macaron_cli.checkpoints.records import REFS, Checkpoint, commit_message, trailers_for
from macaron_cli.git_plumbing import GitFailed, Plumbing, fallback_identity_env

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
        self._identity_env = fallback_identity_env(repo)

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
        # A folder that is a git repo of its own is kept as a link to its commit, not as
        # files, and one with no commit yet makes `git add` fail outright: leave such
        # folders out and say so, rather than lose the checkpoint or pretend they are safe.
        skipped: list[str] = []
        while True:
            try:
                _, stderr = self.git.run("add", "-A", "--", ".", *(f":(exclude){p}" for p in skipped), with_stderr=True)
                break
            except GitFailed as exc:
                empty = [
                    p
                    for p in re.findall(r"error: '(.+?)/?' does not have a commit checked out", exc.stderr)
                    if p not in skipped
                ]
                if not empty:
                    raise
                skipped += empty
        nested = skipped + re.findall(r"adding embedded git repository: (.+)", stderr)
        self._warnings += [
            f"{p.strip()} is a git repo inside the app, so its files are not in checkpoints "
            f"(remove {p.strip()}/.git to include them)"
            for p in nested
        ]
        return self.git.run("write-tree")

    def commit(self, n: int, tree: str, parent: str | None, message: str, trailers: dict[str, str]) -> Checkpoint:
        """Write checkpoint n's commit object (no ref yet). Its date is set here, so the
        Checkpoint is known without reading the commit back."""
        now = datetime.now().astimezone()
        stamp = f"{int(now.timestamp())} {now.strftime('%z')}"
        env = {**self._identity_env, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
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
