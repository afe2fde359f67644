"""The memory record: the one shape shared by the store, JSONL import/export and the API."""

from __future__ import annotations

import json
import math
import re
import uuid
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime

from macaron_cli.errors import UserError
from macaron_cli.privacy import LEVELS

KINDS = ("fact", "preference", "episode", "app", "feedback")
SOURCES = ("chat", "make", "manual", "import")
# What an MCP client added (`macaron memory serve`): `mcp:` and the name the client gave.
MCP_SOURCE = re.compile(r"mcp:[\w.\- ]{1,64}")
APP_SOURCE = "app:"  # + the app's slug: what one of the person's apps recorded (its digest)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


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
    def from_dict(cls, data: dict, *, where: str = "") -> Memory:
        """Validate one record (from JSONL, the API or the CLI); missing fields get defaults.

        `where` (e.g. "line 12") is put in front of the error so the person can find it.
        """
        prefix = f"{where}: " if where else ""
        if not isinstance(data, dict):
            raise UserError(f'{prefix}expected a JSON object with at least a "text" field.')
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise UserError(
                f"{prefix}unknown field(s) {', '.join(map(_shown, unknown))}; allowed: {', '.join(sorted(known))}."
            )
        check_fields(data, prefix)
        values = {
            k: v for k, v in data.items() if v is not None or k in ("supersedes", "verified", "event_at", "valid_until")
        }
        memory = cls(**values)
        memory.validate(prefix)
        return memory

    def validate(self, prefix: str = "") -> None:
        check_fields({f.name: getattr(self, f.name) for f in fields(self)}, prefix)
        for name in ("created_at", "updated_at", "last_used_at", "verified", "event_at", "valid_until"):
            value = getattr(self, name)
            if value is not None:
                setattr(self, name, _iso(value, f"{prefix}{name}"))


# ── the record's schema: every field a record may have, checked before anything is written ──
# Bounds are far above real use and keep every value storable (LanceDB's int64, JSON, UTF-8).
MAX_TEXT = 100_000
MAX_NAME = 128  # id, domain, source, dates
MAX_LANGUAGE = 35  # RFC 5646 4.4.1: the length every implementation must take
MAX_COUNT = 2**31 - 1
MAX_REWARD = 1e6
MAX_META_DEPTH = 16
MAX_META_CHARS = 100_000

# BCP 47 (RFC 5646) language tags: language (+extlang), script, region, variants,
# extensions and private use, e.g. en, ja, pt-BR, zh-Hant-TW, es-419, de-CH-1996, x-klingon.
LANGUAGE_TAG = re.compile(
    r"(?:[a-z]{2,3}(?:-[a-z]{3}){0,3}"  # the registry has no 4-8 letter languages (RFC 5646 2.2.1)
    r"(?:-[a-z]{4})?"
    r"(?:-(?:[a-z]{2}|[0-9]{3}))?"
    r"(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*"
    r"(?:-[0-9a-wyz](?:-[a-z0-9]{2,8})+)*"
    r"(?:-x(?:-[a-z0-9]{1,8})+)?"
    r"|x(?:-[a-z0-9]{1,8})+)",
    re.IGNORECASE | re.ASCII,
)


def is_language_tag(value: object) -> bool:
    return isinstance(value, str) and len(value) <= MAX_LANGUAGE and LANGUAGE_TAG.fullmatch(value) is not None


def check_fields(data: dict, prefix: str = "") -> None:
    """Refuse a record whose fields could not be stored or shown: one line naming the field."""
    for name, value in data.items():
        check = _SCHEMA.get(name)
        if check is None or (value is None and name != "text"):  # null: the field's default
            continue
        problem = check(value)
        if problem:
            raise UserError(f'{prefix}"{name}" {problem}.')


def _text(value, *, required: bool, limit: int):
    if value is None and not required:
        return None
    if not isinstance(value, str):
        return f"must be a string, not {_json_type(value)}"
    if not value.strip():
        return "must not be empty"
    if len(value) > limit:
        return f"is {len(value):,} characters; at most {limit:,}"
    if _lone_surrogate(value):
        return "holds a lone surrogate (\\ud800-\\udfff), which is not text; fix the exporting program"
    return None


def _no_secret(value) -> str | None:
    """An id is a name other records point at: a secret in it cannot be redacted (two ids
    would become one, and a record its successor), so the record is refused instead. The
    message never repeats the id."""
    from macaron_cli.memory import secrets

    if isinstance(value, str) and (found := secrets.find(value)):
        return f"holds what looks like a secret (a {found[0][2]}), and ids are stored as written; use another id"
    return None


def _name(value, required: bool = True):
    problem = _text(value, required=required, limit=MAX_NAME)
    if problem is None and isinstance(value, str) and any(ord(c) < 32 or c == "\x7f" for c in value):
        return "holds control characters"
    return problem


def _one_of(choices):
    def check(value):
        if value not in choices or not isinstance(value, str):
            return f"is {_shown(value)}; use one of {', '.join(choices)}"
        return None

    return check


def _source(value):
    if isinstance(value, str) and value.startswith(APP_SOURCE):
        return _app_source(value)
    if isinstance(value, str) and (value in SOURCES or MCP_SOURCE.fullmatch(value)):
        return None
    return f"is {_shown(value)}; use one of {', '.join(SOURCES)} (or mcp:CLIENT, app:APP)"


def _app_source(value: str):
    """`app:<slug>`: a digest of what the person recorded in one of their apps."""
    slug = value[len(APP_SOURCE) :]
    return _name(slug) if slug else "names no app after app:"


def _language(value):
    if not is_language_tag(value):
        return f"is {_shown(value)}, not a language code; use a BCP 47 tag such as en, ja, pt-BR or zh-Hant"
    return None


def _count(value):
    if isinstance(value, _HugeNumber):
        return f"must be between 0 and {MAX_COUNT}, not a number of {value.digits:,} digits"
    if isinstance(value, bool) or not isinstance(value, int):
        return f"must be a whole number, not {_shown(value) if isinstance(value, float) else _json_type(value)}"
    if not 0 <= value <= MAX_COUNT:
        return f"must be between 0 and {MAX_COUNT}"
    return None


def _reward(value):
    if isinstance(value, _HugeNumber):
        return f"must be between -{MAX_REWARD:g} and {MAX_REWARD:g}, not a number of {value.digits:,} digits"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"must be a number, not {_json_type(value)}"
    if not math.isfinite(value):
        return "must be a finite number (NaN and Infinity are not)"
    if abs(value) > MAX_REWARD:
        return f"must be between -{MAX_REWARD:g} and {MAX_REWARD:g}"
    return None


def _pinned(value):
    return None if isinstance(value, bool) else "must be true or false"


def _meta(value):
    if value is None:
        return None
    if not isinstance(value, dict):
        return f"must be a JSON object, not {_json_type(value)}"
    # Walk it without recursion: a deeply nested meta must not crash the check that refuses it.
    stack: list[tuple[dict | list, int]] = [(value, 1)]
    size = 0
    while stack:
        node, depth = stack.pop()
        if depth > MAX_META_DEPTH:
            return f"is nested more than {MAX_META_DEPTH} levels deep"
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, item in items:
            if isinstance(key, str):
                size += len(key)
                if _lone_surrogate(key):
                    return "holds a lone surrogate in a key, which is not text"
            if isinstance(item, (dict, list)):
                stack.append((item, depth + 1))
            elif isinstance(item, str):
                size += len(item)
                if _lone_surrogate(item):
                    return "holds a lone surrogate, which is not text"
            elif isinstance(item, float) and not math.isfinite(item):
                return "holds NaN or Infinity, which JSON does not allow"
            elif isinstance(item, _HugeNumber) or (isinstance(item, int) and abs(item) >= 2**63):
                return "holds a number too large to store"
            elif item is not None and not isinstance(item, (bool, int, float)):
                return f"holds {_json_type(item)}, which JSON does not allow"
            if size > MAX_META_CHARS:
                return f"is larger than {MAX_META_CHARS:,} characters"
    return None


_SCHEMA = {
    "text": lambda v: _text(v, required=True, limit=MAX_TEXT),
    "id": lambda v: _name(v) or _no_secret(v),
    "kind": _one_of(KINDS),
    "domain": _name,
    "language": _language,
    "privacy": _one_of(LEVELS),
    "created_at": lambda v: _name(v, required=False),
    "updated_at": lambda v: _name(v, required=False),
    "last_used_at": lambda v: _name(v, required=False),
    "use_count": _count,
    "reward": _reward,
    "pinned": _pinned,
    "source": _source,
    "supersedes": lambda v: _name(v, required=False) or _no_secret(v),
    "verified": lambda v: _name(v, required=False),
    "event_at": lambda v: _name(v, required=False),
    "valid_until": lambda v: _name(v, required=False),
    "meta": _meta,
}


class _HugeNumber:
    """A JSON integer too long to be any field's value: kept as its length, never converted
    (Python refuses to read integers of more than 4,300 digits)."""

    def __init__(self, digits: str):
        self.digits = len(digits.lstrip("-"))


def _read_int(digits: str) -> int | _HugeNumber:
    return int(digits) if len(digits) <= 40 else _HugeNumber(digits)


def _lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _json_type(value) -> str:
    return {
        bool: "true/false",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def _shown(value) -> str:
    """A value for an error line: short, and printable whatever it holds."""
    text = repr(value)
    text = text if len(text) <= 40 else text[:37] + "..."
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _iso(value, what: str) -> str:
    """Accept an ISO-8601 date or datetime; store it normalised, with a timezone."""
    if not isinstance(value, str):
        raise UserError(f"{what} must be an ISO-8601 date string, got {value!r}.")
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise UserError(f"{what} {value!r} is not an ISO-8601 date (e.g. 2026-12-02T10:00:00Z).") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.isoformat(timespec="seconds")


def parse_jsonl_line(line: str, lineno: int) -> Memory:
    try:
        data = json.loads(line, parse_int=_read_int)
    except json.JSONDecodeError as exc:
        raise UserError(f"line {lineno}: not valid JSON ({exc.msg}).") from None
    except RecursionError:
        raise UserError(
            f'line {lineno}: nested too deeply to read ("meta" may be at most {MAX_META_DEPTH} levels deep).'
        ) from None
    return Memory.from_dict(data, where=f"line {lineno}")


# What a search is for (memory/retrieval.py, step 5): a person's LOOKUP shows only what
# passes the relevance floor; a CHAT turn (the friend's, an agent's) always gets the nearest.
LOOKUP, CHAT = "lookup", "chat"
PURPOSES = (LOOKUP, CHAT)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What every read of the store checks first, as of one version of its table: how many
    rows it holds, and the memories a newer version replaced (history, never an answer)."""

    version: int
    rows: int
    superseded: frozenset[str]


@dataclass
class Hit:
    """A search result: the memory, its final score and the parts that made the score."""

    memory: Memory
    score: float
    parts: dict = field(default_factory=dict)

    @property
    def replaced(self) -> bool:
        """A newer memory updates it (memory/updates.py): history, no longer the truth."""
        return "replaced" in self.parts

    def to_json(self) -> dict:
        m = self.memory
        return {
            "id": m.id,
            "text": m.text,
            "score": round(self.score, 6),
            "parts": {k: round(v, 6) for k, v in self.parts.items()},
            "kind": m.kind,
            "domain": m.domain,
            "language": m.language,
            "privacy": m.privacy,
            "created_at": m.created_at,
            "meta": m.meta,
        }
