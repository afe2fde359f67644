"""Who set each of an app's settings: the template (or make, from what macaron knew), the
friend (a refresh from what the person said in chat), or the person explicitly (a change,
a rollback or undo, an edit of the file by hand).

It is read from the app's own checkpoints, so it cannot drift from them: the checkpoint
that last moved a setting says who moved it, and a value that differs from the latest
checkpoint was edited by hand. A refresh never undoes what the person set explicitly
(refresh.py asks `explicit` first).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from macaron_cli.git_plumbing import GitFailed

APP_CONFIG = "config/app.json"
_EXPLICIT_PHASES = ("rollback", "undo")
_CHANGE = "change-"  # change-N, change-N-fix-K, change-N-stopped: a change the person asked for
_LEARNED = "refresh"  # what the friend learned in chat, written by a refresh


@dataclass(frozen=True)
class SetBy:
    by: str  # template | chat | change | rollback | hand
    checkpoint: int | None = None

    @property
    def explicit(self) -> bool:
        return self.by in ("change", "rollback", "hand")

    def __str__(self) -> str:
        where = f" (checkpoint {self.checkpoint})" if self.checkpoint is not None else ""
        return {
            "change": "your change",
            "rollback": "your rollback",
            "hand": "your own edit",
            "chat": "what you told me",
            "template": "the app as made",
        }[self.by] + where


def _by(phase: str) -> str:
    if phase.startswith(_CHANGE):
        return "change"
    if phase in _EXPLICIT_PHASES:
        return "rollback"
    return "chat" if phase == _LEARNED else "template"


def who_set(repo, current: dict, keys) -> dict[str, SetBy]:
    """For each of `keys`, who last set it: the checkpoint that moved it, newest first (only
    as far back as needed); "template" for one no checkpoint moved."""
    wanted = set(keys)
    found: dict[str, SetBy] = {}
    checkpoints = list(reversed(repo.checkpoints()))
    later = current
    for n, checkpoint in enumerate(checkpoints):
        if not wanted - set(found):
            break
        at = _config_at(repo, checkpoint.commit)
        for key in wanted - set(found):
            if later.get(key) != at.get(key):
                newer = checkpoints[n - 1] if n else None
                found[key] = SetBy(_by(newer.phase), newer.id) if newer else SetBy("hand")
        later = at
    for key in wanted - set(found):
        first = checkpoints[-1] if checkpoints else None
        found[key] = SetBy(_by(first.phase) if first else "template", first.id if first else None)
    return found


def _config_at(repo, commit: str) -> dict:
    try:
        data = json.loads(repo.git.run("show", f"{commit}:{APP_CONFIG}", strip=False))
    except (GitFailed, ValueError):  # a checkpoint without the file (or not JSON): nothing set there
        return {}
    return data if isinstance(data, dict) else {}
