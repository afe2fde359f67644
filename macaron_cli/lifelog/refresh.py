"""Apps keep up with the person: their settings follow what macaron remembers now.

`macaron apps refresh APP` (and `macaron run`, each time) reads the person's current
memories about measures and money, and their colour, and brings the app's settings
(config/app.json: units, currency, goals, colour) up to date without touching its code
or its data. A change is saved as a checkpoint, so `macaron rollback` undoes it.
A setting the person set explicitly (a change, a rollback, their own edit: set_by.py) is
never undone here: a memory that disagrees with it is said (`Kept`), not applied.

The memories go through the gate for the app folder (privacy.app_folder): what a later
cloud session in the app could read, so private memories never shape a tracked file.
The newest memory that says something wins: "I switched to ounces" after "I use ml".
Goals follow too: "my water goal is 2.5 litres a day" sets the water habit's daily goal
in the habit's own unit (2500 for millilitres; reading/units.py reads and converts), "my
monthly budget is 2000" the budget's. A goal in a unit the habit cannot take (litres for
a habit that counts glasses) is left as it is, and the refresh says why.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from macaron_cli import lang
from macaron_cli.apps import APP_MANIFEST
from macaron_cli.config import Settings
from macaron_cli.reading import units

APP_CONFIG = "config/app.json"
MEMORY_SCAN = 2000  # the newest facts and preferences looked at; older ones were overridden long ago


# A goal stated in any language macaron speaks: a goal word near a number (and its unit).
_GOAL_WORD = re.compile(lang.pattern("goal.stated"), re.I)
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
# What a habit counts rather than measures ("8 glasses", "10000 steps"): read as the habit's
# own unit only when that is the word said, or when no unit is said at all.
_COUNTED = re.compile(rf"(\d[\d,]*(?:\.\d+)?)\s*(k(?= ?steps))?\s*({lang.pattern('counts.unit')})", re.I)
# A budget named, then its amount: an English one may have decimals, the others are read
# whole (as they always were).
_WHOLE, _DECIMALS = r"\d[\d,]*", r"(?:\.\d+)?"
_BUDGET = re.compile(
    "|".join(
        rf"(?:{said}).*?({_WHOLE}{_DECIMALS if code == 'en' else ''})"
        for code in lang.languages()
        if (said := lang.words("budget.named", code))
    ),
    re.I,
)


@dataclass(frozen=True)
class Unread:
    """A goal the person stated in a unit the habit cannot take (litres for a habit that
    counts glasses): the goal is left as it is, and this says why."""

    habit: str
    said: str
    unit: str

    def __str__(self) -> str:
        return f"{self.habit} goal left as it is: you said {self.said}, and the app keeps it in {self.unit}"


def goal_said(text: str, names: set[str], unit: str) -> float | Unread | None:
    """The daily goal `text` sets for a habit called one of `names`, in the habit's `unit`
    (converted where the units measure the same thing: litres to millilitres); `Unread`
    when the text sets one in a unit that cannot become it; None when it sets none."""
    lowered = text.lower()
    habit = next((name for name in sorted(names) if name and name.lower() in lowered), None)
    if habit is None or not _GOAL_WORD.search(text):
        return None
    own = units.unit_of(unit)
    counted = _COUNTED.search(text)
    measured = units.amounts(text)
    if measured and not (counted and counted.start() <= measured[0][0]):
        _, value, said = measured[0]
        converted = units.convert(value, said, own)
        if converted is not None:
            return _whole(round(converted, 2))
        return Unread(habit, f"{_whole(value)} {said[0]}", unit or "times")
    if counted:
        if own or not _same_count(counted.group(3), unit):
            return Unread(habit, counted.group(0), unit or "times")
        return _whole(float(counted.group(1).replace(",", "")) * (1000 if counted.group(2) else 1))
    bare = _NUMBER.search(text)
    if bare:
        return _whole(float(bare.group(0).replace(",", "")))  # "my water goal is 8": the habit's unit
    return None


def _same_count(word: str, unit: str) -> bool:
    """Is "glasses" the habit's "glass" (or "steps" its "steps")? Compared without plurals."""
    return word.lower().rstrip("s").removesuffix("e") == unit.lower().rstrip("s").removesuffix("e") or not unit


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


def goals_said(memories: list, current: dict, unread: list[Unread] | None = None) -> dict:
    """New habit goals and monthly budget from the newest memories that state them; a goal
    the newest one states in a unit the habit cannot take goes to `unread` instead."""
    wanted: dict = {}
    habits = [dict(h) for h in current.get("habits") or [] if isinstance(h, dict) and h.get("key")]
    changed = False
    for habit in habits:
        names = {str(habit["key"]), str(habit.get("label") or "")}
        for memory in memories:
            goal = goal_said(memory.text, names, str(habit.get("unit") or ""))
            if isinstance(goal, Unread):
                if unread is not None:
                    unread.append(goal)
                break
            if goal is not None:
                if goal > 0 and goal != habit.get("goal"):
                    habit["goal"], changed = goal, True
                break
    if changed:
        wanted["habits"] = habits
    if "monthly_budget" in current:
        for memory in memories:
            if match := _BUDGET.search(memory.text):
                amount = next(g for g in match.groups() if g)
                wanted["monthly_budget"] = _whole(float(amount.replace(",", "")))
                break
    return wanted


@dataclass(frozen=True)
class Kept:
    """A setting the person set explicitly that a memory disagrees with: kept, and said."""

    app: str
    key: str
    value: object
    remembered: object
    set_by: str  # who set it, in words ("your change (checkpoint 3)")

    def __str__(self) -> str:
        name = self.key.replace("_", " ")
        if isinstance(self.value, list):
            moved = describe(self.key, self.value, self.remembered)
            return f"{self.app}: what you told me would change {moved}; kept as {self.set_by} set it"
        return f"{self.app}: you told me {self.remembered} for {name}; it stays {self.value}, as {self.set_by} set it"


@dataclass
class Refreshed:
    app: str
    changes: dict = field(default_factory=dict)  # setting → (old, new)
    checkpoint: int | None = None
    unread: list[Unread] = field(default_factory=list)  # goals said in a unit the app cannot take
    kept: list[Kept] = field(default_factory=list)  # set explicitly by the person: not undone


def wanted_app_settings(
    memories: list, current: dict, colour: str | None = None, unread: list[Unread] | None = None
) -> dict:
    """The app settings the person's memories (newest first) and their colour ask for, where
    they say anything. An app keeps its own language: a Japanese idea made a Japanese app,
    whatever the friend speaks. A goal said in a unit the app cannot take goes to `unread`."""
    from macaron_cli.reading.personal import accent_colour, currency_said, units_said

    wanted: dict = {}
    for memory in memories:
        text = memory.text
        if "units" not in wanted and "units" in current and (units := units_said(text)):
            wanted["units"] = units
        if "currency" not in wanted and "currency" in current and (code := currency_said(text)):
            wanted["currency"] = code
    if colour and "accent" in current:  # the quiz's colour is for every app, older ones too
        wanted["accent"] = accent_colour(colour)
    return {**wanted, **goals_said(memories, current, unread)}


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
    unread: list[Unread] = []
    wanted = wanted_app_settings(app_settings_memories(store), current, settings.color, unread)
    changes = {k: (current.get(k), v) for k, v in wanted.items() if current.get(k) != v}
    done = Refreshed(app_dir.name, changes, unread=unread)
    if not changes:
        return done
    from macaron_cli.checkpoints import AppRepo
    from macaron_cli.files import write_atomic

    repo = AppRepo.open(app_dir) if checkpoint else None
    if repo is not None:
        _keep_what_the_person_set(done, repo, current)
        if not done.changes:
            return done
    if repo is not None and not repo.checkpoints():
        repo.checkpoint("refresh", "before macaron refreshed the settings")
    updated = {**current, **{k: new for k, (_old, new) in done.changes.items()}}
    write_atomic(path, json.dumps(updated, ensure_ascii=False, indent=2) + "\n")
    if repo is not None:
        said = "; ".join(describe(k, old, new) for k, (old, new) in done.changes.items())
        done.checkpoint = repo.checkpoint("refresh", f"settings from your memories: {said}").id
    return done


def _keep_what_the_person_set(done: Refreshed, repo, current: dict) -> None:
    """Take out of `done.changes` each setting the person set explicitly; say it in `kept`."""
    from macaron_cli.lifelog.set_by import who_set

    for key, set_by in who_set(repo, current, done.changes).items():
        if set_by.explicit:
            old, new = done.changes.pop(key)
            done.kept.append(Kept(done.app, key, old, new, str(set_by)))
