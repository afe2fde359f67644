"""Finding an app's repo, and the refusals before anything changes in it: another git
operation half done, a detached HEAD, a damaged branch, another macaron or git at work.
A stale `index.lock` that no running git holds is cleared (and the person told)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import git

from macaron_cli import git_refs
from macaron_cli.app_lock import app_lock
from macaron_cli.apps import APP_MANIFEST, PRIVATE_DIR, is_app
from macaron_cli.checkpoints.records import is_sha
from macaron_cli.errors import UserError
from macaron_cli.git_plumbing import app_repo
from macaron_cli.untrusted import git as untrusted_git

# Someone else's operation is half done in these states; committing now would break it.
BUSY_STATES = {
    "MERGE_HEAD": "a merge",
    "rebase-merge": "a rebase",
    "rebase-apply": "a rebase (or `git am`)",
    "CHERRY_PICK_HEAD": "a cherry-pick",
    "REVERT_HEAD": "a revert",
}


def open_repo(path) -> tuple[Path, git.Repo]:
    """The app at `path` and its repo; UserError when it is not an app at the root of a
    usable, non-bare git repo of its own."""
    path = Path(path).expanduser().resolve()
    if not is_app(path):
        raise UserError(f"{path} is not a macaron app (it needs {APP_MANIFEST} in a git repo).")
    try:
        repo = app_repo(path)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise UserError(f"{path} is not a usable git repo; check its .git folder.") from None
    if repo.working_tree_dir is None:
        raise UserError(f"{path} is a bare git repo (no working files); clone it and use the clone.")
    if Path(repo.working_tree_dir).resolve() != path:
        raise UserError(f"{path} is inside another git repo, not the root of its own; run `git init` there.")
    return path, repo


def init_repo(path) -> tuple[Path, git.Repo]:
    """`path` as a git repo on branch main (idempotent), with a committer of its own when
    git has none configured anywhere."""
    path = Path(path).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    repo = app_repo(path, init=True)
    if not untrusted_git.has_identity(path):
        with repo.config_writer("repository") as config:
            config.set_value("user", "name", untrusted_git.FALLBACK_IDENTITY["name"])
            config.set_value("user", "email", untrusted_git.FALLBACK_IDENTITY["email"])
    return path, repo


class Guard:
    """Whether committing in the repo now is safe, checked before anything changes."""

    def __init__(self, path: Path, repo: git.Repo, refs: Callable[[], dict[int, str]], warnings: list[str]):
        self.path = path
        self.repo = repo
        self.git_dir = Path(repo.git_dir)
        self._refs = refs
        self._warnings = warnings

    def lock(self):
        """Hold the app for this process (context manager); UserError if another holds it."""
        return app_lock(self.path / PRIVATE_DIR / "lock")

    def check(self) -> None:
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
                if latest and is_sha(latest[1])
                else f"repair {branch} with git"
            )
            raise UserError(
                f"{self.path.name}'s branch {branch} is damaged (it holds {value!r}, not a commit this repo has); "
                f"nothing was changed: your files are as they were and every checkpoint is kept; {fix}."
            )

    @property
    def index_locked(self) -> bool:
        return (self.git_dir / "index.lock").exists()

    def clear_stale_index_lock(self) -> None:
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
        self._warnings.append(f"Removed {lock}, left by a git command that was stopped (none is running now)")

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
