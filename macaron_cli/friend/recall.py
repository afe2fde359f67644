"""What the friend remembers before each answer, and what it learns from how that went.

Recall searches the memory with the person's words as a chat turn (the engine widens them by
their goal, drops superseded versions, and fills up to k with the nearest memories by meaning,
below those that share a word: an emotional turn with no rare word still deserves them),
through the privacy gate for the current model's destination (macaron_cli/privacy.py), and
drops facts that were superseded, replaced by a newer one (memory/updates.py) or have
expired. What was recalled is kept for /why. Memories used in an
answer the person liked (/good) gain reward, /bad lowers it; the store's weight
(reward·e^(−λ·age)) lets memories that are never used fade.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from macaron_cli import privacy
from macaron_cli.memory import Hit, Memory
from macaron_cli.memory.records import CHAT, now_iso
from macaron_cli.privacy import Cleared, Destination

RECALL_K = 6
STALE_AFTER_DAYS = 120  # an important fact this old (and unconfirmed) is checked before use
REWARD_STEP = 0.5
UPCOMING_DAYS = 7


@dataclass
class RecallRecord:
    """What shaped one answer: for /why."""

    query: str
    destination: Destination
    hits: Cleared  # the gate's hits for `destination`: the only memories the answer's prompt may carry
    answer_id: str | None = None  # the ledger's id for the answer, once recorded
    # The person's own app records that bear on the question but may not go to `destination`:
    # shown to the person on this machine, never put into the request.
    shown_here: Cleared | None = None


def _parse(value: str | None) -> datetime | None:
    if not value:
        return None
    parsed = datetime.fromisoformat(value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def is_current(memory: Memory, now: datetime) -> bool:
    """False once a memory has expired (valid_until passed, e.g. because it was superseded)."""
    until = _parse(memory.valid_until)
    return until is None or until > now


def recall(store, text: str, destination: Destination, k: int = RECALL_K, now: datetime | None = None) -> Cleared:
    """The current memories that bear on `text`, cleared by the gate for `destination`: none
    that expired, nor one a newer memory replaced ("I live in Osaka" after "we moved to Kyoto")."""
    now = now or datetime.now(UTC)
    hits = privacy.search(store, text, destination, k=k * 2, now=now, purpose=CHAT)  # what is true now
    return privacy.release([h for h in hits if is_current(h.memory, now)][:k], destination)


def why_sentences(record: RecallRecord) -> tuple[str, list[str]]:
    """/why: one sentence a person reads ("I remembered “Dani loves rock climbing” because
    you asked about dani, which it mentions."), then the details /why --detail shows (where
    memories could go, each memory's score and its parts in words)."""
    from macaron_cli.memory.score_parts import (
        FLOOR_RULE,
        NEAREST,
        NEAREST_ONLY,
        counted,
        found_as,
        leading_reason,
        listed,
    )
    from macaron_cli.reading.text import in_common

    hits = list(record.hits)
    where = record.destination
    if not hits:
        lead = "Nothing I remember bore on what you said, so no memory shaped that answer."
    else:
        top = hits[0]
        shared = in_common(record.query, top.memory.text)
        reason = leading_reason(top.parts)
        if shared:
            because = f"you asked about {listed(shared)}, which it mentions"
        elif reason == NEAREST_ONLY or reason is None:
            because = "it is the closest in meaning to what you said, though it shares no word with it"
        else:
            because = f"of its {reason}"
        lead = f"I remembered “{_shown(top.memory.text)}” because {because}."
        if len(hits) > 1:
            lead += f" I also drew on {len(hits) - 1} more (/why --detail shows each, with its scores)."
    details = [
        f"Searched for “{_shown(record.query)}” among memories allowed to go to {where.url or 'no model (notebook)'}"
        f" ({where.where}: {where.reason}; {', '.join(sorted(where.levels))})."
    ]
    # Which rule let them in: a chat turn is never left without memories.
    if any(found_as(hit) == NEAREST for hit in hits):
        details.append(f"Of these, {counted(hits)}: {FLOOR_RULE}.")
    for hit in hits:
        parts = ", ".join(f"{k} {v:.2f}" for k, v in hit.parts.items())
        details.append(f"{hit.memory.id}  score {hit.score:.2f} ({parts})  [{hit.memory.privacy}] {hit.memory.text}")
    return lead, details


_SHOWN = 80  # characters of a memory quoted in /why's sentence


def _shown(text: str) -> str:
    """`text` whole, or cut at the last space before _SHOWN characters (never inside a word;
    a text with no space there is cut by letters, each a word in its script)."""
    text = " ".join(text.split())
    if len(text) <= _SHOWN:
        return text
    cut = text[:_SHOWN]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + "…"


def own_records(store, text: str, destination: Destination) -> Cleared:
    """The app digests bearing on `text` that `destination` may not hear (the person's own
    records, to show them here)."""
    # A few digests at most: their words find them (no embedding, no second hybrid search).
    return privacy.held_back(store, text, destination, kind="app", vectors=False, expand=False, mmr=False)


def needs_check(memory: Memory, now: datetime) -> bool:
    """An old, important fact nobody has confirmed lately: ask 'still true?' before using it."""
    if memory.kind not in ("fact", "preference"):
        return False
    important = memory.pinned or memory.reward >= REWARD_STEP or memory.use_count >= 3 or memory.meta.get("stressed")
    last_confirmed = _parse(memory.verified) or _parse(memory.updated_at) or _parse(memory.created_at)
    return bool(important) and last_confirmed is not None and now - last_confirmed > timedelta(days=STALE_AFTER_DAYS)


def confirm(store, memory: Memory) -> None:
    store.update(memory.id, verified=now_iso())


def retire(store, memory: Memory, correction: str | None = None) -> Memory | None:
    """The person said a fact is no longer true: keep it, expire it, link the new one to it."""
    store.update(memory.id, valid_until=now_iso())
    if not correction:
        return None
    return store.add(
        correction,
        kind=memory.kind,
        domain=memory.domain,
        privacy=memory.privacy,
        source="chat",
        supersedes=memory.id,
        verified=now_iso(),
        event_at=memory.event_at,
    )


def mark_used(store, hits: Iterable[Hit]) -> None:
    """Count a use, so the TUI and the weight know what actually serves the person."""
    store.used(hit.memory.id for hit in hits)


def reward(store, hits: Iterable[Hit], liked: bool) -> int:
    """/good or /bad on the last answer: adjust the reward of the memories it used."""
    changed = 0
    for hit in hits:
        try:
            current = store.get(hit.memory.id)
        except Exception:
            continue
        store.update(current.id, reward=current.reward + (REWARD_STEP if liked else -REWARD_STEP))
        changed += 1
    return changed


def upcoming(store, destination: Destination, now: datetime | None = None, days: int = UPCOMING_DAYS) -> Cleared:
    """Memories about something in the next `days` days (a birthday, a trip), soonest first,
    cleared by the gate for `destination` (they go into the answer's prompt)."""
    now = now or datetime.now(UTC)
    soon = []
    # An app's digest is dated by its latest record: the past, never something coming up.
    for memory in store.live(limit=None, where="event_at IS NOT NULL AND kind != 'app'"):
        when = _parse(memory.event_at)
        if when is None or not (now - timedelta(hours=12) <= when <= now + timedelta(days=days)):
            continue
        if is_current(memory, now):
            soon.append(memory)
    return privacy.release(sorted(soon, key=lambda m: m.event_at), destination)
