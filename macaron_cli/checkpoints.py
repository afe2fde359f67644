"""Git checkpoints and rollback for an app repo. Every git operation macaron does is here.

One class, `AppRepo`, so the promise "never lose the person's work" lives in one place:

- A checkpoint is a commit on the current branch plus a ref `refs/macaron/checkpoints/<n>`
  (its id is n). It captures the whole working tree as it is: tracked changes and every
  untracked, non-ignored file, however it was made (editor, shell, agent). Phase, test
  status and cost ride in commit trailers (`Macaron-Phase: build`).
- Rollback never rewrites history. It first saves the current state as a `pre-rollback`
  checkpoint, then makes a new commit whose tree equals the target's. So every state stays
  reachable from a ref, and `undo()` is just a rollback to the state before the last one.
- The person's data (the manifest's `data_files`, git-ignored) is snapshotted with each
  checkpoint under `.macaron/snapshots/<n>/`; only `with_data=True` restores it.

Speed: a repo may hold 10,000 files, so everything goes through git plumbing (`add -A`,
`write-tree`, `commit-tree`, `read-tree -m -u`, one `update-ref` transaction), never a
per-file Python loop; refs are read by GitPython without starting a process.
"""

from __future__ import annotations

import json
import os
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import git

from macaron_cli.apps import APP_MANIFEST, PRIVATE_DIR, is_app
from macaron_cli.app_lock import app_lock
from macaron_cli.data_snapshots import SQLITE_SIDECARS, DataSnapshots
from macaron_cli.errors import UserError, WorkFailed

REFS = "refs/macaron/checkpoints/"
TRAILER = "Macaron-"
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
ZERO = "0" * 40
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
# Used only when the person has no git identity at all (CI runs as root without one).
FALLBACK_IDENTITY = {"name": "macaron", "email": "macaron@localhost"}


@dataclass
class Checkpoint:
    id: int
    phase: str
    message: str
    time: str
    tests: Any
    cost_usd: float | None
    files_changed: int
    commit: str
    tree: str = ""
    # Other trailers, e.g. Rollback-To / Before / With-Data on rollback checkpoints.
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def subject(self) -> str:
        """The message's first line."""
        return self.message.strip().splitlines()[0] if self.message.strip() else ""

    def to_json(self) -> dict:
        return {
            "id": self.id, "phase": self.phase, "message": self.message, "time": self.time,
            "tests": self.tests, "cost_usd": self.cost_usd,
            "files_changed": self.files_changed, "commit": self.commit,
        }


@dataclass
class RollbackPlan:
    """What a rollback (or undo) would do; `dry_run=True` returns only this."""

    target: Checkpoint
    diffstat: str
    files_changed: int
    with_data: bool
    undo: bool = False


@dataclass
class RollbackResult:
    plan: RollbackPlan
    saved: Checkpoint | None  # the pre-rollback checkpoint, when there was anything to save
    checkpoint: Checkpoint  # the new commit whose tree is the target's
    data_restored: bool


class AppRepo:
    def __init__(self, path: Path, repo: git.Repo):
        self.path = path
        self.repo = repo
        self.git_dir = Path(repo.git_dir)
        self.private_dir = path / PRIVATE_DIR
        self._identity_env = self._fallback_identity_env()

    # ── opening ─────────────────────────────────────────────────────────────────────
    @classmethod
    def open(cls, path) -> "AppRepo":
        path = Path(path).expanduser().resolve()
        if not is_app(path):
            raise UserError(f"{path} is not a macaron app (it needs {APP_MANIFEST} in a git repo).")
        try:
            repo = git.Repo(path)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            raise UserError(f"{path} is not a usable git repo; check its .git folder.") from None
        if Path(repo.working_tree_dir).resolve() != path:
            raise UserError(f"{path} is inside another git repo, not the root of its own; run `git init` there.")
        return cls(path, repo)

    @classmethod
    def init(cls, path) -> "AppRepo":
        """Make `path` an app repo (idempotent): git init on branch main, ignore private
        state and the manifest's data files, and give it a committer if none is configured."""
        path = Path(path).expanduser().resolve()
        path.mkdir(parents=True, exist_ok=True)
        if (path / ".git").exists():
            repo = git.Repo(path)
        else:
            repo = git.Repo.init(path, initial_branch="main")
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
                f"{self.path.name} has a detached HEAD; check out a branch first (`git switch -c NAME` keeps your commits)."
            )

    # ── checkpoints ─────────────────────────────────────────────────────────────────
    def checkpoint(self, phase: str, message: str, tests=None, cost_usd: float | None = None) -> Checkpoint:
        """Commit the whole working tree as it is now, as the next checkpoint."""
        if not message.strip():
            raise UserError("a checkpoint needs a message; say what this state is.")
        self._check_state()
        with self.lock():
            self._check_state()
            tree = self._stage_all()
            n = self._next_id()
            trailers = _trailers(n, phase, tests=tests, cost_usd=cost_usd)
            head = self._head_commit()
            commit = self._commit_tree(tree, [head] if head else [], message, trailers)
            self._update_refs(head, commit, {n: commit}, f"macaron: checkpoint {n} ({phase})")
            self._snapshots().take(n)
        return self._one(n)

    def checkpoints(self) -> list[Checkpoint]:
        """Every checkpoint, oldest first (one for-each-ref and one diff-tree, however many)."""
        fmt = "%(refname:lstrip=3)%00%(objectname)%00%(tree)%00%(parent)%00%(committerdate:iso-strict)%00%(contents)%1e"
        out = self._git("for-each-ref", f"--format={fmt}", REFS.rstrip("/"), strip=False)
        rows = []
        for record in out.split("\x1e"):
            record = record.lstrip("\n")
            if not record:
                continue
            name, commit, tree, parents, when, contents = record.split("\x00", 5)
            if name.isdigit():
                rows.append((int(name), commit, tree, parents.split(), when, contents))
        rows.sort()
        changed = self._files_changed([(commit, tree, parents) for _, commit, tree, parents, _, _ in rows])
        result = []
        for n, commit, tree, _parents, when, contents in rows:
            message, trailers = _split_trailers(contents)
            result.append(Checkpoint(
                id=n, phase=trailers.pop("Phase", "manual"), message=message, time=when,
                tests=_decode_tests(trailers.pop("Tests", None)),
                cost_usd=_float_or_none(trailers.pop("Cost-USD", None)),
                files_changed=changed.get(commit, 0), commit=commit, tree=tree,
                extra={k: v for k, v in trailers.items() if k != "Checkpoint"},
            ))
        return result

    def _one(self, n: int) -> Checkpoint:
        return next(c for c in self.checkpoints() if c.id == n)

    # ── rollback ────────────────────────────────────────────────────────────────────
    def rollback(self, to: int | None = None, steps: int | None = None, with_data: bool = False,
                 dry_run: bool = False) -> RollbackPlan | RollbackResult:
        """Return the working tree to checkpoint `to` (or `steps` checkpoints back).

        `steps` counts back from the current state: when it differs from the latest
        checkpoint, it is itself about to become a (pre-rollback) checkpoint and counts."""
        if (to is None) == (steps is None):
            raise UserError("say where to go: --to ID or --steps N (`macaron checkpoints` lists the ids).")
        if steps is not None and steps < 1:
            raise UserError("--steps must be 1 or more.")
        return self._restore(lambda cps, saving: _pick_target(cps, to, steps, saving),
                             with_data=with_data, dry_run=dry_run, phase="rollback")

    def undo(self, dry_run: bool = False) -> RollbackPlan | RollbackResult:
        """Reverse the latest rollback (or undo): back to exactly the state before it."""

        def before_last_restore(cps: list[Checkpoint], _saving: bool) -> tuple[Checkpoint, bool]:
            last = next((c for c in reversed(cps) if c.phase in RESTORING), None)
            if last is None:
                raise UserError("there is no rollback to undo.")
            before = int(last.extra.get("Before", "0"))
            target = next((c for c in cps if c.id == before), None)
            if target is None:
                raise UserError(f"checkpoint {before}, the state before the last rollback, is gone; see `macaron checkpoints`.")
            return target, last.extra.get("With-Data") == "yes"

        return self._restore(before_last_restore, with_data=None, dry_run=dry_run, phase="undo")

    def _restore(self, choose, with_data: bool | None, dry_run: bool, phase: str):
        self._check_state()
        if dry_run:
            return self._plan(choose, with_data, phase)
        with self.lock():
            self._check_state()
            cps = self.checkpoints()
            # Refuse a bad target before staging touches the index (the most lenient
            # reading of --steps here; the exact one needs the staged tree).
            self._resolve(choose, cps, True, with_data)
            current_tree = self._stage_all()
            head = self._head_commit()
            saving = self._needs_save(cps, head, current_tree, with_data is not False)
            target, data_wanted = self._resolve(choose, cps, saving, with_data)
            plan = self._plan_for(target, current_tree, data_wanted, phase)
            # Refuse before anything is written if git would overwrite an ignored file.
            self._read_tree(current_tree, target.tree, check_only=True)

            saved = None
            next_id = max((c.id for c in cps), default=0) + 1
            if saving:
                message = f"Saved before {'undo' if phase == 'undo' else f'rolling back to checkpoint {target.id}'}"
                commit = self._commit_tree(current_tree, [head] if head else [], message,
                                           _trailers(next_id, "pre-rollback"))
                # The person's state is referenced before the working tree changes at all.
                self._update_refs(head, commit, {next_id: commit}, f"macaron: checkpoint {next_id} (pre-rollback)")
                self._snapshots().take(next_id)
                saved, head, next_id = next_id, commit, next_id + 1
            before = saved if saved is not None else self._checkpoint_at(cps, head).id

            try:
                self._read_tree(current_tree, target.tree)
            except git.GitCommandError as exc:
                raise WorkFailed(f"rollback stopped halfway ({_last_line(exc)}); your work is safe in checkpoint {before}.") from None
            data_restored = bool(data_wanted) and self._snapshots().restore(target.id)

            label = "Undo: back to" if phase == "undo" else "Roll back to"
            message = f"{label} checkpoint {target.id} ({target.phase}: {target.subject})"
            extra = {"Rollback-To": str(target.id), "Before": str(before)}
            if data_wanted:
                extra["With-Data"] = "yes"
            commit = self._commit_tree(target.tree, [head], message, _trailers(next_id, phase, extra=extra))
            self._update_refs(head, commit, {next_id: commit}, f"macaron: checkpoint {next_id} ({phase})")
            self._snapshots().take(next_id)
        by_id = {c.id: c for c in self.checkpoints()}
        return RollbackResult(plan=plan, saved=by_id.get(saved) if saved else None,
                              checkpoint=by_id[next_id], data_restored=data_restored)

    def _plan(self, choose, with_data, phase) -> RollbackPlan:
        """The dry run: stage into a throw-away copy of the index, so nothing changes."""
        cps = self.checkpoints()
        with self._scratch_index():
            current_tree = self._stage_all(scratch=True)
        head = self._head_commit()
        saving = self._needs_save(cps, head, current_tree, with_data is not False)
        target, data_wanted = self._resolve(choose, cps, saving, with_data)
        return self._plan_for(target, current_tree, data_wanted, phase)

    def _resolve(self, choose, cps, saving, with_data):
        chosen = choose(cps, saving)
        target, recorded_data = chosen if isinstance(chosen, tuple) else (chosen, False)
        return target, (recorded_data if with_data is None else with_data)

    def _plan_for(self, target: Checkpoint, current_tree: str, with_data: bool, phase: str) -> RollbackPlan:
        stat = self._git("diff", "--stat", "--no-color", "--no-renames", current_tree, target.tree)
        names = self._git("diff", "--name-only", "-z", "--no-renames", current_tree, target.tree, strip=False)
        return RollbackPlan(target=target, diffstat=stat, files_changed=len([n for n in names.split("\0") if n]),
                            with_data=with_data, undo=phase == "undo")

    def _needs_save(self, cps: list[Checkpoint], head: str | None, current_tree: str, with_data: bool) -> bool:
        """Whether the state now is anything but exactly an existing checkpoint."""
        at_head = self._checkpoint_at(cps, head)
        if at_head is None or at_head.tree != current_tree:
            return True
        return with_data and not self._snapshots().matches_live(at_head.id)

    @staticmethod
    def _checkpoint_at(cps: list[Checkpoint], commit: str | None) -> Checkpoint | None:
        return next((c for c in reversed(cps) if c.commit == commit), None)

    # ── git plumbing ────────────────────────────────────────────────────────────────
    def _git(self, *args, stdin: bytes | None = None, env: dict | None = None, strip: bool = True) -> str:
        try:
            if stdin is None:
                return self.repo.git.execute(["git", *args], env=env, strip_newline_in_stdout=strip)
            with tempfile.TemporaryFile() as fh:
                fh.write(stdin)
                fh.seek(0)
                return self.repo.git.execute(["git", *args], istream=fh, env=env, strip_newline_in_stdout=strip)
        except git.GitCommandError as exc:
            if "index.lock" in str(exc.stderr):
                raise UserError(
                    f"another git command is using {self.path.name} (.git/index.lock exists); "
                    "wait for it, or delete that file if none is running."
                ) from None
            raise

    def _stage_all(self, scratch: bool = False) -> str:
        """Stage everything (tracked changes, deletions, untracked non-ignored files); the tree id."""
        if not scratch:
            # The person's data never goes into git, even if the app's .gitignore forgot it.
            self._ensure_lines(self.git_dir / "info" / "exclude", self._ignore_lines())
        self._git("add", "-A")
        return self._git("write-tree")

    def _head_commit(self) -> str | None:
        try:
            return self.repo.head.commit.hexsha
        except ValueError:  # an unborn branch: the first checkpoint is a root commit
            return None

    def _commit_tree(self, tree: str, parents: list[str], message: str, trailers: dict[str, str]) -> str:
        body = message.strip() + "\n\n" + "".join(f"{TRAILER}{k}: {v}\n" for k, v in trailers.items())
        args = ["commit-tree", "--no-gpg-sign", *[a for p in parents for a in ("-p", p)], tree]
        return self._git(*args, stdin=body.encode("utf-8"), env=self._identity_env or None)

    def _update_refs(self, old_head: str | None, new_head: str, checkpoints: dict[int, str], reason: str) -> None:
        """Move the branch and create checkpoint refs in one all-or-nothing transaction.
        The old value guards against anyone having moved the branch meanwhile."""
        lines = [f"update HEAD {new_head} {old_head or ZERO}"]
        lines += [f"create {REFS}{n} {commit}" for n, commit in checkpoints.items()]
        self._git("update-ref", "-m", reason, "--stdin", stdin=("\n".join(lines) + "\n").encode())

    def _read_tree(self, current_tree: str, target_tree: str, check_only: bool = False) -> None:
        """Make index and working tree `target_tree`. A two-tree merge from the (fully
        staged) current tree: it refuses rather than overwrite an ignored file."""
        args = ["read-tree", "-m", "-u", *(["-n"] if check_only else []), current_tree, target_tree]
        try:
            self._git(*args)
        except git.GitCommandError as exc:
            if check_only:
                raise UserError(f"rolling back would overwrite a git-ignored file ({_last_line(exc)}); move it away first.") from None
            raise

    @contextmanager
    def _scratch_index(self):
        """Point git at a copy of the index (keeps its stat cache, so staging stays fast)."""
        real = self.git_dir / "index"
        with tempfile.TemporaryDirectory(prefix="macaron-index-") as tmp:
            scratch = Path(tmp) / "index"
            if real.exists():
                scratch.write_bytes(real.read_bytes())
            with self.repo.git.custom_environment(GIT_INDEX_FILE=str(scratch)):
                yield

    def _files_changed(self, commits: list[tuple[str, str, list[str]]]) -> dict[str, int]:
        """Files each commit changed against its first parent, for all commits in one call."""
        if not commits:
            return {}
        # A root commit has no parent to compare with: give diff-tree the two trees instead.
        lines = [c if parents else f"{EMPTY_TREE} {tree}" for c, tree, parents in commits]
        out = self._git("diff-tree", "--stdin", "-r", "--name-only", "--no-renames", "-z",
                        stdin=("\n".join(lines) + "\n").encode(), strip=False)
        header_of = {line: c for line, (c, _, _) in zip(lines, commits)}
        counts: dict[str, int] = {}
        current = None
        for token in out.split("\0"):
            # A commit's header ends in NUL, a tree pair's in a newline before the first name.
            head, newline, rest = token.partition("\n")
            if head in header_of:
                current = header_of[head]
                counts[current] = 0
                token = rest
            if token and current:
                counts[current] += 1
        return counts

    def _next_id(self) -> int:
        ids = [int(ref.path[len(REFS):]) for ref in git.Reference.iter_items(self.repo, common_path=REFS.rstrip("/"))
               if ref.path[len(REFS):].isdigit()]
        return max(ids, default=0) + 1

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

    def _fallback_identity_env(self) -> dict[str, str]:
        """Environment that names a committer, only if git has none configured anywhere."""
        reader = self.repo.config_reader()
        configured = all(reader.has_option("user", key) for key in ("name", "email"))
        if configured or (os.environ.get("GIT_COMMITTER_EMAIL") and os.environ.get("GIT_COMMITTER_NAME")):
            return {}
        return {
            "GIT_AUTHOR_NAME": FALLBACK_IDENTITY["name"], "GIT_AUTHOR_EMAIL": FALLBACK_IDENTITY["email"],
            "GIT_COMMITTER_NAME": FALLBACK_IDENTITY["name"], "GIT_COMMITTER_EMAIL": FALLBACK_IDENTITY["email"],
        }


# ── commit messages ─────────────────────────────────────────────────────────────────────
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
    trailers = dict(line[len(TRAILER):].split(": ", 1) for line in lines)
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


def _last_line(exc: git.GitCommandError) -> str:
    text = str(exc.stderr or exc).strip().strip("'").strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "git failed"


def _pick_target(cps: list[Checkpoint], to: int | None, steps: int | None, saving: bool) -> Checkpoint:
    if to is not None:
        found = next((c for c in cps if c.id == to), None)
        if found is None:
            known = f"{cps[0].id}–{cps[-1].id}" if cps else "none yet"
            raise UserError(f"no checkpoint {to} (this app has {known}); `macaron checkpoints` lists them.")
        return found
    # The current state, when it is not a checkpoint yet, is about to become one.
    back = steps - 1 if saving else steps
    if back >= len(cps):
        raise UserError(f"cannot go back {steps} checkpoint(s): there are only {len(cps)}.")
    return cps[-1 - back]
