"""A make's own record in the app (`.macaron/make.json`): what was asked, how far it got.

It is what `macaron make --resume APP` continues from, and what the summary and the
feedback question read. Private (git-ignored), like the brief. The file is MakeState's
fields as JSON (under the FILE_KEYS names where they differ); a key this macaron does not
know is kept as it was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from macaron_cli.apps import PRIVATE_DIR
from macaron_cli.files import write_atomic
from macaron_cli.reading.change import Change

FILE = "make.json"
CHANGE_FILE = "change.json"  # the latest change by a model (`macaron change`), the make's record kept apart
# Fields stored under another name in the file (the names older makes wrote).
FILE_KEYS = {"from_app": "from", "app_settings": "settings", "local_endpoint": "draft"}
FIELDS = {key: name for name, key in FILE_KEYS.items()}


@dataclass
class MakeState:
    idea: str
    slug: str
    template: str
    mode: str  # offline | agent | draft | local
    title: str = ""
    from_app: str | None = None  # the person's app it was made from ("from" in the file)
    language: str = "en"
    accent: str = ""
    app_settings: dict = field(default_factory=dict)  # units, currency ("settings" in the file)
    advice: str | None = None  # medical | financial | None
    memory_ids: list[str] = field(default_factory=list)
    matched_keywords: list[str] = field(default_factory=list)
    # "partial" or "weak": the template does not fit all of the idea (maker/choose.py, then the page:
    # page_verdict.py); "unchecked": the page could not be read
    fit: str = "good"
    missing: list[str] = field(default_factory=list)  # once verified: what was asked and the page does not show
    similarity: float | None = None  # the template's closeness to the idea by meaning
    phases: list[str] = field(default_factory=list)  # the checkpoints made so far, in order
    rounds: int = 0  # fix rounds so far
    cost_usd: float = 0.0
    tokens: dict[str, int] = field(default_factory=dict)
    status: str = "running"  # running | done | tests-failed | budget | model-error | interrupted
    budget_usd: float | None = None
    max_rounds: int = 3
    local_endpoint: dict | None = None  # the local model's: {url, model, api} ("draft" in the file)
    timings: dict[str, float] = field(default_factory=dict)  # seconds per part (the summary, bench)
    session_id: str | None = None  # the agent's last session, for the record (a --resume starts anew)
    subagents: list[str] = field(default_factory=list)
    phase_costs: list[dict] = field(default_factory=list)  # tokens, seconds and cost of each phase
    variant: dict | None = None  # with --variants: which design was picked
    # A change to a made app (maker/change.py, change_model.py): its request, checkpoint
    # `change-N`, the spec before and after, the map of files the coder is shown. None: a make.
    change: Change | None = None
    unknown: dict[str, Any] = field(default_factory=dict, repr=False)

    def to_json(self) -> dict:
        data = {FILE_KEYS.get(f.name, f.name): getattr(self, f.name) for f in fields(self) if f.name != "unknown"}
        data["change"] = self.change.to_record() if self.change is not None else None
        return {**self.unknown, **data}

    @classmethod
    def from_json(cls, data: dict) -> MakeState:
        keys = {FILE_KEYS.get(f.name, f.name) for f in fields(cls)} - {"unknown"}
        known = {FIELDS.get(key, key): value for key, value in data.items() if key in keys}
        unknown = {key: value for key, value in data.items() if key not in keys}
        if "change" in known:  # a change's record (a make's holds none)
            record = known["change"]
            known["change"] = Change.from_record(record) if record and isinstance(record, dict) else None
        return cls(**known, unknown=unknown)


def path(app: Path, file: str = FILE) -> Path:
    return app / PRIVATE_DIR / file


def load(app: Path, file: str = FILE) -> MakeState | None:
    """The make (or with CHANGE_FILE the latest change) recorded in the app; None when there
    is none (or it cannot be read)."""
    p = path(app, file)
    if not p.exists():
        return None
    try:
        return MakeState.from_json(json.loads(p.read_text(encoding="utf-8")))
    except (json.JSONDecodeError, TypeError, AttributeError):  # not ours, or not a make's record
        return None


def save(app: Path, state: MakeState) -> None:
    """A change is saved beside the make's record, never over it."""
    p = path(app, CHANGE_FILE if state.change else FILE)
    p.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(p, json.dumps(state.to_json(), ensure_ascii=False, indent=2))
