"""What a checkpoint is, as callers see it, and how it rides in its commit: the message,
then `Macaron-` trailers (phase, tests, cost, and a rollback's target and origin)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from macaron_cli.errors import UserError

REFS = "refs/macaron/checkpoints/"
TRAILER = "Macaron-"


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


def from_commit(
    n: int, commit: str, tree: str, message: str, trailers: dict[str, str], when: str, count_files: Callable[[], int]
) -> Checkpoint:
    """Checkpoint n as its commit records it (`trailers` without the `Macaron-` prefix)."""
    trailers = dict(trailers)
    return Checkpoint(
        id=n,
        phase=trailers.pop("Phase", "manual"),
        message=message,
        time=when,
        tests=_decode_tests(trailers.pop("Tests", None)),
        cost_usd=_float_or_none(trailers.pop("Cost-USD", None)),
        commit=commit,
        tree=tree,
        count_files=count_files,
        extra={k: v for k, v in trailers.items() if k != "Checkpoint"},
    )


def trailers_for(n: int, phase: str, tests=None, cost_usd=None, extra: dict | None = None) -> dict[str, str]:
    """The trailers checkpoint n's commit carries (names without the `Macaron-` prefix)."""
    found = {"Checkpoint": str(n), "Phase": phase}
    if tests is not None:
        found["Tests"] = tests if isinstance(tests, str) else json.dumps(tests, separators=(",", ":"))
    if cost_usd is not None:
        found["Cost-USD"] = f"{float(cost_usd):.6f}".rstrip("0").rstrip(".")
    found.update(extra or {})
    return found


def commit_message(message: str, trailers: dict[str, str]) -> str:
    """The commit message: the person's (or phase's) words, a blank line, the trailers."""
    return message.strip() + "\n\n" + "".join(f"{TRAILER}{k}: {v}\n" for k, v in trailers.items())


def split_trailers(contents: str) -> tuple[str, dict[str, str]]:
    """A commit message as (message, trailers); no trailers when its last paragraph is not
    all `Macaron-` lines (a commit someone made by hand)."""
    text = contents.strip()
    body, _, last = text.rpartition("\n\n")
    lines = last.splitlines()
    if not lines or not all(line.startswith(TRAILER) and ": " in line for line in lines):
        return text, {}
    found = dict(line[len(TRAILER) :].split(": ", 1) for line in lines)
    return body.strip(), found


def is_sha(value: str) -> bool:
    return re.fullmatch(r"[0-9a-f]{40}", value) is not None


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
