"""One-line calls the rest of macaron uses to tell the ledger what happened.

Each opens the ledger, appends, and returns; the cost is a single small SQLite write.
"""

from __future__ import annotations

import uuid
from pathlib import Path

from macaron_cli.ledger.store import Ledger, node
from macaron_cli.untrusted import data_paths


def brief_made(
    app: str,
    memories,
    *,
    template: str,
    domain: str,
    from_app: str | None = None,
    reason: str = "",
    ledger: Ledger | None = None,
) -> None:
    """`macaron make` built a brief from `memories` (the gate's `Cleared`) and sent it to
    each destination it was cleared for, to make `app`."""
    ledger = ledger or Ledger.open()
    for destination in memories.destinations:
        ledger.record_request(node("brief", app), destination, memories, purpose="make")
    sources = [node("brief", app), node("template", template)] + ([node("app", from_app)] if from_app else [])
    ledger.record(
        "app_made",
        node("app", app),
        sources=sources,
        data={"template": template, "domain": domain, "from": from_app, "reason": reason},
    )


def change_briefed(app: str, memories, *, request: str, checkpoint: str | None, ledger: Ledger | None = None) -> None:
    """`macaron change` sent a brief of `memories` (the gate's `Cleared`) to each destination
    it was cleared for: they are behind the app's outcome from now on, as a make's are."""
    ledger = ledger or Ledger.open()
    for destination in memories.destinations:
        details = {"request": request, "checkpoint": checkpoint}
        ledger.record_request(node("brief", app), destination, memories, purpose="change", details=details)


def answer_given(memories, destination, *, domain: str = "general", ledger: Ledger | None = None) -> str:
    """The friend answered using `memories`, sent to `destination` (the gate's decision);
    returns the answer's id for /good and /bad."""
    ledger = ledger or Ledger.open()
    answer = "a_" + uuid.uuid4().hex[:10]
    ledger.record_request(node("answer", answer), destination, memories, purpose="chat")
    ledger.record("answer", node("answer", answer), data={"domain": domain})
    return answer


def app_event(app: str, kind: str, value: float | None = None, ledger: Ledger | None = None, **data) -> None:
    """run, rollback, checkpoint, deleted, rate (value = stars), data (value = bytes)."""
    (ledger or Ledger.open()).record(kind, node("app", app), value=value, data=data)


def answer_feedback(answer: str, good: bool, ledger: Ledger | None = None) -> None:
    (ledger or Ledger.open()).record("good" if good else "bad", node("answer", answer))


def memory_checked(memory_id: str, still_true: bool, ledger: Ledger | None = None) -> None:
    """The person answered "still true?" about a memory."""
    (ledger or Ledger.open()).record("verified", node("memory", memory_id), value=1.0 if still_true else 0.0)


def app_served(app_dir: Path, data_files, ledger: Ledger | None = None) -> None:
    """`macaron run` served the app: a use; and, if its own data grew since, a sign of life."""
    ledger = ledger or Ledger.open()
    app = node("app", app_dir.name)
    ledger.record("run", app)
    size = sum(_size(app_dir, rel) for rel in data_paths.declared(data_files))
    last = ledger.events(subject=app, kind="data", limit=1)
    if size > (last[0]["value"] if last else 0):
        ledger.record("data", app, value=float(size))


def _size(app_dir: Path, rel: str) -> int:
    """The bytes of the app's own data at `rel` (never what a link in it points at)."""
    return sum((app_dir / f).lstat().st_size for f in data_paths.files_under(app_dir, rel))


def settle(store, ledger: Ledger | None = None, *, app: str | None = None) -> dict[str, float]:
    """Bring memory rewards up to date with every outcome so far (see reward.py); with
    `app`, only the memories recorded as used for that app."""
    from macaron_cli.ledger.reward import apply_to_memory, memories_behind

    ledger = ledger or Ledger.open()
    return apply_to_memory(ledger, store, only=memories_behind(ledger, node("app", app)) if app else None)
