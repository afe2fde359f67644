"""`AppRepo`, the one way into an app's checkpoints: it opens the repo and hands each job
to its part (opening.py refuses what is unsafe, making.py commits, history.py reads,
restoring.py rolls back, app_files.py keeps the person's data out of git)."""

from __future__ import annotations

from pathlib import Path

import git

from macaron_cli.apps import PRIVATE_DIR
from macaron_cli.checkpoints.app_files import AppFiles
from macaron_cli.checkpoints.history import History
from macaron_cli.checkpoints.making import Making
from macaron_cli.checkpoints.opening import Guard, init_repo, open_repo
from macaron_cli.checkpoints.records import Checkpoint, RollbackPlan, RollbackResult
from macaron_cli.checkpoints.restoring import Restoring
from macaron_cli.checkpoints.trees import Trees
from macaron_cli.errors import UserError
from macaron_cli.git_plumbing import Plumbing


class AppRepo:
    def __init__(self, path: Path, repo: git.Repo):
        self.path = path
        self.repo = repo
        self.git_dir = Path(repo.git_dir)
        self.private_dir = path / PRIVATE_DIR
        self.git = Plumbing(path, repo)
        self.warnings: list[str] = []  # things the person should know, said by the commands
        self.damaged: dict[int, str] = {}  # checkpoint id → what is wrong, after checkpoints()
        self._files = AppFiles(path)
        self._history = History(path, repo, self.git, Trees(repo))
        self._guard = Guard(path, repo, self._history.refs, self.warnings)
        self._making = Making(repo, self.git, self._history, self._files, self.warnings)
        self._restoring = Restoring(path, self.git, self._guard, self._history, self._making)

    @classmethod
    def open(cls, path) -> AppRepo:
        return cls(*open_repo(path))

    @classmethod
    def init(cls, path) -> AppRepo:
        """Make `path` an app repo (idempotent): git init on branch main, ignore private
        state and the manifest's data files, and give it a committer if none is configured."""
        app = cls(*init_repo(path))
        app._files.keep_out_of_git(app.path / ".gitignore")
        return app

    def lock(self):
        """Hold the app for this process (context manager); UserError if another holds it."""
        return self._guard.lock()

    def ready(self) -> None:
        """Refuse now (UserError), before a command writes anything, what its checkpoint would
        refuse later: another git operation half done (a merge, a rebase), a detached HEAD,
        a damaged branch, another macaron holding the app."""
        self._guard.check()
        with self.lock():
            self._guard.check()

    def checkpoint(self, phase: str, message: str, tests=None, cost_usd: float | None = None) -> Checkpoint:
        """Commit the whole working tree as it is now, as the next checkpoint."""
        if not message.strip():
            raise UserError("a checkpoint needs a message; say what this state is.")
        self._guard.check()
        with self.lock():
            self._guard.check()
            self._guard.clear_stale_index_lock()
            return self._making.checkpoint(phase, message, tests=tests, cost_usd=cost_usd)

    def checkpoints(self) -> list[Checkpoint]:
        """Every intact checkpoint, oldest first; the damaged ones are named in `self.damaged`."""
        found, self.damaged = self._history.intact()
        return found

    def rollback(
        self, to: int | None = None, steps: int | None = None, with_data: bool = False, dry_run: bool = False
    ) -> RollbackPlan | RollbackResult:
        """Return the working tree to checkpoint `to` (or `steps` checkpoints back).

        `steps` counts back from the current state: when it differs from the latest
        checkpoint, it is itself about to become a (pre-rollback) checkpoint and counts."""
        return self._restoring.rollback(to, steps, with_data, dry_run)

    def undo(self, dry_run: bool = False) -> RollbackPlan | RollbackResult:
        """Reverse the latest rollback (or undo): back to exactly the state before it,
        with the data too when that rollback restored data."""
        return self._restoring.undo(dry_run)

    def data_files(self) -> list[str]:
        """The person's data files the manifest names (git-ignored, snapshotted)."""
        return self._files.data_files()
