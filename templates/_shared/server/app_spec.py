"""What an app tracks: its spec, one typed, validated, versioned declaration.

This file is generated from macaron's templates/_shared/ (one source for every template
and for macaron itself, which reads it to write and check specs); change it there.

The spec lives in the app's `macaron.json` under "spec". It says what the person asked
for, whatever template renders it:
- measures: numbers logged over time (name, unit, kind, goal and its period, step, free entry,
  several values per entry such as systolic/diastolic, times of day such as morning/evening);
- money: currency, categories, people to split with or who owe, a monthly budget, a savings
  target and what is put by each month;
- items: a collection with attributes and a rating (books lent, restaurants, films);
- tasks: assignees, weekly repeats, shifts by time of day, a countdown to a date;
- conversions: unit families (length, pace, shoe sizes, area, currency with a rate);
- journal: dated entries of words, with a mood or a meal;
- timer: work and break minutes (a pomodoro), the sessions done kept;
- deck: study cards with two sides (the languages, or question and answer), reviewed again
  and again on a simple spaced schedule;
- plan: a week planned ahead, days by meals (breakfast, lunch, dinner).
Only the standard library: the app runtime and macaron both import it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import MISSING, asdict, dataclass, fields
from typing import Any

SPEC_VERSION = 1
MEASURE_KINDS = ("count", "amount", "duration", "quantity")
MEASURE_COMBINES = ("sum", "latest", "average")  # how a day's entries combine: server/app_figures.py
MEALS = ("breakfast", "lunch", "dinner", "snack")
JOURNAL_KINDS = ("mood", "food", "notes")
REPEATS = ("daily", "weekly", "monthly")
SHIFTS = ("morning", "afternoon", "evening", "night")  # a rota's times of day
# Unit families a converter may be asked for (what a renderer can say it renders).
CONVERSION_FAMILIES = (
    "length",
    "weight",
    "volume",
    "temperature",
    "area",
    "cooking",
    "pace",
    "shoe_size",
    "currency",
    "speed",
    "time",
)
_KEY = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_MAX_LIST = 24
_MAX_TEXT = 80


class SpecError(ValueError):
    """The spec is not valid; the message says which field and why."""


@dataclass(frozen=True)
class Measure:
    key: str  # stable id the data refers to ("weight", "blood_pressure")
    name: str  # what the person calls it, in their language
    unit: str  # "kilogram", "cups", "hour", "mmHg", "pages", "times"
    kind: str = "count"  # count | amount | duration | quantity
    goal: float | None = None  # per day (or per its period), in the unit; None: no goal
    step: float = 1  # what one tap adds
    free_entry: bool = False  # the person types any value (37 pages, 72.4 kg)
    values: tuple[str, ...] = ()  # several numbers per entry ("systolic", "diastolic")
    times: tuple[str, ...] = ()  # when it is logged ("morning", "evening")
    # How a day's entries combine (server/app_figures.py): sum (intake), latest or average
    # (a reading: weight, blood pressure); None: by its shape (a reading when it has values).
    combine: str | None = None
    # The goal's period, as said: daily | weekly | monthly ("3 a week": the week's entries count
    # toward it); None: a day's, as goals have always been.
    period: str | None = None


@dataclass(frozen=True)
class Money:
    currency: str  # ISO 4217
    categories: tuple[str, ...] = ()
    people: tuple[str, ...] = ()  # people to split with, or who owe / are owed
    debts: bool = False  # who owes whom, not only what was spent
    split: bool = False  # shared bills divided between people
    budget: float | None = None  # per month, whole currency units
    target: float | None = None  # a savings goal, whole currency units: entries are deposits toward it
    rate: float | None = None  # what is put by each month (toward the target, if any), whole currency units


@dataclass(frozen=True)
class Items:
    name: str  # what one item is ("book", "restaurant")
    attributes: tuple[str, ...] = ()  # what each item records ("author", "lent to")
    rating: bool = False  # a rating per item (1–5)
    every: bool = False  # care every few days per item (watering): when it was last done, when next


@dataclass(frozen=True)
class Tasks:
    assignees: tuple[str, ...] = ()  # people who do them
    repeat: str | None = None  # daily | weekly | monthly
    countdown: str | None = None  # a date counted down to (YYYY-MM-DD), or "" when unknown yet
    categories: tuple[str, ...] = ()
    event: str | None = None  # what the countdown is to ("wedding"), as the person said it
    shifts: tuple[str, ...] = ()  # times of day a task belongs to (a rota's morning and evening shifts)


@dataclass(frozen=True)
class Conversion:
    family: str  # one of CONVERSION_FAMILIES
    units: tuple[str, ...] = ()  # the pair it opens with, from → to
    rate: float | None = None  # currency: units of the second per one of the first, stored


@dataclass(frozen=True)
class Journal:
    kind: str = "notes"  # mood | food | notes


@dataclass(frozen=True)
class Timer:
    work: int = 25  # minutes of work (focus) per session
    rest: int = 5  # minutes of break after it


@dataclass(frozen=True)
class Deck:
    sides: tuple[str, ...] = ()  # what each side holds: languages ("en", "ja") or words ("question", "answer")
    review: bool = True  # cards come back on a spaced schedule (again soon, good later)


@dataclass(frozen=True)
class Plan:
    meals: tuple[str, ...] = ("breakfast", "lunch", "dinner")  # of MEALS, in the order of a day
    days: int = 7  # the days planned ahead (a week)


@dataclass(frozen=True)
class AppSpec:
    version: int = SPEC_VERSION
    measures: tuple[Measure, ...] = ()
    money: Money | None = None
    items: Items | None = None
    tasks: Tasks | None = None
    conversions: tuple[Conversion, ...] = ()
    journal: Journal | None = None
    timer: Timer | None = None
    deck: Deck | None = None
    plan: Plan | None = None

    def to_json(self) -> dict[str, Any]:
        """The spec as macaron.json stores it (only what is set)."""
        data = _lists(asdict(self))
        return {k: v for k, v in data.items() if v != []} | {"version": self.version}

    def needs(self) -> list[str]:
        """What a renderer must be able to show for this spec, as capability names
        ("measures", "measures.values", "money.debts", "conversions.pace", …)."""
        out: list[str] = []
        if self.measures:
            out.append("measures")
            for flag in ("free_entry", "values", "times"):
                if any(getattr(m, flag) for m in self.measures):
                    out.append(f"measures.{flag}")
            if any(m.period not in (None, "daily") for m in self.measures):
                out.append("measures.period")
        if self.money:
            out.append("money")
            out += [f"money.{flag}" for flag in ("debts", "split") if getattr(self.money, flag)]
            if self.money.people:
                out.append("money.people")
            if self.money.target is not None:
                out.append("money.target")
            if self.money.rate is not None:
                out.append("money.rate")
        if self.items:
            out.append("items")
            if self.items.rating:
                out.append("items.rating")
            if self.items.every:
                out.append("items.every")
        if self.tasks:
            out.append("tasks")
            out += [f"tasks.{flag}" for flag in ("assignees", "repeat", "shifts") if getattr(self.tasks, flag)]
            if self.tasks.countdown is not None:
                out.append("tasks.countdown")
            if self.tasks.event:
                out.append("tasks.event")
        out += [f"conversions.{c.family}" for c in self.conversions]
        if self.journal:
            out.append(f"journal.{self.journal.kind}")
        if self.timer:
            out.append("timer")
        if self.deck:
            out += ["deck", "deck.review"] if self.deck.review else ["deck"]
        if self.plan:
            out += ["plan", "plan.meals"]
        return list(dict.fromkeys(out))


def _lists(value: Any) -> Any:
    """JSON's own shapes: tuples become lists, at any depth; what is unset is left out."""
    if isinstance(value, dict):
        return {k: _lists(v) for k, v in value.items() if v is not None and v != ()}
    if isinstance(value, list | tuple):
        return [_lists(v) for v in value]
    return value


_DECLARED = {cls.__name__: cls for cls in (Measure, Money, Items, Tasks, Conversion, Journal, Timer, Deck, Plan)}


# ── the schema ─────────────────────────────────────────────────────────────────────────
# What the dataclasses' types do not say: the choices and shapes the validation below holds
# a field to (the same constants it checks against), so the schema and the checks agree.
_CHOICES = {
    ("Measure", "kind"): MEASURE_KINDS,
    ("Measure", "combine"): MEASURE_COMBINES,
    ("Measure", "period"): REPEATS,
    ("Tasks", "repeat"): REPEATS,
    ("Tasks", "shifts"): SHIFTS,
    ("Conversion", "family"): CONVERSION_FAMILIES,
    ("Journal", "kind"): JOURNAL_KINDS,
    ("Plan", "meals"): MEALS,
}
_PATTERNS = {("Measure", "key"): _KEY.pattern, ("Money", "currency"): _CURRENCY.pattern}


def json_schema() -> dict[str, Any]:
    """The spec's JSON Schema, read from the dataclasses above (what a model is asked to
    answer against); parse_spec stays the judge of what is valid."""
    return _object_schema(AppSpec) | {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "AppSpec"}


def _object_schema(cls: type) -> dict[str, Any]:
    props: dict[str, Any] = {}
    required = []
    for f in fields(cls):
        props[f.name] = _type_schema(str(f.type), cls.__name__, f.name)
        if f.default is MISSING:
            required.append(f.name)
    if cls is AppSpec:
        props["version"] = {"const": SPEC_VERSION}
    out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    return out | ({"required": required} if required else {})


def _type_schema(annotation: str, owner: str, name: str) -> dict[str, Any]:
    """A field's annotation ("float | None", "tuple[Measure, ...]") as JSON Schema."""
    annotation = annotation.strip()
    if annotation.endswith("| None"):
        inner = _type_schema(annotation[: -len("| None")], owner, name)
        return {"anyOf": [inner, {"type": "null"}]}
    if annotation.startswith("tuple["):
        item = _type_schema(annotation[len("tuple[") :].split(",")[0], owner, name)
        return {"type": "array", "items": item, "maxItems": _MAX_LIST}
    if annotation in _DECLARED:
        return _object_schema(_DECLARED[annotation])
    if annotation == "str":
        out: dict[str, Any] = {"type": "string", "maxLength": _MAX_TEXT}
        if (owner, name) in _CHOICES:
            out = {"enum": list(_CHOICES[owner, name])}
        if (owner, name) in _PATTERNS:
            out["pattern"] = _PATTERNS[owner, name]
        return out
    return {"type": {"float": "number", "int": "integer", "bool": "boolean"}[annotation]}


# ── validation ─────────────────────────────────────────────────────────────────────────
def _text(raw: Any, where: str, *, empty: bool = False) -> str:
    if not isinstance(raw, str) or (not raw.strip() and not empty):
        raise SpecError(f"{where} must be a non-empty text")
    if len(raw) > _MAX_TEXT:
        raise SpecError(f"{where} is longer than {_MAX_TEXT} characters")
    return raw.strip()


def _texts(raw: Any, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list | tuple) or len(raw) > _MAX_LIST:
        raise SpecError(f"{where} must be a list of at most {_MAX_LIST} texts")
    return tuple(_text(item, f"{where}[{n}]") for n, item in enumerate(raw))


def _number(raw: Any, where: str, *, positive: bool = False) -> float:
    if isinstance(raw, bool) or not isinstance(raw, int | float) or raw != raw or raw in (float("inf"), float("-inf")):
        raise SpecError(f"{where} must be a number")
    if positive and raw <= 0:
        raise SpecError(f"{where} must be above 0")
    return raw


def _choice(raw: Any, choices: tuple[str, ...], where: str) -> str:
    if raw not in choices:
        raise SpecError(f"{where} must be one of {', '.join(choices)}")
    return str(raw)


def _flag(raw: Any, where: str) -> bool:
    if not isinstance(raw, bool):
        raise SpecError(f"{where} must be true or false")
    return raw


def _names(cls: type) -> set[str]:
    """The fields a JSON object of this shape may have: the dataclass's own."""
    return {f.name for f in fields(cls)}


def _fields(raw: Any, where: str, allowed: set[str]) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise SpecError(f"{where} must be an object")
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise SpecError(f"{where} has unknown field {unknown[0]!r}")
    return raw


def _measure(raw: Any, where: str) -> Measure:
    d = _fields(raw, where, _names(Measure))
    key = _text(d.get("key"), f"{where}.key")
    if not _KEY.match(key):
        raise SpecError(f"{where}.key must be lower-case letters, digits and _ (e.g. 'blood_pressure')")
    values = _texts(d.get("values"), f"{where}.values")
    if len(values) == 1:
        raise SpecError(f"{where}.values names several values per entry; leave it out for one")
    goal = d.get("goal")
    return Measure(
        key=key,
        name=_text(d.get("name"), f"{where}.name"),
        unit=_text(d.get("unit"), f"{where}.unit"),
        kind=_choice(d.get("kind", "count"), MEASURE_KINDS, f"{where}.kind"),
        goal=None if goal is None else _number(goal, f"{where}.goal", positive=True),
        step=_number(d.get("step", 1), f"{where}.step", positive=True),
        free_entry=_flag(d.get("free_entry", False), f"{where}.free_entry"),
        values=values,
        times=_texts(d.get("times"), f"{where}.times"),
        combine=None if d.get("combine") is None else _choice(d["combine"], MEASURE_COMBINES, f"{where}.combine"),
        period=None if d.get("period") is None else _choice(d["period"], REPEATS, f"{where}.period"),
    )


def _currency(raw: Any, where: str) -> str:
    if not isinstance(raw, str) or not _CURRENCY.match(raw.upper()):
        raise SpecError(f"{where} must be a three-letter currency code such as USD or JPY")
    return raw.upper()


def _money(raw: Any) -> Money:
    d = _fields(raw, "money", _names(Money))
    budget, target, rate = d.get("budget"), d.get("target"), d.get("rate")
    return Money(
        currency=_currency(d.get("currency"), "money.currency"),
        categories=_texts(d.get("categories"), "money.categories"),
        people=_texts(d.get("people"), "money.people"),
        debts=_flag(d.get("debts", False), "money.debts"),
        split=_flag(d.get("split", False), "money.split"),
        budget=None if budget is None else _number(budget, "money.budget", positive=True),
        target=None if target is None else _number(target, "money.target", positive=True),
        rate=None if rate is None else _number(rate, "money.rate", positive=True),
    )


def _items(raw: Any) -> Items:
    d = _fields(raw, "items", _names(Items))
    return Items(
        name=_text(d.get("name"), "items.name"),
        attributes=_texts(d.get("attributes"), "items.attributes"),
        rating=_flag(d.get("rating", False), "items.rating"),
        every=_flag(d.get("every", False), "items.every"),
    )


def _tasks(raw: Any) -> Tasks:
    d = _fields(raw, "tasks", _names(Tasks))
    repeat = d.get("repeat")
    countdown = d.get("countdown")
    if countdown not in (None, ""):
        try:
            dt.date.fromisoformat(str(countdown))
        except ValueError:
            raise SpecError("tasks.countdown must be a date as YYYY-MM-DD (or empty until it is known)") from None
    return Tasks(
        assignees=_texts(d.get("assignees"), "tasks.assignees"),
        repeat=None if repeat is None else _choice(repeat, REPEATS, "tasks.repeat"),
        countdown=None if countdown is None else str(countdown),
        categories=_texts(d.get("categories"), "tasks.categories"),
        event=None if d.get("event") is None else _text(d["event"], "tasks.event"),
        shifts=tuple(_choice(s, SHIFTS, "tasks.shifts") for s in _texts(d.get("shifts"), "tasks.shifts")),
    )


def _conversion(raw: Any, where: str) -> Conversion:
    d = _fields(raw, where, _names(Conversion))
    units = _texts(d.get("units"), f"{where}.units")
    if units and len(units) != 2:
        raise SpecError(f"{where}.units must be a pair: [from, to]")
    rate = d.get("rate")
    return Conversion(
        family=_choice(d.get("family"), CONVERSION_FAMILIES, f"{where}.family"),
        units=units,
        rate=None if rate is None else _number(rate, f"{where}.rate", positive=True),
    )


def _minutes(raw: Any, where: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= 240:
        raise SpecError(f"{where} must be whole minutes from 1 to 240")
    return raw


def _timer(raw: Any) -> Timer:
    d = _fields(raw, "timer", {"work", "rest"})
    return Timer(work=_minutes(d.get("work", 25), "timer.work"), rest=_minutes(d.get("rest", 5), "timer.rest"))


def _deck(raw: Any) -> Deck:
    d = _fields(raw, "deck", {"sides", "review"})
    sides = _texts(d.get("sides"), "deck.sides")
    if sides and len(sides) != 2:
        raise SpecError("deck.sides must be a pair: [front, back]")
    return Deck(sides=sides, review=_flag(d.get("review", True), "deck.review"))


def _plan(raw: Any) -> Plan:
    d = _fields(raw, "plan", {"meals", "days"})
    meals = tuple(
        _choice(m, MEALS, f"plan.meals[{n}]") for n, m in enumerate(d.get("meals") or ["breakfast", "lunch", "dinner"])
    )
    days = d.get("days", 7)
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= 7:
        raise SpecError("plan.days must be a whole number of days from 1 to 7")
    return Plan(meals=tuple(dict.fromkeys(meals)), days=days)


def parse_spec(raw: Any) -> AppSpec:
    """A spec from its JSON form, checked field by field; SpecError names what is wrong."""
    d = _fields(raw, "spec", _names(AppSpec))
    version = d.get("version", SPEC_VERSION)
    if version != SPEC_VERSION:
        raise SpecError(f"spec.version {version!r} is not one this app reads ({SPEC_VERSION})")
    measures = d.get("measures") or []
    conversions = d.get("conversions") or []
    if not isinstance(measures, list) or len(measures) > _MAX_LIST:
        raise SpecError(f"spec.measures must be a list of at most {_MAX_LIST}")
    if not isinstance(conversions, list) or len(conversions) > _MAX_LIST:
        raise SpecError(f"spec.conversions must be a list of at most {_MAX_LIST}")
    parsed = tuple(_measure(m, f"measures[{n}]") for n, m in enumerate(measures))
    keys = [m.key for m in parsed]
    if len(set(keys)) != len(keys):
        raise SpecError("measures must each have their own key")
    journal = d.get("journal")
    if journal is not None:
        kind = _fields(journal, "journal", _names(Journal)).get("kind")
        journal = Journal(_choice(kind, JOURNAL_KINDS, "journal.kind"))
    return AppSpec(
        measures=parsed,
        money=None if d.get("money") is None else _money(d["money"]),
        items=None if d.get("items") is None else _items(d["items"]),
        tasks=None if d.get("tasks") is None else _tasks(d["tasks"]),
        conversions=tuple(_conversion(c, f"conversions[{n}]") for n, c in enumerate(conversions)),
        journal=journal,
        timer=None if d.get("timer") is None else _timer(d["timer"]),
        deck=None if d.get("deck") is None else _deck(d["deck"]),
        plan=None if d.get("plan") is None else _plan(d["plan"]),
    )


def spec_of(manifest: Any) -> AppSpec | None:
    """The spec in an app's macaron.json (parsed), None when it has none or a broken one:
    an app made before specs, or hand-edited, still runs on its config."""
    if not isinstance(manifest, Mapping) or manifest.get("spec") is None:
        return None
    try:
        return parse_spec(manifest["spec"])
    except SpecError:
        return None
