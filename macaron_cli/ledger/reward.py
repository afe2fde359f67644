"""Turning what the person did into credit for what led there.

The outcome of an app (or a chat answer) combines explicit and implicit signals:

    R = w·explicit + α·log(1 + uses) + β·turns + γ·helped − ρ·rollbacks − δ·deleted + η·data

  explicit  (stars − 3) / 2 for `macaron rate` (−1…+1), ±1 for /good and /bad
  uses      distinct later days the app was run        turns   conversation turns after an answer
  helped    proactive help the person accepted         data    times the app's own data grew
  rollbacks rollbacks of the app                        deleted 1 if the app was deleted

Credit flows backwards along the ledger's links (app ← brief ← memories, app ← template,
app ← the app it was made from), measured against the mean outcome of the same domain
(an advantage, so a domain where everything is liked does not inflate everything), and
decaying by HOP_DECAY per hop. Only memories that were actually included in a brief or
answer are linked, so only they get credit.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

WEIGHTS = {"explicit": 1.0, "uses": 0.4, "turns": 0.05, "helped": 0.5, "rollbacks": 0.3, "deleted": 1.0, "data": 0.1}
HOP_DECAY = 0.5
MAX_HOPS = 3
OUTCOME_KINDS = ("app_made", "answer")


@dataclass
class Outcome:
    subject: str
    domain: str
    reward: float
    signals: dict


def outcome_of(ledger, subject: str) -> Outcome:
    events = ledger.events(subject=subject)
    made = next((e for e in events if e["kind"] in OUTCOME_KINDS), None)
    domain = (made or {}).get("data", {}).get("domain") or "general"
    made_day = (made or {}).get("time", "")[:10]
    signals = defaultdict(float)
    run_days = set()
    for e in events:
        kind = e["kind"]
        if kind == "rate":
            signals["explicit"] = (e["value"] - 3) / 2  # the latest rating counts
        elif kind in ("good", "bad"):
            signals["explicit"] += 1 if kind == "good" else -1
        elif kind == "run" and e["time"][:10] != made_day:
            run_days.add(e["time"][:10])
        elif kind in ("rollback", "data", "turns", "helped"):
            key = {"rollback": "rollbacks"}.get(kind, kind)
            signals[key] += e["value"] if kind == "turns" and e["value"] else 1
        elif kind == "undo":  # the person took the rollback back: it was not a verdict
            signals["rollbacks"] = max(signals["rollbacks"] - 1, 0)
        elif kind == "deleted":
            signals["deleted"] = 1
    signals["uses"] = math.log1p(len(run_days))
    w = WEIGHTS
    reward = (
        w["explicit"] * signals["explicit"]
        + w["uses"] * signals["uses"]
        + w["turns"] * signals["turns"]
        + w["helped"] * signals["helped"]
        - w["rollbacks"] * signals["rollbacks"]
        - w["deleted"] * signals["deleted"]
        + w["data"] * signals["data"]
    )
    return Outcome(subject, domain, reward, dict(signals))


def credits(ledger) -> tuple[dict[str, float], list[Outcome]]:
    """Credit per contributing node (memory:…, template:…, app:…) from every outcome so far."""
    subjects = [e["subject"] for kind in OUTCOME_KINDS for e in ledger.events(kind=kind)]
    outcomes = [outcome_of(ledger, s) for s in dict.fromkeys(subjects)]
    by_domain = defaultdict(list)
    for o in outcomes:
        by_domain[o.domain].append(o.reward)
    credit: dict[str, float] = defaultdict(float)
    for o in outcomes:
        rewards = by_domain[o.domain]
        # A lone outcome has no peers to compare with: measure it against neutral (0).
        baseline = (sum(rewards) - o.reward) / (len(rewards) - 1) if len(rewards) > 1 else 0.0
        advantage = o.reward - baseline
        if advantage:
            _flow(ledger, o.subject, advantage, credit)
    return dict(credit), outcomes


def _flow(ledger, subject: str, amount: float, credit: dict, hop: int = 1, seen: frozenset = frozenset()) -> None:
    if hop > MAX_HOPS:
        return
    for src in ledger.sources_of(subject):
        if src in seen or src.startswith("endpoint:"):
            continue
        share = amount * HOP_DECAY ** (hop - 1)
        credit[src] += share
        # Memories are leaves; briefs and answers pass credit on to what they were built from.
        if not src.startswith("memory:"):
            _flow(ledger, src, amount, credit, hop + 1, seen | {subject})


def memories_behind(ledger, subject: str) -> set[str]:
    """The ids of the memories recorded as used for `subject` (an app: the ones its brief
    included), never those of the apps or templates it was made from."""
    found: set[str] = set()
    queue, seen = [subject], {subject}
    while queue:
        for src in ledger.sources_of(queue.pop()):
            if src.startswith("memory:"):
                found.add(src.split(":", 1)[1])
            elif src not in seen and src.startswith(("brief:", "answer:")):
                seen.add(src)
                queue.append(src)
    return found


def apply_to_memory(ledger, store, only: set[str] | None = None) -> dict[str, float]:
    """Move each memory's reward by the change in its ledger credit since the last time.

    Deltas (not absolute values) so direct adjustments made elsewhere (chat's /good) stay.
    `only`: just these memory ids; the others keep their pending change for a later call.
    Returns {memory_id: new credit} for the memories that changed.
    """
    credit, _ = credits(ledger)
    applied = ledger.applied_credits()
    changed = {}
    for key, value in credit.items():
        if not key.startswith("memory:"):
            continue
        memory_id = key.split(":", 1)[1]
        if only is not None and memory_id not in only:
            continue
        delta = value - applied.get(memory_id, 0.0)
        if abs(delta) < 1e-9:
            continue
        try:
            memory = store.get(memory_id)
        except Exception:  # forgotten since: nothing to credit
            continue
        store.update(memory_id, reward=memory.reward + delta)
        changed[memory_id] = value
    ledger.save_applied_credits(changed)
    return changed


def template_scores(ledger) -> dict[str, float]:
    """Credit per template and per app used as a base: how well their lineage served."""
    credit, _ = credits(ledger)
    return {k: v for k, v in credit.items() if k.startswith(("template:", "app:"))}


# An app must have clearly served the person before it becomes the base for new ones.
BASE_THRESHOLD = 0.5


def best_base(ledger, template: str, registry: dict[str, dict]) -> tuple[str, float] | None:
    """The person's app from `template` whose outcome is best, if it served them well."""
    from pathlib import Path

    scored = [
        (outcome_of(ledger, f"app:{slug}").reward, slug)
        for slug, info in registry.items()
        if info.get("template") == template and not info.get("deleted") and Path(info.get("path", "")).is_dir()
    ]
    if not scored:
        return None
    reward, slug = max(scored)
    return (slug, reward) if reward >= BASE_THRESHOLD else None
