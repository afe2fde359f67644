"""Apps keep up with the person: their settings follow what macaron remembers now.

`macaron apps refresh APP` (and `macaron run`, each time) reads the person's current
memories about measures and money, and their colour, and brings the app's settings
(config/app.json: units, currency, goals, colour) up to date without touching its code
or its data. A change is saved as a checkpoint, so `macaron rollback` undoes it.

The memories go through the gate for the app folder (privacy.app_folder): what a later
cloud session in the app could read, so private memories never shape a tracked file.
The newest memory that says something wins: "I switched to ounces" after "I use ml".
Goals follow too: "my water goal is 2.5 litres a day" sets the water habit's daily goal
(in the habit's own unit), "my monthly budget is 2000" the budget's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from macaron_cli.apps import APP_MANIFEST
from macaron_cli.config import Settings

APP_CONFIG = "config/app.json"
MEMORY_SCAN = 2000  # the newest facts and preferences looked at; older ones were overridden long ago


# A goal stated in any language macaron speaks: a goal word near a number (and its unit).
_GOAL_WORD = re.compile(r"\b(goal|target|aim|at least|a day|per day|daily)\b|目標|목표|目标|layunin|araw-araw", re.I)
_AMOUNT = re.compile(
    r"(\d[\d,]*(?:\.\d+)?)\s*(fl\.? ?oz|ounces?|ml|millilit\w*|l\b|lit(?:er|re)s?|k?steps?|歩|걸음|步|"
    r"hours?|h\b|minutes?|min\b|glasses|cups?|pages?|times)?",
    re.I,
)
# A stated amount in the habit's unit: (unit words, the unit they are, the factor to it).
_TO_UNIT: dict[str, list[tuple[str, float]]] = {
    "milliliter": [(r"fl\.? ?oz|ounces?", 29.5735), (r"ml|millilit", 1), (r"l$|lit", 1000)],
    "liter": [(r"fl\.? ?oz|ounces?", 0.0295735), (r"ml|millilit", 0.001), (r"l$|lit", 1)],
    "minute": [(r"h$|hours?", 60), (r"min", 1)],
    "hour": [(r"min", 1 / 60), (r"h$|hours?", 1)],
}
_BUDGET = re.compile(
    r"(monthly )?budget\b.*?(\d[\d,]*(?:\.\d+)?)|予算.*?(\d[\d,]*)|예산.*?(\d[\d,]*)|预算.*?(\d[\d,]*)", re.I
)


def goal_said(text: str, names: set[str], unit: str) -> float | None:
    """The daily goal `text` sets for a habit called one of `names`, in `unit`, or None."""
    lowered = text.lower()
    if not any(name and name.lower() in lowered for name in names) or not _GOAL_WORD.search(text):
        return None
    for match in _AMOUNT.finditer(text):
        value, said = float(match.group(1).replace(",", "")), (match.group(2) or "").lower()
        if not said:
            return _whole(value)
        for pattern, factor in _TO_UNIT.get(unit, []):
            if re.match(pattern, said):
                return _whole(round(value * factor, 2))
        if unit not in _TO_UNIT:
            return _whole(value)  # a counted unit: steps, glasses, pages
    return None


def _whole(value: float) -> float:
    return int(value) if value == int(value) else value


def describe(key: str, old, new) -> str:
    """One change as a person reads it: "units metric → imperial", "water goal 2000 → 2500"."""
    if key == "habits" and isinstance(old, list):
        before = {h.get("key"): h.get("goal") for h in old if isinstance(h, dict)}
        return ", ".join(
            f"{h['key']} goal {before.get(h['key'])} → {h.get('goal')}"
            for h in new
            if before.get(h["key"]) != h.get("goal")
        )
    return f"{key.replace('_', ' ')} {old} → {new}"


def goals_said(memories: list, current: dict) -> dict:
    """New habit goals and monthly budget from the newest memories that state them."""
    wanted: dict = {}
    habits = [dict(h) for h in current.get("habits") or [] if isinstance(h, dict) and h.get("key")]
    changed = False
    for habit in habits:
        names = {str(habit["key"]), str(habit.get("label") or "")}
        for memory in memories:
            goal = goal_said(memory.text, names, str(habit.get("unit") or ""))
            if goal is not None:
                if goal > 0 and goal != habit.get("goal"):
                    habit["goal"], changed = goal, True
                break
    if changed:
        wanted["habits"] = habits
    if "monthly_budget" in current:
        for memory in memories:
            if match := _BUDGET.search(memory.text):
                amount = next(g for g in match.groups()[1:] if g)
                wanted["monthly_budget"] = _whole(float(amount.replace(",", "")))
                break
    return wanted


@dataclass
class Refreshed:
    app: str
    changes: dict = field(default_factory=dict)  # setting → (old, new)
    checkpoint: int | None = None


def wanted_app_settings(memories: list, current: dict, colour: str | None = None) -> dict:
    """The app settings the person's memories (newest first) and their colour ask for, where
    they say anything. An app keeps its own language: a Japanese idea made a Japanese app,
    whatever the friend speaks."""
    from macaron_cli.maker.personal import accent_colour, currency_said, units_said

    wanted: dict = {}
    for memory in memories:
        text = memory.text
        if "units" not in wanted and "units" in current and (units := units_said(text)):
            wanted["units"] = units
        if "currency" not in wanted and "currency" in current and (code := currency_said(text)):
            wanted["currency"] = code
    if colour and "accent" in current:  # the quiz's colour is for every app, older ones too
        wanted["accent"] = accent_colour(colour)
    return {**wanted, **goals_said(memories, current)}


def app_settings_memories(store) -> list:
    """The person's current facts and preferences that may shape a tracked file, newest first."""
    from macaron_cli import privacy

    found = store.live(limit=MEMORY_SCAN, where="kind IN ('fact', 'preference') AND valid_until IS NULL")
    return privacy.release(found, privacy.app_folder()).memories


def refresh_app(app_dir: Path, settings: Settings, store=None, checkpoint: bool = True) -> Refreshed:
    """Bring the app's settings up to date with the person's memories (their memory is
    `store`, else opened with `settings`: only once the app is known good); the changes made."""
    from macaron_cli.errors import UserError

    app_dir = Path(app_dir)
    path = app_dir / APP_CONFIG
    if not (app_dir / APP_MANIFEST).is_file():
        raise UserError(f"{app_dir} is not a macaron app (no {APP_MANIFEST}).")
    try:
        current = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UserError(f"{path} is missing or not valid JSON; fix it or `macaron rollback {app_dir.name}`.") from None
    if not isinstance(current, dict):
        raise UserError(f"{path} must hold one JSON object; fix it or `macaron rollback {app_dir.name}`.")
    if store is None:
        from macaron_cli.memory import MemoryStore

        store = MemoryStore.open(settings=settings)
    wanted = wanted_app_settings(app_settings_memories(store), current, settings.color)
    changes = {k: (current.get(k), v) for k, v in wanted.items() if current.get(k) != v}
    done = Refreshed(app_dir.name, changes)
    if not changes:
        return done
    from macaron_cli.checkpoints import AppRepo
    from macaron_cli.files import write_atomic

    repo = AppRepo.open(app_dir) if checkpoint else None
    if repo is not None and not repo.checkpoints():
        repo.checkpoint("refresh", "before macaron refreshed the settings")
    updated = {**current, **{k: new for k, (_old, new) in changes.items()}}
    write_atomic(path, json.dumps(updated, ensure_ascii=False, indent=2) + "\n")
    if repo is not None:
        said = "; ".join(describe(k, old, new) for k, (old, new) in changes.items())
        done.checkpoint = repo.checkpoint("refresh", f"settings from your memories: {said}").id
    return done
