"""A ChatGPT or Claude export brought into memory, a conversation at a time.

Each turn is one memory, an episode of its conversation (meta.session: the conversation's id;
its title and dates in meta too), dated when it was said:
- the person's own turns are memories about them (meta.role "person"), labelled as the
  notebook labels what the person says in chat (privacy.level_said: said to be private,
  health, money, a relationship in crisis → private);
- the assistant's replies are kept as the context of those turns (meta.role "assistant"),
  at least as private as the turn they answer.
Secrets are redacted on the way in (the store's prepare, as for every memory). Each memory's
id is the export's own message id, so importing the file again adds nothing, and a message
kept already as it reads is skipped before it is labelled or read for secrets (that reading
is what an import's time goes to: bench/import_exports.py). A turn longer
than a memory holds is kept in parts, said so; what cannot be kept (an image, a message of
an unknown sender, a conversation of another shape) is said with its reason, and the rest
of the file is kept.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from macaron_cli import privacy
from macaron_cli.errors import UserError
from macaron_cli.memory import chat_exports
from macaron_cli.memory.chat_exports import PERSON, Conversation, Turn
from macaron_cli.memory.importing import Outcome, Report
from macaron_cli.memory.json_stream import ArrayReader, BrokenJson
from macaron_cli.memory.kept_versions import KeptVersions, digest
from macaron_cli.memory.records import MAX_TEXT, Memory, new_id
from macaron_cli.memory.redact import redacted
from macaron_cli.memory.speakers import ME

# A part of a long turn: under a memory's limit with room for what redaction writes in
# place of a secret (a mark may be longer than the secret it replaces).
PART = MAX_TEXT * 9 // 10
EXPORT = chat_exports.EXPORT_FILE
_PLAIN = privacy.level_said("")  # what a turn that says nothing private is


@dataclass(frozen=True)
class Planned:
    memory: Memory
    conversation: Conversation
    turn: Turn
    note: str = ""  # what was done to it on the way (split, said so)
    why: str = ""  # why it is labelled as it is, where it is private


def memories(
    conversation: Conversation, fmt: str, remembered: Callable[[Conversation, Turn, str, str], bool] | None = None
) -> Iterator[Planned | tuple[Turn, str]]:
    """The memories of one conversation, in the order said; (a turn, why) for one that
    cannot be a memory. `remembered(conversation, turn, memory id, text)`: is that part of
    the turn already kept as it reads here (the planner then says it is skipped)? Such a
    part is neither labelled nor read for secrets: a file imported again costs the reading
    of it, not the scanning of every text in it."""
    asked: Said | None = None  # the person's last turn, labelled only once a reply needs it
    for turn in conversation.turns:
        if turn.role == PERSON:
            asked = Said(turn.text)
        pieces = _pieces(turn.text)
        label: tuple[str, str] | None = None
        for index, piece in enumerate(pieces, 1):
            if remembered is not None and remembered(conversation, turn, memory_id(fmt, turn, index), piece):
                continue
            label = label or _label(turn, asked)
            level, why = label
            note = ""
            if len(pieces) > 1:
                note = (
                    f"part {index} of {len(pieces)}: the message has {len(turn.text):,} characters, "
                    f"a memory holds at most {MAX_TEXT:,}"
                )
            try:
                memory = Memory.from_dict(_record(conversation, turn, fmt, piece, level, index, len(pieces)))
            except UserError as error:
                yield turn, str(error)
                continue
            yield Planned(memory, conversation, turn, note, why)


class Said:
    """What a turn says of its privacy: its level and why, read once and only when asked."""

    def __init__(self, text: str):
        self.text = text
        self._label: tuple[str, str] | None = None

    @property
    def label(self) -> tuple[str, str]:
        if self._label is None:
            level = privacy.level_said(self.text)
            self._label = (level, _why_private(self.text) if level != _PLAIN else "")
        return self._label


def _label(turn: Turn, asked: Said | None) -> tuple[str, str]:
    """A turn's level and why: the person's as they said it; a reply says what the question
    did, so it is as private as its question, or more."""
    if turn.role == PERSON and asked is not None:
        return asked.label
    level, why = Said(turn.text).label
    question_level, question_why = asked.label if asked is not None else (_PLAIN, "")
    level = privacy.level_from([level, question_level])
    why = why or (question_why and f"answers a private question ({question_why})")
    return level, why if level != _PLAIN else ""


def memory_id(fmt: str, turn: Turn, index: int = 1) -> str:
    """The memory of a turn's `index`th part: the same id on every import of the export."""
    return f"{fmt}:{_stable(turn.id)}" + (f"#{index}" if index > 1 else "")


def _record(conversation: Conversation, turn: Turn, fmt: str, piece: str, level: str, index: int, parts: int) -> dict:
    meta = {
        "session": conversation.id,
        "conversation": conversation.title,
        "conversation_started": conversation.created,
        "conversation_updated": conversation.updated,
        "export": fmt,
        "role": turn.role,
        "speaker": ME if turn.role == PERSON else chat_exports.product(fmt),
        "message": turn.id,
        "part": f"{index}/{parts}" if parts > 1 else None,
    }
    record = {
        "id": memory_id(fmt, turn, index),
        "text": piece,
        "kind": "episode",
        "source": "import",
        "privacy": level,
        "created_at": turn.at or conversation.created or conversation.updated,
        "meta": {k: v for k, v in meta.items() if v is not None},
    }
    return {k: v for k, v in record.items() if v is not None}


def _stable(message_id: str) -> str:
    """The memory's id for an export's message id: the same on every import, and never a run
    of digits that reads as a card number (an id that looks like a secret is refused)."""
    return base64.b32encode(hashlib.blake2b(message_id.encode("utf-8"), digest_size=15).digest()).decode().lower()


def _why_private(text: str) -> str:
    """What makes a turn private, in a few words ("" when nothing does)."""
    if privacy.said_private(text):
        return "said to be private"
    return privacy.sensitive_said(text) or ""


def _pieces(text: str) -> list[str]:
    """`text` in parts of at most PART characters, each ending at a paragraph, a line or a
    space where one is near (never a word cut where it can be helped)."""
    pieces = []
    while len(text) > PART:
        cut = max(text.rfind(mark, PART // 2, PART) for mark in ("\n\n", "\n", " "))
        cut = cut if cut > 0 else PART
        pieces.append(text[:cut])
        text = text[cut:].lstrip("\n ")
    return [*pieces, text] if text or not pieces else pieces


@dataclass(frozen=True)
class Label:
    """How a memory would be kept, as a dry run shows it."""

    conversation: str
    dates: str
    id: str
    level: str
    who: str
    preview: str
    private: bool
    redacted: tuple[str, ...]
    why: str
    note: str

    @classmethod
    def of(cls, planned: Planned, memory: Memory) -> Label:
        c = planned.conversation
        dates = " → ".join(d[:10] for d in (c.created, c.updated) if d)
        preview = " ".join(memory.text.split())
        return cls(
            c.title,
            f"({dates})" if dates else "",
            memory.id,
            memory.privacy,
            memory.meta.get("speaker", ""),
            preview[:70] + ("…" if len(preview) > 70 else ""),
            bool(planned.why),
            tuple(memory.meta.get("redacted", ())),
            planned.why,
            planned.note,
        )

    @property
    def says(self) -> str:
        said = [
            f"private: {self.why}" if self.why else "",
            f"redacted: {', '.join(self.redacted)}" if self.redacted else "",
        ]
        said.append(self.note.split(":")[0] if self.note else "")
        return "".join(f" — {s}" for s in said if s)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "conversation": self.conversation,
            "privacy": self.level,
            "speaker": self.who,
            **({"why": self.why} if self.why else {}),
            **({"redacted": list(self.redacted)} if self.redacted else {}),
            **({"note": self.note} if self.note else {}),
        }


def _worth_saying(outcome: Outcome) -> bool:
    """What an import's summary names: a message not kept, or one kept otherwise than whole."""
    return outcome.action == "not kept" or (outcome.action == "added" and bool(outcome.reason))


class ChatPlanner:
    """Each memory's fate against the store and the file read so far, in memory that does not
    grow with the file: which memory each message is kept as is on disk (KeptVersions), and
    the report keeps counts, the first outcomes worth saying and, for `every`, the rest on disk."""

    def __init__(self, store, file: str, fmt: str, every: bool = False):
        self.store = store
        self.report = Report(file, fmt, every=every, worth_saying=_worth_saying)
        self.kept = KeptVersions(store.iter_all() if store is not None else ())

    def remembered(self, conversation: Conversation, turn: Turn, memory_id: str, text: str) -> bool:
        """Is this part of a turn kept already, as written (nothing in it to redact)? Then it
        is said skipped, before anything reads it for a label or a secret."""
        known = self.kept.get(memory_id)
        if known is None or known.digest != digest(text):
            return False
        self._say(_where(conversation, turn), known.live, "skipped", f"message {turn.id} is already remembered")
        return True

    def plan(self, planned: Planned) -> Memory | None:
        """The memory to write for a turn's part (redacted), or None when it is kept already."""
        where = _where(planned.conversation, planned.turn)
        known = self.kept.get(planned.memory.id)
        memory = self.store.prepare(planned.memory) if self.store is not None else redacted(planned.memory)
        text = digest(memory.text)
        if known is not None and known.digest == text:
            again = "came already in this file" if known.in_file else "is already remembered"
            self._say(where, known.live, "skipped", f"message {planned.turn.id} {again}")
            return None
        if known is not None:  # the export's message now reads otherwise: a new version
            version = replace(memory, id=new_id(), supersedes=known.live)
            self.kept.wrote(memory.id, version.id, text)
            self._say(where, version.id, "updated", "a new text for this message; the old one is kept as a version")
            return version
        self.kept.wrote(memory.id, memory.id, text)
        self._say(where, memory.id, "added", planned.note)
        return memory

    def not_kept(self, conversation: int, reason: str, title: str = "") -> None:
        self._say({"conversation": conversation, **({"title": title} if title else {})}, "", "not kept", reason)

    def close(self) -> None:
        self.kept.close()
        self.report.close()

    def _say(self, where: dict, memory_id: str, action: str, reason: str) -> None:
        self.report.add(Outcome(where["conversation"], memory_id, action, reason, where=where))


def _where(conversation: Conversation, turn: Turn) -> dict:
    where = {"conversation": conversation.number, "message": turn.id}
    if conversation.title:
        where["title"] = conversation.title
    return where


def export_format(path) -> str | None:
    """CHATGPT or CLAUDE for an export (its conversations.json or its .zip), None for a file
    that is no JSON list (a JSONL or a conversation in lines: importing.py reads those).
    The first conversation decides; one of another shape is refused, naming the file."""
    if not chat_exports.is_zip(path):
        try:
            with open(path, encoding="utf-8-sig") as fh:
                head = fh.read(4096).lstrip()
        except (OSError, UnicodeDecodeError):
            return None  # importing.py says what is wrong with it
        if not head.startswith("["):
            return None
    with chat_exports.opened(path) as stream:
        reader = ArrayReader(stream)
        try:
            first = next(iter(reader), None)
        except BrokenJson as error:
            raise UserError(
                f"{path} is not a whole JSON list ({error}); give the export's conversations.json."
            ) from None
    fmt = chat_exports.format_of(first)
    if fmt is None:
        raise UserError(
            f"{path} is no ChatGPT or Claude export: its first item has no mapping (ChatGPT) or "
            "chat_messages (Claude); give the export's conversations.json or its .zip."
        )
    return fmt


def conversations(
    path, fmt: str, on_progress: Callable[[int], None] | None = None
) -> Iterator[Conversation | tuple[int, str]]:
    """The export's conversations in order (or a conversation's number and why it is none);
    `on_progress(characters read)` after each. A break in the JSON raises UserError."""
    with chat_exports.opened(path) as stream:
        reader = ArrayReader(stream)
        try:
            for found in chat_exports.conversations(reader, fmt):
                if on_progress:
                    on_progress(reader.consumed)
                yield found
        except BrokenJson as error:
            raise UserError(f"{path} breaks off: {error}; nothing was imported from it.") from None


def size(path) -> int:
    """How many characters the export's conversations.json holds, about (for progress)."""
    return chat_exports.text_size(path)
