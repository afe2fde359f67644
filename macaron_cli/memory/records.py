"""The memory record: the one shape shared by the store, JSONL import/export and the API."""

from __future__ import annotations

import json
import uuid
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime, timezone

from macaron_cli.errors import UserError

KINDS = ("fact", "preference", "episode", "app", "feedback")
# Ordered from most to least shareable; see macaron_cli/privacy.py (the gate) for who may see what.
PRIVACY_LEVELS = ("public", "personal", "private", "secret")
SOURCES = ("chat", "make", "manual", "import")


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def new_id() -> str:
    return "m_" + uuid.uuid4().hex[:12]


@dataclass
class Memory:
    text: str
    id: str = field(default_factory=new_id)
    kind: str = "fact"
    domain: str = "general"
    language: str = "en"
    privacy: str = "personal"
    created_at: str = field(default_factory=now_iso)
    updated_at: str | None = None
    last_used_at: str | None = None
    use_count: int = 0
    reward: float = 0.0
    pinned: bool = False
    source: str = "manual"
    supersedes: str | None = None
    verified: str | None = None
    event_at: str | None = None
    valid_until: str | None = None
    meta: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict, *, where: str = "") -> "Memory":
        """Validate one record (from JSONL, the API or the CLI); missing fields get defaults.

        `where` (e.g. "line 12") is put in front of the error so the person can find it.
        """
        prefix = f"{where}: " if where else ""
        if not isinstance(data, dict):
            raise UserError(f"{prefix}expected a JSON object with at least a \"text\" field.")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise UserError(f"{prefix}unknown field(s) {', '.join(unknown)}; allowed: {', '.join(sorted(known))}.")
        text = data.get("text")
        if not isinstance(text, str) or not text.strip():
            raise UserError(f"{prefix}\"text\" must be a non-empty string.")
        values = {k: v for k, v in data.items() if v is not None or k in ("supersedes", "verified", "event_at", "valid_until")}
        memory = cls(**values)
        memory.validate(prefix)
        return memory

    def validate(self, prefix: str = "") -> None:
        if self.kind not in KINDS:
            raise UserError(f"{prefix}kind {self.kind!r} is not one of {', '.join(KINDS)}.")
        if self.privacy not in PRIVACY_LEVELS:
            raise UserError(f"{prefix}privacy {self.privacy!r} is not one of {', '.join(PRIVACY_LEVELS)}.")
        if not isinstance(self.meta, dict):
            raise UserError(f"{prefix}\"meta\" must be a JSON object.")
        for name in ("created_at", "updated_at", "last_used_at", "verified", "event_at", "valid_until"):
            value = getattr(self, name)
            if value is not None:
                setattr(self, name, _iso(value, f"{prefix}{name}"))
        if not isinstance(self.pinned, bool):
            raise UserError(f"{prefix}\"pinned\" must be true or false.")
        try:
            self.use_count = int(self.use_count)
            self.reward = float(self.reward)
        except (TypeError, ValueError):
            raise UserError(f"{prefix}\"use_count\" and \"reward\" must be numbers.") from None


def _iso(value, what: str) -> str:
    """Accept an ISO-8601 date or datetime; store it normalised, with a timezone."""
    if not isinstance(value, str):
        raise UserError(f"{what} must be an ISO-8601 date string, got {value!r}.")
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise UserError(f"{what} {value!r} is not an ISO-8601 date (e.g. 2026-12-02T10:00:00Z).") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    return parsed.isoformat(timespec="seconds")


def parse_jsonl_line(line: str, lineno: int) -> Memory:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise UserError(f"line {lineno}: not valid JSON ({exc.msg}).") from None
    return Memory.from_dict(data, where=f"line {lineno}")


@dataclass
class Hit:
    """A search result: the memory, its final score and the parts that made the score."""

    memory: Memory
    score: float
    parts: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        m = self.memory
        return {
            "id": m.id, "text": m.text, "score": round(self.score, 6),
            "parts": {k: round(v, 6) for k, v in self.parts.items()},
            "kind": m.kind, "domain": m.domain, "language": m.language, "privacy": m.privacy,
            "created_at": m.created_at, "meta": m.meta,
        }
