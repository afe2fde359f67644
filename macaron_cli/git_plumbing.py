"""One app repo's git, run the way checkpoints need it: every command through GitPython's
process with its stdin from a pipe, failures as one line (a damaged index, another git
at work, else GitFailed with git's last line), and the index kept or set aside.

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

# Linux pipes buffer 64 KiB; stdin smaller than this is written before git even starts.
PIPE_SAFE_BYTES = 60_000
# Used only when the person has no git identity at all (CI runs as root without one).
FALLBACK_IDENTITY = {"name": "macaron", "email": "macaron@localhost"}


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


def fallback_identity_env(repo: git.Repo) -> dict[str, str]:
    """Environment that names a committer, only if git has none configured anywhere."""
    reader = repo.config_reader()
    configured = all(reader.has_option("user", key) for key in ("name", "email"))
    if configured or (os.environ.get("GIT_COMMITTER_EMAIL") and os.environ.get("GIT_COMMITTER_NAME")):
        return {}
    return {
        "GIT_AUTHOR_NAME": FALLBACK_IDENTITY["name"],
        "GIT_AUTHOR_EMAIL": FALLBACK_IDENTITY["email"],
        "GIT_COMMITTER_NAME": FALLBACK_IDENTITY["name"],
        "GIT_COMMITTER_EMAIL": FALLBACK_IDENTITY["email"],
    }


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
