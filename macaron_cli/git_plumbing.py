"""One app repo's git, run the way checkpoints need it: every command through GitPython's
process with its stdin from a pipe, failures as one line (a damaged index, another git
at work, else GitFailed with git's last line), and the index kept or set aside.

Every GitPython repo of an app is made here (`app_repo`), and every command it starts runs
hardened as untrusted/git.py says, after its guard (the app's git metadata is untrusted).
checkpoints/ decides what to commit and when; this module only runs git.
"""

from __future__ import annotations

import os
import re
import tempfile
from contextlib import contextmanager
from pathlib import Path

import git

from macaron_cli.errors import UserError, WorkFailed
from macaron_cli.untrusted import git as untrusted_git

# Linux pipes buffer 64 KiB; stdin smaller than this is written before git even starts.
PIPE_SAFE_BYTES = 60_000


class GitFailed(WorkFailed):
    """A git command failed in a way macaron did not foresee (exit 1, its last line shown)."""

    def __init__(self, message: str, stderr: str):
        super().__init__(message)
        self.stderr = stderr


class Plumbing:
    """git for the repo at `path`."""

    def __init__(self, path: Path, repo: git.Repo):
        self.path = path
        self.repo = repo
        self.git_dir = Path(repo.git_dir)

    def run(
        self, *args, stdin: bytes | None = None, env: dict | None = None, strip: bool = True, with_stderr: bool = False
    ):
        """Run git; its stdout (and stderr too, as a pair, when asked)."""
        untrusted_git.guard(self.path)
        try:
            with input_stream(stdin) as fh:
                _, out, err = self.repo.git.execute(
                    ["git", *args], istream=fh, env=env, strip_newline_in_stdout=strip, with_extended_output=True
                )
            return (out, err) if with_stderr else out
        except git.GitCommandError as exc:
            stderr = str(exc.stderr or "")
            if re.search(
                r"index file (smaller than expected|corrupt)|bad index|bad signature|index uses .* extension", stderr
            ):
                raise UserError(
                    f"the git index of {self.path.name} ({self.git_dir / 'index'}) is damaged; nothing was changed: "
                    "your files are as they were. "
                    f"Rebuild it with `rm {self.git_dir / 'index'} && git -C {self.path} reset`."
                ) from None
            if "index.lock" in stderr:
                lock = self.git_dir / "index.lock"
                raise UserError(
                    f"another git command is using {self.path.name} ({lock} exists); "
                    f"wait for it, or delete {lock} if no git command is running."
                ) from None
            raise GitFailed(f"git {args[0]} failed: {last_line(stderr)}", stderr) from None

    def head_commit(self) -> str | None:
        try:
            return self.repo.head.commit.hexsha
        except ValueError:  # an unborn branch: the first checkpoint is a root commit
            return None

    @contextmanager
    def index_kept_on_refusal(self):
        """Put the person's staging area back as it was if the block refuses (UserError)."""
        index = self.git_dir / "index"
        before = index.read_bytes() if index.exists() else None
        try:
            yield
        except UserError:
            if before is None:
                index.unlink(missing_ok=True)
            else:
                tmp = index.with_name(f"index.macaron-{os.getpid()}")
                tmp.write_bytes(before)
                os.replace(tmp, index)
            raise

    @contextmanager
    def scratch_index(self):
        """Point git at a copy of the index (keeps its stat cache, so staging stays fast)."""
        real = self.git_dir / "index"
        with tempfile.TemporaryDirectory(prefix="macaron-index-") as tmp:
            scratch = Path(tmp) / "index"
            if real.exists():
                scratch.write_bytes(real.read_bytes())
            with self.repo.git.custom_environment(GIT_INDEX_FILE=str(scratch)):
                yield


def app_repo(path: Path, init: bool = False) -> git.Repo:
    """The GitPython repo of the app at `path` (made, on branch main, when `init` and it has
    none), guarded first; every git process it starts runs hardened."""
    untrusted_git.guard(path)
    if init and not (path / ".git").exists():
        untrusted_git.run(path, "init", "-q", "--initial-branch=main", check=True, capture_output=True)
    repo = git.Repo(path)
    repo.git.update_environment(**untrusted_git.environment(path))
    return repo


@contextmanager
def input_stream(data: bytes | None):
    """A readable file holding `data`, for a git command's stdin: a pipe filled before
    the command starts when it fits in the pipe's buffer (no disk), else a temp file."""
    if data is None:
        yield None
        return
    if len(data) <= PIPE_SAFE_BYTES:
        read_end, write_end = os.pipe()
        os.write(write_end, data)
        os.close(write_end)
        with os.fdopen(read_end, "rb") as fh:
            yield fh
        return
    with tempfile.TemporaryFile() as fh:
        fh.write(data)
        fh.seek(0)
        yield fh


def last_line(stderr: str) -> str:
    lines = [line.strip() for line in stderr.strip().strip("'").splitlines() if line.strip()]
    return lines[-1] if lines else "no message"
