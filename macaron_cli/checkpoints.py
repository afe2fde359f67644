"""Git checkpoints and rollback for an app repo. Every git operation macaron does is here
(git_plumbing.py runs the commands, git_refs.py reads the refs).

One class, `AppRepo`, so the promise "never lose the person's work" lives in one place:

- A checkpoint is a commit on the current branch plus a ref `refs/macaron/checkpoints/<n>`
  (its id is n). It captures the whole working tree as it is: tracked changes and every
  untracked, non-ignored file, however it was made (editor, shell, agent). Phase, test
  status and cost ride in commit trailers (`Macaron-Phase: build`).
- Rollback never rewrites history. It first saves the current state as a `pre-rollback`
  checkpoint (unless it is exactly a checkpoint already), then makes a new commit whose
  tree equals the target's. Every state stays reachable from a ref, and `undo()` is a
  rollback to the state before the last one. Git-ignored files are never overwritten.
- The person's data (the manifest's `data_files`, git-ignored) is snapshotted with each
  checkpoint under `.macaron/snapshots/<n>/`; only `with_data=True` restores it.

Speed: a repo may hold 10,000 files, so the work is git plumbing (`add -A`, `write-tree`,
`commit-tree`, `read-tree -m -u`, one `update-ref` transaction), never a per-file Python
loop. Refs are read from their files (git_refs.py), commits and trees through GitPython's one
long-lived `git cat-file`, so a checkpoint or a rollback starts only a handful of git
processes, whatever the number of files.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import Any

import git

from macaron_cli import git_refs
from macaron_cli.app_lock import app_lock
from macaron_cli.apps import APP_MANIFEST, PRIVATE_DIR, is_app
from macaron_cli.data_snapshots import SQLITE_SIDECARS, DataSnapshots
from macaron_cli.errors import UserError, WorkFailed
from macaron_cli.git_plumbing import FALLBACK_IDENTITY, GitFailed, Plumbing, fallback_identity_env, last_line

REFS = "refs/macaron/checkpoints/"
TRAILER = "Macaron-"
ZERO = "0" * 40
# `git gc --auto` (which only packs when git thinks it worth it) every this many checkpoints:
# git's own commands run it on every commit; macaron's plumbing never would.
GC_EVERY = 25
TREE_CACHE = 4096  # trees kept in memory per AppRepo
# Phases that restore an earlier state; `undo()` reverses the latest of them.
RESTORING = ("rollback", "undo")
# Someone else's operation is half done in these states; committing now would break it.
BUSY_STATES = {
    "MERGE_HEAD": "a merge",
    "rebase-merge": "a rebase",
    "rebase-apply": "a rebase (or `git am`)",
    "CHERRY_PICK_HEAD": "a cherry-pick",
    "REVERT_HEAD": "a revert",
}


class DamagedCheckpoint(UserError):
    """A checkpoint's ref or objects are broken: refused (exit 2) before anything changes."""

    def __init__(self, app: str, n: int, what: str):
        self.id, self.what = n, what
        super().__init__(
            f"checkpoint {n} of {app} is damaged ({what}); nothing was changed: your files are as "
            f"they were, and `macaron checkpoints {app}` lists the intact checkpoints."
        )


@dataclass
class Checkpoint:
    id: int
    phase: str
    message: str
    time: str
    tests: Any
    cost_usd: float | None
    commit: str
    tree: str
    # Other trailers, e.g. Rollback-To / Before / With-Data on rollback checkpoints.
    extra: dict[str, str] = field(default_factory=dict)
    # Counting changed files reads trees, so it happens on first use (listings), never on
    # the checkpoint and rollback paths that people wait for.
    count_files: Callable[[], int] | None = field(default=None, repr=False, compare=False)

    @cached_property
    def files_changed(self) -> int:
        """Files this checkpoint's commit changed against its parent."""
        return self.count_files() if self.count_files else 0

    @property
    def subject(self) -> str:
        """The message's first line."""
        return self.message.strip().splitlines()[0] if self.message.strip() else ""

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "phase": self.phase,
            "message": self.message,
            "time": self.time,
            "tests": self.tests,
            "cost_usd": self.cost_usd,
            "files_changed": self.files_changed,
            "commit": self.commit,
        }


@dataclass
class RollbackPlan:
    """What a rollback (or undo) would do; `dry_run=True` returns only this."""

    target: Checkpoint
    diffstat: str
    files_changed: int
    with_data: bool
    undo: bool = False
    # Git-ignored files in the way: the rollback itself would refuse until they move.
    blocked: list[str] = field(default_factory=list)


@dataclass
class RollbackResult:
    target: Checkpoint
    saved: Checkpoint | None  # the pre-rollback checkpoint, when there was anything to save
    checkpoint: Checkpoint  # the new commit whose tree is the target's
    with_data: bool
    data_restored: bool


class AppRepo:
    def __init__(self, path: Path, repo: git.Repo):
        self.path = path
        self.repo = repo
        self.git_dir = Path(repo.git_dir)
        self.private_dir = path / PRIVATE_DIR
        self.git = Plumbing(path, repo)
        self._identity_env = fallback_identity_env(repo)
        self._known: dict[str, Checkpoint] = {}  # commit → checkpoint
        self._trees: dict[str, dict] = {}  # tree → entries
        self.warnings: list[str] = []  # things the person should know, said by the commands

    # ── opening ─────────────────────────────────────────────────────────────────────
    @classmethod
    def open(cls, path) -> AppRepo:
        path = Path(path).expanduser().resolve()
        if not is_app(path):
            raise UserError(f"{path} is not a macaron app (it needs {APP_MANIFEST} in a git repo).")
        try:
            repo = git.Repo(path)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            raise UserError(f"{path} is not a usable git repo; check its .git folder.") from None
        if repo.working_tree_dir is None:
            raise UserError(f"{path} is a bare git repo (no working files); clone it and use the clone.")
        if Path(repo.working_tree_dir).resolve() != path:
            raise UserError(f"{path} is inside another git repo, not the root of its own; run `git init` there.")
        return cls(path, repo)

    @classmethod
    def init(cls, path) -> AppRepo:
        """Make `path` an app repo (idempotent): git init on branch main, ignore private
        state and the manifest's data files, and give it a committer if none is configured."""
        path = Path(path).expanduser().resolve()
        path.mkdir(parents=True, exist_ok=True)
        repo = git.Repo(path) if (path / ".git").exists() else git.Repo.init(path, initial_branch="main")
        app = cls(path, repo)
        if app._identity_env:
            with repo.config_writer("repository") as config:
                config.set_value("user", "name", FALLBACK_IDENTITY["name"])
                config.set_value("user", "email", FALLBACK_IDENTITY["email"])
            app._identity_env = {}
        app._ensure_lines(path / ".gitignore", app._ignore_lines())
        return app

    # ── locking and refusals ────────────────────────────────────────────────────────
    def lock(self):
        """Hold the app for this process (context manager); UserError if another holds it."""
        return app_lock(self.private_dir / "lock")

    def _check_state(self) -> None:
        """Refuse, before touching anything, when committing now could lose or break work."""
        for name, what in BUSY_STATES.items():
            if (self.git_dir / name).exists():
                raise UserError(f"{self.path.name} is in the middle of {what}; finish or abort it with git first.")
        if self.repo.head.is_detached:
            raise UserError(
                f"{self.path.name} has a detached HEAD; "
                "check out a branch first (`git switch -c NAME` keeps your commits)."
            )
        broken = self._branch_damage()
        if broken:
            branch, value = broken
            latest = max(self._refs().items(), default=None)
            fix = (
                f"point it at your latest checkpoint with `git -C {self.path} update-ref {branch} {latest[1]}`"
                if latest and _is_sha(latest[1])
                else f"repair {branch} with git"
            )
            raise UserError(
                f"{self.path.name}'s branch {branch} is damaged (it holds {value!r}, not a commit this repo has); "
                f"nothing was changed: your files are as they were and every checkpoint is kept; {fix}."
            )

    def _clear_stale_index_lock(self) -> None:
        """A git killed while it wrote the index (a rollback cut short) leaves .git/index.lock,
        and every later git command refuses to start. With the app held by this process
        (no other macaron is at work on it) and no git process in the repo, nothing can be
        writing that lock: it is removed, and the person told. Otherwise one line says how."""
        lock = self.git_dir / "index.lock"
        if not lock.exists():
            return
        if git_processes_in(self.path) != []:  # one is running, or it cannot be known here
            raise UserError(
                f"another git command is using {self.path.name} ({lock} exists); "
                f"wait for it, or delete {lock} if no git command is running."
            )
        lock.unlink(missing_ok=True)
        self.warnings.append(f"Removed {lock}, left by a git command that was stopped (none is running now)")

    def _branch_damage(self) -> tuple[str, str] | None:
        """(branch, what it holds) when HEAD's branch exists but names no commit here; None
        when it is fine or not born yet (a new repo: the first checkpoint makes it)."""
        try:
            _ = self.repo.head.commit.tree  # resolves the ref and reads the commit
            return None
        except (ValueError, OSError):
            pass
        branch = self.repo.head.reference.path
        held = git_refs.read(Path(self.repo.common_dir), branch)
        return (branch, held[:40]) if held is not None else None

    # ── checkpoints ─────────────────────────────────────────────────────────────────
    def checkpoint(self, phase: str, message: str, tests=None, cost_usd: float | None = None) -> Checkpoint:
        """Commit the whole working tree as it is now, as the next checkpoint."""
        if not message.strip():
            raise UserError("a checkpoint needs a message; say what this state is.")
        self._check_state()
        with self.lock():
            self._check_state()
            self._clear_stale_index_lock()
            tree = self._stage_all()
            n = max(self._refs(), default=0) + 1
            head = self.git.head_commit()
            made = self._commit(n, tree, head, message, _trailers(n, phase, tests=tests, cost_usd=cost_usd))
            self._update_refs(head, made)
            self._snapshots().take(n)
            if n % GC_EVERY == 0:
                self.git.run("gc", "--auto", "--quiet")
        return made

    def checkpoints(self) -> list[Checkpoint]:
        """Every intact checkpoint, oldest first; the damaged ones are named in `self.damaged`."""
        found = []
        self.damaged: dict[int, str] = {}
        for n, commit in sorted(self._refs().items()):
            try:
                found.append(self._load(n, commit))
            except DamagedCheckpoint as exc:
                self.damaged[n] = exc.what
        # One pass over every object the checkpoints need; only when something is missing
        # (rare) is each checked on its own, to say which.
        if found and self._missing(*{cp.tree for cp in found}):
            for cp in list(found):
                try:
                    self._check_complete(cp)
                except DamagedCheckpoint as exc:
                    found.remove(cp)
                    self.damaged[cp.id] = exc.what
        return found

    def _refs(self) -> dict[int, str]:
        """Checkpoint id → commit, read from the ref files themselves (no git process)."""
        return git_refs.numbered(Path(self.repo.common_dir), REFS)

    def _load(self, n: int, commit: str) -> Checkpoint:
        """A checkpoint from its commit (read through one long-lived `git cat-file`;
        commits never change, so each is read once per AppRepo)."""
        if commit not in self._known:
            ref = f"{REFS}{n}"
            if not _is_sha(commit):
                raise DamagedCheckpoint(self.path.name, n, f"{ref} holds {commit[:40]!r}, not a commit id")
            try:
                kind = self.repo.odb.info(bytes.fromhex(commit)).type
            except (ValueError, OSError):
                raise DamagedCheckpoint(
                    self.path.name, n, f"its commit {commit[:8]} is missing from .git/objects"
                ) from None
            if kind != b"commit":
                raise DamagedCheckpoint(self.path.name, n, f"{ref} names a {kind.decode()}, not a commit")
            try:
                obj = git.Commit(self.repo, bytes.fromhex(commit))
                text = obj.message if isinstance(obj.message, str) else obj.message.decode("utf-8", "replace")
                message, trailers = _split_trailers(text)
                parent = obj.parents[0].hexsha if obj.parents else None
                tree = obj.tree.hexsha
                when = obj.committed_datetime.isoformat()
            except (ValueError, OSError, TypeError):
                raise DamagedCheckpoint(self.path.name, n, f"its commit {commit[:8]} is unreadable") from None
            try:
                self.repo.odb.info(bytes.fromhex(tree))
            except (ValueError, OSError):
                raise DamagedCheckpoint(
                    self.path.name, n, f"its list of files, tree {tree[:8]}, is missing from .git/objects"
                ) from None
            self._known[commit] = self._checkpoint(n, commit, tree, parent, message, trailers, when)
        return self._known[commit]

    def _missing(self, *trees: str) -> list[str]:
        """The objects these trees need that the repo lacks."""
        listed = self.git.run("rev-list", "--objects", "--missing=print", *trees)
        return [line[1:] for line in listed.splitlines() if line.startswith("?")]

    def _check_complete(self, cp: Checkpoint, current_tree: str | None = None) -> None:
        """Every object checkpoint `cp`'s files need is in the repo, so a rollback to it cannot
        stop halfway for want of one. With `current_tree` (just staged, so whole) only what
        differs from it is looked up: the trees read on the way, the files in one
        `git cat-file --batch-check`; without it, everything, in one `git rev-list`."""
        if current_tree is None:
            missing = self._missing(cp.tree)
        else:
            try:
                wanted = list(_new_objects(self._entries, current_tree, cp.tree))
            except (ValueError, OSError):  # a folder's tree object is gone
                wanted, missing = [], ["a folder"]
            else:
                checked = self.git.run("cat-file", "--batch-check", stdin="\n".join(wanted).encode()) if wanted else ""
                missing = [line.split()[0] for line in checked.splitlines() if line.endswith(" missing")]
        if missing:
            raise DamagedCheckpoint(
                self.path.name,
                cp.id,
                f"{len(missing)} of its files or folders are missing from .git/objects, e.g. {missing[0][:8]}",
            )

    def _checkpoint(
        self, n: int, commit: str, tree: str, parent: str | None, message: str, trailers: dict[str, str], when: str
    ) -> Checkpoint:
        trailers = dict(trailers)

        def count() -> int:
            try:
                before = git.Commit(self.repo, bytes.fromhex(parent)).tree.hexsha if parent else None
                return sum(1 for _ in _diff_files(self._entries, before, tree))
            except (ValueError, OSError):  # a damaged parent: nothing to count against
                return 0

        return Checkpoint(
            id=n,
            phase=trailers.pop("Phase", "manual"),
            message=message,
            time=when,
            tests=_decode_tests(trailers.pop("Tests", None)),
            cost_usd=_float_or_none(trailers.pop("Cost-USD", None)),
            commit=commit,
            tree=tree,
            count_files=count,
            extra={k: v for k, v in trailers.items() if k != "Checkpoint"},
        )

    # ── rollback ────────────────────────────────────────────────────────────────────
    def rollback(
        self, to: int | None = None, steps: int | None = None, with_data: bool = False, dry_run: bool = False
    ) -> RollbackPlan | RollbackResult:
        """Return the working tree to checkpoint `to` (or `steps` checkpoints back).

        `steps` counts back from the current state: when it differs from the latest
        checkpoint, it is itself about to become a (pre-rollback) checkpoint and counts."""
        if (to is None) == (steps is None):
            raise UserError(
                f"say where to go: --to ID or --steps N (`macaron checkpoints {self.path.name}` lists the ids)."
            )
        if steps is not None and steps < 1:
            raise UserError("--steps must be 1 or more.")

        def chosen(refs: dict[int, str], saving: bool) -> tuple[int, bool]:
            return _pick_target(sorted(refs), to, steps, saving, self.path.name), with_data

        return self._restore(chosen, dry_run=dry_run, phase="rollback")

    def undo(self, dry_run: bool = False) -> RollbackPlan | RollbackResult:
        """Reverse the latest rollback (or undo): back to exactly the state before it,
        with the data too when that rollback restored data."""

        def before_last_restore(refs: dict[int, str], _saving: bool) -> tuple[int, bool]:
            for n in sorted(refs, reverse=True):
                last = self._load(n, refs[n])
                if last.phase in RESTORING:
                    before = int(last.extra.get("Before", "0"))
                    if before not in refs:
                        raise UserError(f"checkpoint {before}, the state before the last rollback, is gone.")
                    return before, last.extra.get("With-Data") == "yes"
            raise UserError("there is no rollback to undo.")

        return self._restore(before_last_restore, dry_run=dry_run, phase="undo")

    def _restore(self, choose, dry_run: bool, phase: str):
        self._check_state()
        if (self.git_dir / "index.lock").exists():  # even a plan stages into a copy of the index
            with self.lock():
                self._clear_stale_index_lock()
        if dry_run:
            return self._plan(choose, phase)
        with self.lock():
            self._check_state()
            self._clear_stale_index_lock()
            refs = self._refs()
            # Refuse a bad target before staging touches the index (the most lenient
            # reading of --steps here; the exact one needs the staged tree).
            _, with_data = choose(refs, True)
            with self.git.index_kept_on_refusal():
                current_tree = self._stage_all()
                head = self.git.head_commit()
                at_head = self._checkpoint_at(refs, head)
                saving = self._needs_save(at_head, current_tree, with_data)
                target_id, _ = choose(refs, saving)
                target = self._load(target_id, refs[target_id])
                self._check_complete(target, current_tree)
                blocked = self._ignored_in_the_way(current_tree, target.tree)
                if blocked:
                    shown = ", ".join(blocked[:3]) + (f" and {len(blocked) - 3} more" if len(blocked) > 3 else "")
                    raise UserError(
                        f"rolling back would overwrite git-ignored files ({shown}); move them away and retry."
                    )

            saved = None
            next_id = max(refs, default=0) + 1
            if saving:
                what = "undo" if phase == "undo" else f"rolling back to checkpoint {target.id}"
                saved = self._commit(
                    next_id, current_tree, head, f"Saved before {what}", _trailers(next_id, "pre-rollback")
                )
                # Referenced (by its checkpoint ref) before the working tree changes at all;
                # the branch moves once, at the end, past both commits.
                self._write_checkpoint_ref(saved)
                self._snapshots().take(saved.id)
                next_id += 1
            before = saved or at_head
            assert before is not None  # no save only when HEAD is a checkpoint (_needs_save)

            try:
                self._read_tree(current_tree, target.tree, before.id)
            except UserError:
                if saved:  # refused before changing a file: leave no trace
                    self._remove_checkpoint(saved)
                raise
            data_restored = with_data and self._snapshots().restore(target.id)

            label = "Undo: back to" if phase == "undo" else "Roll back to"
            extra = {
                "Rollback-To": str(target.id),
                "Before": str(before.id),
                **({"With-Data": "yes"} if with_data else {}),
            }
            made = self._commit(
                next_id,
                target.tree,
                before.commit,
                f"{label} checkpoint {target.id} ({target.phase}: {target.subject})",
                _trailers(next_id, phase, extra=extra),
            )
            self._update_refs(head, made)
            self._snapshots().take(next_id)
        return RollbackResult(
            target=target, saved=saved, checkpoint=made, with_data=with_data, data_restored=data_restored
        )

    def _plan(self, choose, phase: str) -> RollbackPlan:
        """The dry run: stage into a throw-away copy of the index, so nothing changes."""
        refs = self._refs()
        _, with_data = choose(refs, True)
        with self.git.scratch_index():
            current_tree = self._stage_all(scratch=True)
        at_head = self._checkpoint_at(refs, self.git.head_commit())
        target_id, _ = choose(refs, self._needs_save(at_head, current_tree, with_data))
        target = self._load(target_id, refs[target_id])
        self._check_complete(target, current_tree)
        stat = self.git.run("diff", "--stat", "--no-color", "--no-renames", current_tree, target.tree)
        return RollbackPlan(
            target=target,
            diffstat=stat,
            files_changed=_stat_files(stat),
            with_data=with_data,
            undo=phase == "undo",
            blocked=self._ignored_in_the_way(current_tree, target.tree),
        )

    def _entries(self, tree: str) -> dict[str, tuple[str, int, bool]]:
        """A tree's entries, {name: (id, mode, is a tree)}, each tree read once per AppRepo."""
        if tree not in self._trees:
            if len(self._trees) > TREE_CACHE:
                self._trees.clear()
            self._trees[tree] = _parse_tree(self.repo.odb.stream(bytes.fromhex(tree)).read())
        return self._trees[tree]

    def _ignored_in_the_way(self, current_tree: str, target_tree: str) -> list[str]:
        """Git-ignored files that moving to `target_tree` would overwrite or delete.

        git treats ignored files as expendable; a person's ignored `.env` or notes are not.
        Everything not ignored is in `current_tree` (just staged), so a path the target
        adds that already exists on disk, or a file in the way of a folder it adds, can
        only be ignored."""
        changes = list(_diff_files(self._entries, current_tree, target_tree))
        leaving = {path for path, was, will in changes if was and not will}
        blocked: list[str] = []
        for path, was, will in changes:
            if was or not will:
                continue
            parts = path.split("/")
            parents = ("/".join(parts[:i]) for i in range(1, len(parts)))
            in_the_way = next((q for q in parents if (self.path / q).is_symlink() or (self.path / q).is_file()), None)
            if in_the_way is not None:
                blocked += [] if in_the_way in leaving else [in_the_way]
            elif (self.path / path).is_dir() and not (self.path / path).is_symlink():
                for root, _dirs, files in os.walk(self.path / path):
                    rel = Path(root).relative_to(self.path).as_posix()
                    blocked += [f"{rel}/{f}" for f in files if f"{rel}/{f}" not in leaving]
            elif os.path.lexists(self.path / path):
                blocked.append(path)
        return sorted(set(blocked))

    def _needs_save(self, at_head: Checkpoint | None, current_tree: str, with_data: bool) -> bool:
        """Whether the state now is anything but exactly an existing checkpoint."""
        if at_head is None or at_head.tree != current_tree:
            return True
        return with_data and not self._snapshots().matches_live(at_head.id)

    def _checkpoint_at(self, refs: dict[int, str], commit: str | None) -> Checkpoint | None:
        """The (latest) checkpoint whose commit is `commit`, if any."""
        n = max((n for n, c in refs.items() if c == commit), default=None)
        return self._load(n, refs[n]) if n is not None else None

    # ── git plumbing ────────────────────────────────────────────────────────────────
    def _stage_all(self, scratch: bool = False) -> str:
        """Stage everything (tracked changes, deletions, untracked non-ignored files); the tree id."""
        if not scratch:
            # The person's data never goes into git, even if the app's .gitignore forgot it.
            self._ensure_lines(Path(self.repo.common_dir) / "info" / "exclude", self._ignore_lines())
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
        self.warnings += [
            f"{p.strip()} is a git repo inside the app, so its files are not in checkpoints "
            f"(remove {p.strip()}/.git to include them)"
            for p in nested
        ]
        return self.git.run("write-tree")

    def _commit(self, n: int, tree: str, parent: str | None, message: str, trailers: dict[str, str]) -> Checkpoint:
        """Write checkpoint n's commit object (no ref yet). Its date is set here, so the
        Checkpoint is known without reading the commit back."""
        now = datetime.now().astimezone()
        stamp = f"{int(now.timestamp())} {now.strftime('%z')}"
        body = message.strip() + "\n\n" + "".join(f"{TRAILER}{k}: {v}\n" for k, v in trailers.items())
        env = {**self._identity_env, "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
        args = ["commit-tree", "--no-gpg-sign", *(["-p", parent] if parent else []), tree]
        commit = self.git.run(*args, stdin=body.encode("utf-8"), env=env)
        made = self._checkpoint(
            n, commit, tree, parent, message.strip(), trailers, now.replace(microsecond=0).isoformat()
        )
        self._known[commit] = made
        return made

    def _update_refs(self, old_head: str | None, made: Checkpoint) -> None:
        """Move the branch to `made` and create its checkpoint ref, all or nothing; the
        old value guards against anyone having moved the branch meanwhile."""
        lines = f"update HEAD {made.commit} {old_head or ZERO}\ncreate {REFS}{made.id} {made.commit}\n"
        self.git.run(
            "update-ref", "-m", f"macaron: checkpoint {made.id} ({made.phase})", "--stdin", stdin=lines.encode()
        )

    def _write_checkpoint_ref(self, cp: Checkpoint) -> None:
        """Create a checkpoint ref without a git process: a new loose ref file, written
        the way git does (lock file, then rename). Only ids nobody has used get here."""
        path = Path(self.repo.common_dir) / REFS / str(cp.id)
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = path.with_name(path.name + ".lock")
        with open(lock, "x", encoding="utf-8") as fh:
            fh.write(cp.commit + "\n")
        os.replace(lock, path)

    def _remove_checkpoint(self, cp: Checkpoint) -> None:
        (Path(self.repo.common_dir) / REFS / str(cp.id)).unlink(missing_ok=True)
        shutil.rmtree(self.private_dir / "snapshots" / str(cp.id), ignore_errors=True)

    def _read_tree(self, current_tree: str, target_tree: str, saved_in: int) -> None:
        """Make index and working tree `target_tree`: a two-tree merge from the fully
        staged current tree, which updates only the files that differ and refuses,
        before changing any file, rather than overwrite a git-ignored one."""
        try:
            self.git.run("read-tree", "-m", "-u", current_tree, target_tree)
        except GitFailed as exc:
            # git checks every path before it writes any: these mean nothing was changed.
            if "would be overwritten" in exc.stderr or "would lose untracked" in exc.stderr:
                raise UserError(
                    f"rolling back would overwrite git-ignored files ({last_line(exc.stderr)}); "
                    "move them away and retry."
                ) from None
            raise WorkFailed(
                f"rollback stopped halfway ({last_line(exc.stderr)}); your work is safe in checkpoint {saved_in}."
            ) from None

    # ── data, ignores, identity ─────────────────────────────────────────────────────
    def data_files(self) -> list[str]:
        try:
            manifest = json.loads((self.path / APP_MANIFEST).read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError, UnicodeDecodeError):
            return []
        files = manifest.get("data_files") or []
        return [str(f).strip("/") for f in files if isinstance(f, str) and f.strip("/")]

    def _snapshots(self) -> DataSnapshots:
        return DataSnapshots(self.path, self.data_files(), self.private_dir / "snapshots")

    def _ignore_lines(self) -> list[str]:
        lines = [f"/{PRIVATE_DIR}/"]
        for f in self.data_files():
            lines += [f"/{f}", *(f"/{f}{s}" for s in SQLITE_SIDECARS)]
        return lines

    @staticmethod
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


# ── commit messages ─────────────────────────────────────────────────────────────────────
def git_processes_in(path: Path) -> list[int] | None:
    """Pids of git processes working in `path` (their working folder is in it), or None
    where that cannot be known (no /proc, as on macOS). A git process whose folder cannot
    be read (another user's) counts as one in `path`: clearing its lock would be unsafe."""
    proc = Path("/proc")
    if not (proc / "self" / "cwd").exists():
        return None
    found = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if not (entry / "comm").read_text().strip().startswith("git"):
                continue
            # GitPython's own readers (`git cat-file --batch`), children of this process
            if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == os.getpid():
                continue
        except (OSError, ValueError, IndexError):  # the process ended meanwhile
            continue
        try:
            cwd = Path(os.readlink(entry / "cwd"))
        except FileNotFoundError:
            continue
        except OSError:
            found.append(int(entry.name))
            continue
        if cwd == path or path in cwd.parents:
            found.append(int(entry.name))
    return found


def _trailers(n: int, phase: str, tests=None, cost_usd=None, extra: dict | None = None) -> dict[str, str]:
    trailers = {"Checkpoint": str(n), "Phase": phase}
    if tests is not None:
        trailers["Tests"] = tests if isinstance(tests, str) else json.dumps(tests, separators=(",", ":"))
    if cost_usd is not None:
        trailers["Cost-USD"] = f"{float(cost_usd):.6f}".rstrip("0").rstrip(".")
    trailers.update(extra or {})
    return trailers


def _split_trailers(contents: str) -> tuple[str, dict[str, str]]:
    text = contents.strip()
    body, _, last = text.rpartition("\n\n")
    lines = last.splitlines()
    if not lines or not all(line.startswith(TRAILER) and ": " in line for line in lines):
        return text, {}
    trailers = dict(line[len(TRAILER) :].split(": ", 1) for line in lines)
    return body.strip(), trailers


def _decode_tests(value: str | None):
    if value is None:
        return None
    if value[:1] in "{[":
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            pass
    return value


def _float_or_none(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _is_sha(value: str) -> bool:
    return re.fullmatch(r"[0-9a-f]{40}", value) is not None


def _parse_tree(data: bytes) -> dict[str, tuple[str, int, bool]]:
    """A raw git tree object as {name: (id, mode, is a tree)}. Parsed here rather than by
    GitPython's Tree, which cannot list a nested repo's link without a .gitmodules."""
    entries, i = {}, 0
    while i < len(data):
        space = data.index(b" ", i)
        nul = data.index(b"\0", space)
        mode = int(data[i:space], 8)
        name = data[space + 1 : nul].decode("utf-8", "surrogateescape")
        entries[name] = (data[nul + 1 : nul + 21].hex(), mode, mode == 0o40000)
        i = nul + 21
    return entries


def _diff_files(entries, a: str | None, b: str | None, prefix: str = ""):
    """(path, in a, in b) for every file that differs between trees a and b, as
    `git diff -r --name-only` lists them, walking only into subtrees whose ids differ,
    so a small change in a big repo reads few trees. `entries(tree)` lists a tree."""
    left = entries(a) if a else {}
    right = entries(b) if b else {}
    for name in sorted(left.keys() | right.keys()):
        x, y = left.get(name), right.get(name)
        if x == y:
            continue
        xt, yt = (o[0] if o and o[2] else None for o in (x, y))
        xf, yf = (o if o and not o[2] else None for o in (x, y))
        if xt or yt:
            yield from _diff_files(entries, xt, yt, f"{prefix}{name}/")
        if (xf or yf) and xf != yf:
            yield f"{prefix}{name}", xf is not None, yf is not None


def _new_objects(entries, a: str | None, b: str):
    """The ids of the files in tree b that tree a lacks, walking (and so reading) only the
    subtrees whose ids differ. A nested repo's commit link is not an object of this repo."""
    left = entries(a) if a else {}
    for name, entry in entries(b).items():
        if left.get(name) == entry or entry[1] == 0o160000:
            continue
        if entry[2]:
            other = left.get(name)
            yield from _new_objects(entries, other[0] if other and other[2] else None, entry[0])
        else:
            yield entry[0]


def _stat_files(diffstat: str) -> int:
    """The file count from `git diff --stat`'s summary line (0 when there is none)."""
    found = re.search(r"(\d+) files? changed", diffstat.rsplit("\n", 1)[-1])
    return int(found.group(1)) if found else 0


def _pick_target(ids: list[int], to: int | None, steps: int | None, saving: bool, app: str) -> int:
    if to is not None:
        if to not in ids:
            known = f"{ids[0]}–{ids[-1]}" if ids else "none yet"
            raise UserError(f"no checkpoint {to} ({app} has {known}); `macaron checkpoints {app}` lists them.")
        return to
    assert steps is not None  # rollback() takes exactly one of `to` and `steps`
    # The current state, when it is not a checkpoint yet, is about to become one.
    back = steps - 1 if saving else steps
    if back >= len(ids):
        raise UserError(f"cannot go back {steps} checkpoint(s): there are only {len(ids)}.")
    return ids[-1 - back]
