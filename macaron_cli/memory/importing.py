"""`macaron memory import`: read a file of memories and say, record by record, what was done.

Two formats, told apart by the first line that is not blank:
- JSONL: one JSON object per line (what `memory export` writes; the fields of a memory).
- A conversation: lines written `Name: what they said`, one memory per line, the speaker kept
  in the text (and in `meta.speaker`), so search knows who said what.

Each record is added, updated or skipped, never silently replaced:
- a record whose id is new is added;
- a record whose id is already there (or came earlier in the same file) with another text
  becomes a new version of the live memory: the old text stays, superseded, as `memory edit`
  leaves it; the same text with other fields stated changes those fields;
- a record that says nothing new is skipped as a duplicate, and so is a record without an
  id whose text is already remembered. Importing a file twice adds nothing the second time.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from macaron_cli.errors import UserError
from macaron_cli.memory.records import Memory, new_id, parse_jsonl_line
from macaron_cli.memory.speakers import speaker_of
from macaron_cli.memory.spool import Spool

JSONL = "jsonl"
CONVERSATION = "conversation"
# Fields that say what a memory is; the others (use counts, rewards, dates of use) change as it
# is used, so an export imported again differs there without saying anything new.
_CONTENT = ("kind", "domain", "language", "privacy", "pinned", "event_at", "valid_until", "meta")


@dataclass(slots=True)  # one per record of a file that may hold hundreds of thousands
class Outcome:
    line: int
    id: str
    action: str  # "added" | "updated" | "skipped" | "not kept"
    reason: str = ""
    supersedes: str | None = None
    where: dict | None = None  # in a chat export: the conversation (its number, title), the message

    def to_json(self) -> dict:
        place = self.where if self.where is not None else {"line": self.line}
        data = {**place, "id": self.id, "action": self.action}
        if self.reason:
            data["reason"] = self.reason
        if self.supersedes:
            data["supersedes"] = self.supersedes
        return data


SHOWN = 10  # outcomes a summary names one by one; the rest are counted (`--json` lists every one)


def _not_plainly_added(outcome: Outcome) -> bool:
    return outcome.action != "added"


class Report:
    """What an import did, in memory the size of a summary whatever the file's: a count of
    each action, the first SHOWN outcomes worth saying (`worth_saying`: what the summary
    names) and, for `--json` (`every`), every outcome kept on disk in a Spool."""

    def __init__(
        self, file: str, format: str, *, every: bool = False, worth_saying: Callable[[Outcome], bool] | None = None
    ):
        self.file = file
        self.format = format
        self.counts: Counter[str] = Counter()
        self.noted: list[Outcome] = []
        self.noted_total = 0  # how many were worth saying, SHOWN of them in `noted`
        self._worth_saying = worth_saying or _not_plainly_added
        self._every = Spool() if every else None

    def add(self, outcome: Outcome) -> None:
        self.counts[outcome.action] += 1
        if self._worth_saying(outcome):
            self.noted_total += 1
            if len(self.noted) < SHOWN:
                self.noted.append(outcome)
        if self._every is not None:
            self._every.append(outcome)

    def count(self, action: str) -> int:
        return self.counts[action]

    def summary(self) -> dict:
        return {
            "file": self.file,
            "format": self.format,
            "added": self.count("added"),
            "updated": self.count("updated"),
            "skipped": self.count("skipped"),
            "not_kept": self.count("not kept"),
        }

    def records(self) -> Iterator[dict]:
        """Every outcome, in order, as `--json` lists it (a Report made with `every`)."""
        if self._every is None:
            raise ValueError("this report keeps only its counts: make it with every=True to list each record")
        return (outcome.to_json() for outcome in self._every)

    def close(self) -> None:
        if self._every is not None:
            self._every.close()


def detect_format(lines: Iterator[str]) -> str | None:
    """JSONL or a conversation, by the first line that is not blank; None for a file with none."""
    for line in lines:
        if line.strip():
            return JSONL if line.lstrip().startswith("{") else CONVERSATION
    return None


def parse(line: str, lineno: int, fmt: str) -> tuple[Memory, set[str]]:
    """One record and the fields its line states (the rest are defaults)."""
    if fmt == JSONL:
        memory = parse_jsonl_line(line, lineno)
        stated = set(json.loads(line)) if memory else set()
        if memory.source == "manual":
            memory.source = "import"
        return memory, stated
    text = line.strip()
    speaker = speaker_of(text, any_case=True)  # a contact saved as "mom" is still a speaker
    if speaker is None:
        raise UserError(
            f"line {lineno}: expected `Name: what they said` (a conversation, a memory per line) "
            "or a JSON object per line (JSONL, as `memory export` writes)."
        )
    memory = Memory.from_dict(
        {"text": text, "kind": "episode", "source": "import", "meta": {"speaker": speaker}}, where=f"line {lineno}"
    )
    return memory, {"text", "kind", "meta"}


class Planner:
    """Decides each record's fate against the store as it was and the file read so far."""

    def __init__(self, store, file: str, fmt: str, every: bool = False):
        self.store = store
        self.report = Report(file, fmt, every=every)
        self.by_id: dict[str, Memory] = {}
        self.successor: dict[str, str] = {}
        self.live_texts: dict[str, str] = {}
        for memory in store.iter_all():
            self.by_id[memory.id] = memory
            if memory.supersedes:
                self.successor[memory.supersedes] = memory.id
        for memory in self.by_id.values():
            if memory.id not in self.successor:
                self.live_texts.setdefault(memory.text, memory.id)
        self.field_updates: list[tuple[str, dict]] = []
        self.line_of: dict[str, int] = {}  # ids given earlier in this file: the line that gave each

    def versions(self, memory_id: str) -> list[Memory]:
        """The memory and its newer versions, the live one last."""
        chain = [self.by_id[memory_id]]
        while chain[-1].id in self.successor and self.successor[chain[-1].id] not in {m.id for m in chain}:
            chain.append(self.by_id[self.successor[chain[-1].id]])
        return chain

    def plan(self, memory: Memory, stated: set[str], lineno: int) -> Memory | None:
        """The record to write for this line (None when nothing is to be written)."""
        memory = self.store.prepare(memory)
        if "id" not in stated:
            known = self.live_texts.get(memory.text)
            if known is not None:
                self._skip(lineno, known, f"the same text is already remembered as {known}")
                return None
            return self._add(memory, lineno)
        if memory.id not in self.by_id:
            self.line_of[memory.id] = lineno
            return self._add(memory, lineno)
        earlier = f"line {self.line_of[memory.id]}" if memory.id in self.line_of else ""
        chain = self.versions(memory.id)
        old = chain[-1]
        same = next((m for m in chain if m.text == memory.text), None)
        if same is not None and same is not old:  # an older text of it: this file said it before
            self._skip(lineno, old.id, f"{memory.id} had this text before; its live version {old.id} is newer")
            return None
        if same is not None:
            changes = {k: getattr(memory, k) for k in _CONTENT if k in stated and getattr(memory, k) != getattr(old, k)}
            if not changes:
                if earlier:
                    self._skip(lineno, old.id, f"the id {memory.id} and its text came already, on {earlier}")
                    return None
                newer = "" if old.id == memory.id else f" (as its newer version {old.id})"
                self._skip(lineno, old.id, f"{memory.id} is already remembered{newer}")
                return None
            self.field_updates.append((old.id, changes))
            self.by_id[old.id] = replace(old, **changes)
            self.report.add(Outcome(lineno, old.id, "updated", f"changed {', '.join(changes)}"))
            return None
        keep = {k: getattr(old, k) for k in _CONTENT if k not in stated}
        version = replace(memory, **keep, id=new_id(), supersedes=old.id)
        self._remember(version)
        self.successor[old.id] = version.id
        if self.live_texts.get(old.text) == old.id:
            del self.live_texts[old.text]
        whose = f"the text of {memory.id} on {earlier}" if earlier else f"the text {old.id} had"
        reason = f"a new text for {memory.id}; {whose} is kept as a superseded version"
        self.report.add(Outcome(lineno, version.id, "updated", reason, old.id))
        return version

    def _remember(self, memory: Memory) -> None:
        self.by_id[memory.id] = memory
        self.live_texts.setdefault(memory.text, memory.id)

    def _add(self, memory: Memory, lineno: int) -> Memory:
        self._remember(memory)
        self.report.add(Outcome(lineno, memory.id, "added"))
        return memory

    def _skip(self, lineno: int, memory_id: str, reason: str) -> None:
        self.report.add(Outcome(lineno, memory_id, "skipped", reason))
        return None


def read_lines(path: Path):
    # utf-8-sig: a byte order mark (Notepad writes one) is no part of the first record.
    give = "a JSONL file or a conversation (`Name: text` lines)"
    with unreadable_said(path, give), open(path, encoding="utf-8-sig") as fh:
        yield from fh


@contextmanager
def unreadable_said(path: Path, give: str) -> Iterator[None]:
    """A file to import that cannot be read, said in one line (`give`: what to give instead)."""
    try:
        yield
    except FileNotFoundError:
        raise UserError(f"{path} does not exist.") from None
    except IsADirectoryError:
        raise UserError(f"{path} is a directory; give {give}.") from None
    except UnicodeDecodeError:
        raise UserError(f"{path} is not UTF-8 text.") from None
