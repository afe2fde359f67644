"""Writing an app's spec from the idea by rules, with no model (en, ja, ko, zh, tl).

The rules read what people say ("毎朝の体重", "几杯咖啡", "blood pressure morning and
evening", "listahan ng mga utang ko") for the few things a spec holds: which measures
with which units, whether money is split or owed, a collection of items with a rating,
chores with people and repeats, a countdown, which unit families to convert, a journal.
A model, when there is one, writes the spec itself (validated the same way).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum, auto

from macaron_cli import lang
from macaron_cli.reading.idea import Reading, reading_of
from macaron_cli.reading.slots import OTHER_SYSTEM, Slots, read
from macaron_cli.spec import AppSpec, Conversion, Items, Journal, Measure, Money, Tasks


def _found(pattern: str, text: str) -> re.Match[str] | None:
    return re.search(pattern, text, re.IGNORECASE)


# ── measures ─────────────────────────────────────────────────────────────────────────────
class Unit(StrEnum):
    """The units a rule keeps a measure in, by name: identifiers of the spec, not words (a
    unit's words are lang's unit.<name>). A Measure holds the plain string (str(Unit.cups))."""

    # readings
    mmHg, mg_dL, mmol_L = "mmHg", "mg/dL", "mmol/L"
    bpm, percent = auto(), auto()
    # volumes, weights, distances and paces
    milliliter, liter, cups, glasses = auto(), auto(), auto(), auto()
    kilogram, pound = auto(), auto()
    kilometer, mile = auto(), auto()
    min_km, min_mi = "min/km", "min/mi"
    # durations
    hour, minute = auto(), auto()
    # counts: times is a tick (taken or done, once a day)
    steps, times, pages, servings = auto(), auto(), auto(), auto()


@dataclass(frozen=True)
class _Kind:
    """One kind of measure people log, its sensible defaults and the words that name it."""

    unit: str
    kind: str
    goal: float | None
    step: float
    free_entry: bool = False
    values: tuple[str, ...] = ()
    drink: bool = False  # a drink of its own: water is not counted beside it
    combine: str = "sum"  # a reading (weight, blood pressure) is its latest, never a sum
    words: str = ""


def _kinds(**kinds: _Kind) -> dict[str, _Kind]:
    """Each kind by its spec key (an identifier, not a word): its words are lang's measure.<key>."""
    return {
        key: replace(kind, unit=str(kind.unit), words=lang.pattern(f"measure.{key}")) for key, kind in kinds.items()
    }


# Order matters where words overlap: blood pressure before pressure-free words, coffee and tea
# before water ("drink"), body weight before the converter's weights.
MEASURES: dict[str, _Kind] = _kinds(
    blood_pressure=_Kind(
        Unit.mmHg, "quantity", None, 1, free_entry=True, values=("systolic", "diastolic"), combine="latest"
    ),
    blood_sugar=_Kind(Unit.mg_dL, "quantity", None, 1, free_entry=True, combine="latest"),
    pulse=_Kind(Unit.bpm, "quantity", None, 1, free_entry=True, combine="latest"),
    body_fat=_Kind(Unit.percent, "quantity", None, 0.1, free_entry=True, combine="latest"),
    feeding=_Kind(Unit.milliliter, "quantity", None, 10, free_entry=True),
    body_weight=_Kind(Unit.kilogram, "quantity", None, 0.1, free_entry=True, combine="latest"),
    coffee=_Kind(Unit.cups, "count", None, 1, drink=True),
    tea=_Kind(Unit.cups, "count", None, 1, drink=True),
    water=_Kind(Unit.milliliter, "quantity", 2000, 250),
    sleep=_Kind(Unit.hour, "duration", 8, 0.5, free_entry=True),
    steps=_Kind(Unit.steps, "count", 8000, 1000, free_entry=True),
    medication=_Kind(Unit.times, "count", 1, 1),
    exercise=_Kind(Unit.minute, "duration", 30, 10, free_entry=True),
    stretching=_Kind(Unit.minute, "duration", 10, 5),
    reading=_Kind(Unit.pages, "count", 20, 5, free_entry=True),
    meditation=_Kind(Unit.minute, "duration", 10, 5),
    practice=_Kind(Unit.minute, "duration", 20, 10, free_entry=True),
    vegetables=_Kind(Unit.servings, "count", 5, 1),
    glasses=_Kind(Unit.glasses, "count", None, 1),
)
# Measures that follow from another's words and a unit said (a run in km; how long it took).
_KINDS = MEASURES | {
    "running": _Kind(str(Unit.kilometer), "quantity", None, 0.1, free_entry=True),
    "run_time": _Kind(str(Unit.minute), "duration", None, 1, free_entry=True),
    "pace": _Kind(str(Unit.min_km), "quantity", None, 0.1, free_entry=True, combine="average"),
}
# Words in lang/: a unit asked for by name wins over the measure's own ("cups of water",
# "how many glasses": asked_unit.<unit>); a thing counted that is none of the kinds above
# ("how many times I called mum": counted); measure.morning, measure.evening, measure.twice.

# A run's pace is in minutes per the distance's unit.
_PACE: dict[str, str] = {Unit.kilometer: Unit.min_km, Unit.mile: Unit.min_mi}
# A goal said in one unit, for a measure kept in another ("2 litres" of water kept in ml).
_SCALE: dict[tuple[str, str], float] = {
    (Unit.liter, Unit.milliliter): 1000,
    (Unit.hour, Unit.minute): 60,
    (Unit.minute, Unit.hour): 1 / 60,
}


def _unit_of(key: str, kind: _Kind, text: str, app_settings: dict, slots: Slots) -> tuple[str, float | None, float]:
    """The unit a measure is kept in: the one the idea said (not one it refused), else the
    person's ways (imperial, cups), else the kind's own; with the goal and step in it."""
    unit, goal, step = kind.unit, kind.goal, kind.step
    said = [u for u in slots.units if u not in slots.refused]
    refused_other = [OTHER_SYSTEM[u] for u in slots.refused if u in OTHER_SYSTEM]
    if key == "water" and (app_settings.get("volume_unit") == "cup" or _found(lang.pattern("asked_unit.cups"), text)):
        unit, goal, step = Unit.cups, 8, 1
    elif key == "water" and _found(lang.pattern("asked_unit.glasses"), text):
        unit, goal, step = Unit.glasses, 8, 1
    elif key == "body_weight":
        chosen = next((u for u in [*said, *refused_other] if u in (Unit.kilogram, Unit.pound)), None)
        unit = chosen or (Unit.pound if app_settings.get("units") == "imperial" else Unit.kilogram)
        step = 0.2 if unit == Unit.pound else step
    elif key == "blood_sugar":
        unit = next((u for u in [*said, *refused_other] if u in (Unit.mmol_L, Unit.mg_dL)), unit)
        step = 0.1 if unit == Unit.mmol_L else step
    elif key in ("running", "pace"):
        usual = Unit.mile if app_settings.get("units") == "imperial" else Unit.kilometer
        distance = next((u for u in [*said, *refused_other] if u in (Unit.kilometer, Unit.mile)), usual)
        unit = distance if key == "running" else _PACE[distance]
    elif key == "steps" and _found(lang.pattern("measure.steps_in_km"), text):
        unit, goal, step = Unit.kilometer, 5, 0.5
    if slots.goal is not None:
        factor = 1.0 if slots.goal.unit in ("", unit) else _SCALE.get((slots.goal.unit, unit))
        if factor is not None:
            goal = round(slots.goal.value * factor, 2)
    return str(unit), goal, step


def _measure(key: str, kind: _Kind, text: str, app_settings: dict, name: str, slots: Slots) -> Measure:
    unit, goal, step = _unit_of(key, kind, text, app_settings, slots)
    measured, free_entry = kind.kind, kind.free_entry
    if slots.check and not kind.values:  # "did I stretch, just a tick": done or not, once a day
        unit, goal, step, measured, free_entry = str(Unit.times), 1, 1, "count", False
    times: tuple[str, ...] = ()
    if (_found(lang.pattern("measure.morning"), text) and _found(lang.pattern("measure.evening"), text)) or _found(
        lang.pattern("measure.twice"), text
    ):
        times = ("morning", "evening")
    elif _found(lang.pattern("measure.morning"), text):
        times = ("morning",)
    elif _found(lang.pattern("measure.evening"), text) and key not in ("sleep",):
        times = ("evening",)
    if key not in ("sleep", "steps", "water"):  # occasions: a reading before and after meals
        occasions = tuple(t for t in slots.times if t in ("fasting", "after_meal", "afternoon"))
        times = tuple(dict.fromkeys([*occasions, *times])) if occasions else times
    # "15 miles a week": the goal said counts the week's entries (a day's goal needs no period)
    said_goal = slots.goal is not None and (slots.goal.unit in ("", unit) or (slots.goal.unit, unit) in _SCALE)
    period = slots.period if said_goal and slots.period in ("weekly", "monthly") and goal is not None else None
    return Measure(
        key=key,
        name=name,
        unit=unit,
        kind=measured,
        goal=goal,
        step=step,
        free_entry=free_entry,
        values=kind.values,
        times=times,
        combine=kind.combine,
        period=period,
    )


def measures_of(text: str, app_settings: dict, name: str, slots: Slots | None = None) -> list[Measure]:
    """The measures an idea names, in the order it names them."""
    slots = slots or read(text)
    found: list[tuple[int, str]] = []
    for key, kind in MEASURES.items():
        match = _found(kind.words, text)
        if match:
            found.append((match.start(), key))
    keys = [key for _, key in sorted(found)]
    # A unit word is not a thing of its own when something else is counted in it.
    if len(keys) > 1 and "glasses" in keys:
        keys.remove("glasses")
    if any(MEASURES[k].drink for k in keys):
        keys = [k for k in keys if k not in ("water", "glasses")]
    if "blood_pressure" in keys:
        keys = [k for k in keys if k != "body_weight" or _found(lang.pattern("weight.beside_pressure"), text)]
    if "feeding" in keys:  # a baby's milk is fed, not drunk as the person's water
        keys = [k for k in keys if k not in ("water", "glasses", "medication")]
    if "body_fat" in keys and not _found(lang.pattern("weight.beside_fat"), text):
        keys = [k for k in keys if k != "body_weight"]  # "body fat" is not a weight of its own
    if slots.check and "medication" in keys:  # "did I take my blood-pressure pill": taken or not, no reading
        keys = [k for k in keys if k not in ("blood_pressure", "blood_sugar", "pulse")]
    if (
        "exercise" in keys
        and _found(lang.pattern("distance"), text)
        and ({"kilometer", "mile"} & {*slots.units, *slots.refused} or _found(lang.pattern("run.distance"), text))
    ):
        keys[keys.index("exercise")] = "running"  # a distance run, in the unit said
        if _found(lang.pattern("run.timed"), text):
            keys.append("run_time")
        if _found(_FAMILIES["pace"], text):
            keys.append("pace")  # minutes per km, beside the distance
    label = name if len(keys) == 1 else ""
    return [_measure(k, _KINDS[k], text, app_settings, label or k.replace("_", " "), slots) for k in keys]


def habit_of(thing: str, app_settings: dict, taken: set[str]) -> Measure:
    """One habit, named as said ("swimming", "筋トレ", "flossing"): in its kind's unit where
    the rules know its kind (swimming: minutes), else done or not once a day; its key never
    one taken (a key is what the app's records use)."""
    kind = next((key for key, k in MEASURES.items() if _found(k.words, thing)), None)
    known = [m for m in measures_of(thing, app_settings, thing, read(thing)) if m.key == kind] if kind else []
    if known and known[0].key not in taken:
        return replace(known[0], name=thing)
    measure = known[0] if known else Measure(key="habit", name=thing, unit=str(Unit.times), goal=1, combine="sum")
    return replace(measure, key=_free_key(thing, taken), name=thing)


def _free_key(thing: str, taken: set[str]) -> str:
    """A key for a new measure, from its name where it is written in letters, never one taken."""
    base = re.sub(r"[^a-z0-9]+", "_", thing.casefold()).strip("_")[:32] if thing.isascii() else ""
    base = base if re.match(r"^[a-z]", base) else "habit"
    key, n = base, 2
    while key in taken:
        key, n = f"{base}_{n}", n + 1
    return key


def habits_listed(text: str, slots: Slots, app_settings: dict) -> tuple[Measure, ...]:
    """Habits named as such and listed ("habit tracker for running, reading and meditation",
    "운동, 독서, 일기 습관 트래커"): each a measure, as said, whatever else its words could name
    (일기 is a diary, 背单词 a deck: here each is a habit)."""
    if len(slots.listed) < 2 or not _found(lang.pattern("habit.named"), text):
        return ()
    habits: list[Measure] = []
    for thing in slots.listed:
        habits.append(habit_of(thing, app_settings, {m.key for m in habits}))
    return tuple(habits)


def other_measure(text: str, name: str) -> Measure:
    """One thing to count that no kind names: counted in the unit the idea asks for (a tick
    a day when it asks only whether it was done)."""
    if read(text).check:
        return Measure(key="habit", name=name, unit=str(Unit.times), kind="count", goal=1, step=1, combine="sum")
    unit = next((u for u in lang.ASKED_UNITS if _found(lang.pattern(f"asked_unit.{u}"), text)), str(Unit.times))
    kind = "duration" if unit in (Unit.hour, Unit.minute) else "count"
    goal = read(text).goal  # "目标50个": a goal said without a unit is in what is counted
    goal_value = goal.value if goal is not None and goal.unit in ("", unit) else None
    return Measure(
        key="habit",
        name=name,
        unit=unit,
        kind=kind,
        goal=goal_value,
        step=1,
        free_entry=unit != Unit.times,
        combine="sum",
    )


# ── money ────────────────────────────────────────────────────────────────────────────────
# Money's words are lang's money.debts, money.split and money.said; kinds of spending by the
# budget's own category keys (translated there) are lang's spending.<key>.

# A monthly budget of the same weight in each currency (round figures a person would set).
MONTHLY_BUDGET = {
    "USD": 1500,
    "EUR": 1500,
    "GBP": 1200,
    "JPY": 200_000,
    "KRW": 2_000_000,
    "CNY": 10_000,
    "PHP": 50_000,
    "TWD": 40_000,
    "HKD": 12_000,
    "INR": 50_000,
}


def money_of(text: str, app_settings: dict, *, conversion: bool, slots: Slots | None = None) -> Money | None:
    """Money the idea keeps: in the currency it names (else the person's); a savings target
    said is a goal for deposits, never a budget they overspend; the people it is shared with."""
    slots = slots or read(text)
    debts, split = bool(_found(lang.pattern("money.debts"), text)), bool(_found(lang.pattern("money.split"), text))
    said = slots.target or slots.budget
    saving = _found(lang.pattern("saving"), text)  # "ipon tracker", "결혼 자금 모으기": money put by, its sum unsaid
    if not (debts or split or ((_found(lang.pattern("money.said"), text) or said or saving) and not conversion)):
        return None
    currency = slots.currency or str(app_settings.get("currency") or "USD")
    people = slots.people
    if (debts or split) and people and "me" not in people:
        people = ("me", *people)  # the person is one side of every debt and every split
    if slots.target or (saving and slots.rate):
        # Deposits toward it, in a category of their own: never counted against a budget; what
        # is put by each month beside it ("毎月3万円ずつ").
        target = slots.target.value if slots.target else None
        rate = slots.rate.value if slots.rate else None
        return Money(currency, ("savings",), people, debts=debts, split=split, target=target, rate=rate)
    # A budget said; a budget asked for without its figure ("a monthly budget planner"): the
    # usual one; else none (nobody asked for it), and never for money shared or lent.
    asked = not (debts or split) and _found(lang.pattern("budget.named"), text)
    budget = slots.budget.value if slots.budget else MONTHLY_BUDGET.get(currency) if asked else None
    # "groceries + gas + eating out", "分餐饮、交通、购物"; else the one kind of spending named (食費)
    categories = slots.listed or tuple(k for k in lang.SPENDING if _found(lang.pattern(f"spending.{k}"), text))[:1]
    return Money(currency, categories, people, debts=debts, split=split, budget=budget)


# ── items: a collection ──────────────────────────────────────────────────────────────────
# Each kind of item by its spec name (an identifier, not a word), with what each item records;
# its words are lang's item.<kind>; rated and collected are items.rated and items.collected.
def _items(**kinds: tuple[str, ...]) -> dict[str, tuple[str, tuple[str, ...]]]:
    return {name: (lang.pattern(f"item.{name}"), attributes) for name, attributes in kinds.items()}


_ITEMS = _items(
    book=("author", "lent to"),
    film=("year", "where"),
    restaurant=("place", "dish"),
    wine=("region", "price"),
    recipe=("ingredients",),
    plant=("watered",),
    game=("platform",),
)
_RATING = lang.pattern("items.rated")
_COLLECTION = lang.pattern("items.collected")


def items_of(text: str, slots: Slots | None = None) -> Items | None:
    slots = slots or read(text)
    rated = bool(_found(_RATING, text))
    said = slots.listed + ((slots.with_whom,) if slots.with_whom else ())  # the details each item records
    for name, (words, attributes) in _ITEMS.items():
        watering = _found(lang.pattern("items.watered"), text)
        plants = _found(words, text)  # watering plants is care with a rhythm, every few days said or not
        if name == "plant" and ((slots.every and (plants or watering)) or (plants and watering)):
            return Items(name=name, attributes=said, rating=rated, every=True)  # last watered: the care itself
        if said and _found(words, text) and (rated or _found(_COLLECTION, text)):
            return Items(name=name, attributes=said, rating=rated)  # the details said, in order
        if _found(words, text) and (rated or _found(_COLLECTION, text)):
            if (
                name == "book"
                and _found(MEASURES["reading"].words, text)
                and not rated
                and not _found(lang.pattern("items.lent"), text)
            ):
                return None  # reading books is a habit, unless they are kept as a list
            return Items(name=name, attributes=attributes, rating=rated)
    if slots.item and (said or rated) and _found(_COLLECTION, text):  # a list of a thing no kind names (茶叶)
        return Items(name=slots.item, attributes=said, rating=rated)
    return None


# ── tasks: chores, repeats, countdowns ─────────────────────────────────────────────────────
# Tasks' words are lang's tasks.<concept>: chores, things to do, who does them, weekly,
# daily and countdowns.


def tasks_of(text: str, slots: Slots | None = None) -> Tasks | None:
    slots = slots or read(text)
    countdown = bool(_found(lang.pattern("tasks.countdown"), text))
    if not (countdown or _found(lang.pattern("tasks.said") + "|" + lang.pattern("tasks.chores"), text)):
        return None
    chores = bool(_found(lang.pattern("tasks.chores"), text))
    people = slots.people or (("me", "you") if chores and _found(lang.pattern("tasks.assignees"), text) else ())
    weekly, daily = _found(lang.pattern("tasks.weekly"), text), _found(lang.pattern("tasks.daily"), text)
    repeat = "weekly" if weekly else ("daily" if chores and daily else None)
    if countdown:
        return Tasks(countdown=slots.date or "", event=slots.event)
    # A rota's shifts: the times of day said ("mornings and evenings", "早班晚班", "오전 오후").
    shifts = tuple(t for t in slots.times if t in ("morning", "afternoon", "evening"))
    # the chores listed ("chore chart: hugas pinggan, laba, luto"): what the chart's tasks are
    listed = slots.listed if chores else ()
    return Tasks(assignees=people, repeat=repeat, categories=listed, shifts=shifts)


# ── conversions ──────────────────────────────────────────────────────────────────────────
# Asking to convert, keeping a record, the verb itself: lang's convert.asked, convert.keeping
# and convert.verb.
# A family to convert, by its words (lang's conversion.<family>), in the order tried.
_FAMILIES = {family: lang.pattern(f"conversion.{family}") for family in lang.CONVERSIONS}


# The pair a tab opens with, when the person's ways say so: cooking in cups, to grams or
# spoons; volumes in cups for someone who measures in cups.
_COOKING_PAIR = {"metric": ("cup", "gram"), "imperial": ("cup", "tablespoon")}


def _opening(family: str, app_settings: dict) -> tuple[str, ...]:
    if family == "cooking":
        return _COOKING_PAIR.get(str(app_settings.get("units")), _COOKING_PAIR["metric"])
    if family == "volume" and app_settings.get("volume_unit") == "cup":
        return ("cup", "milliliter")
    return ()


# Units people convert between: two of them named is a conversion ("fahrenheit … celsius").
_UNITS = lang.pattern("conversion.units")


def converting(text: str, slots: Slots | None = None) -> bool:
    """Whether the idea asks to convert: a verb of converting, or two units named (a unit
    refused is not one of them: "in kg, not pounds" keeps a record in kg)."""
    slots = slots or read(text)
    if slots.refused or _found(
        lang.pattern("convert.keeping"), text
    ):  # "log it in kilos, not pounds": a record in one unit
        return bool(_found(lang.pattern("convert.verb"), text))
    if _found(lang.pattern("convert.asked"), text):
        return True
    if _found(_FAMILIES["pace"], text) and not _found(lang.pattern("distance"), text):
        return True  # a pace beside a run is something the run records
    named = {m.group(0).casefold() for m in re.finditer(_UNITS, text, re.IGNORECASE)}
    return len(named) >= 2


# Units a converter names, as people write them: family → unit id (the converter's) → words.
_CONVERTER_UNITS: dict[str, dict[str, str]] = {
    family: {unit: lang.pattern(f"converter.{family}.{unit}") for unit in units}
    for family, units in lang.CONVERTER_UNITS.items()
}


def _said_pair(family: str, text: str) -> tuple[str, ...]:
    """The two units of a family the idea names, in the order it names them ("oz to grams")."""
    found = []
    for unit, words in _CONVERTER_UNITS.get(family, {}).items():
        m = _found(words, text)
        if m:
            found.append((m.start(), unit))
    units = [u for _, u in sorted(found)]
    return tuple(units[:2]) if len(units) >= 2 else ()


def conversions_of(text: str, app_settings: dict) -> list[Conversion]:
    found = []
    for family, words in _FAMILIES.items():
        match = _found(words, text)
        if match:
            found.append((match.start(), family))
    families = [f for _, f in sorted(found)]
    if "pace" in families:  # a pace is in minutes per km or mile: not a length of its own
        families = [f for f in families if f != "length"]
    if "cooking" in families and "volume" not in families and app_settings.get("volume_unit") == "cup":
        families.append("volume")  # a cook who measures in cups converts volumes in cups too
    if "cooking" in families and _said_pair("weight", text) and not _said_pair("cooking", text):
        families = ["weight" if f == "cooking" else f for f in families]  # "oz to grams when baking": weights
        families = list(dict.fromkeys(families))
    return [Conversion(family=f, units=_said_pair(f, text) or _opening(f, app_settings)) for f in families]


# ── journal ──────────────────────────────────────────────────────────────────────────────
# A journal's words are lang's journal.<concept>: mood, food, diary (what makes a diary of
# anything logged: "a mood diary", "気分の日記") and logged.


def journal_of(text: str) -> Journal | None:
    if _found(lang.pattern("journal.food"), text) and (
        _found(lang.pattern("journal.logged"), text) or not _found(lang.pattern("money.said"), text)
    ):
        return Journal("food")
    if _found(lang.pattern("journal.mood"), text):
        return Journal("mood")
    return None


# ── the spec ─────────────────────────────────────────────────────────────────────────────


def _family_of(text: str, slots: Slots) -> AppSpec | None:
    """An app named by what it is (a pomodoro timer), whatever else the idea mentions."""
    from macaron_cli.reading.spec_families import deck_of, plan_of, timer_of

    timer = timer_of(text, slots)
    if timer:
        return AppSpec(timer=timer)
    deck = deck_of(text)
    if deck:
        return AppSpec(deck=deck)
    plan = plan_of(text)
    return AppSpec(plan=plan) if plan else None


def write_spec(idea: str | Reading, app_settings: dict, name: str) -> AppSpec:
    """The spec an idea (or its Reading) asks for, by rules; `name` is the app's title (what a
    lone measure is called). One main shape, as a person asks for one thing, plus what it implies."""
    reading = reading_of(idea)
    text, slots = reading.idea, reading.said
    habits = habits_listed(text, slots, app_settings)
    if habits:
        return AppSpec(measures=habits)
    family = _family_of(text, slots)
    if family is not None:
        return family
    conversions = conversions_of(text, app_settings) if converting(text, slots) else []
    if conversions:
        if any(c.family == "currency" for c in conversions):
            conversions = [c for c in conversions if c.family == "currency"] + [
                c for c in conversions if c.family != "currency"
            ]
        return AppSpec(conversions=tuple(conversions))
    if _found(lang.pattern("calculator"), text):
        return AppSpec()  # sums to work out: no record kept, the closest template's calculator
    items = items_of(text, slots)
    if items:
        return AppSpec(items=items)
    tasks = tasks_of(text, slots)
    money = money_of(text, app_settings, conversion=False, slots=slots)
    owed = bool(money and (money.debts or money.target))
    if tasks and not owed and (tasks.countdown is not None or tasks.assignees or not money):
        return AppSpec(tasks=tasks)
    if money:
        return AppSpec(money=money)
    measures = measures_of(text, app_settings, name, slots)
    journal = journal_of(text)
    if journal and (
        not measures or (_found(lang.pattern("journal.diary"), text) and not _found(lang.pattern("counted"), text))
    ):
        return AppSpec(journal=journal)
    if measures:
        return AppSpec(measures=tuple(measures))
    if tasks:
        return AppSpec(tasks=tasks)
    if _found(lang.pattern("counted"), text) or _found(lang.pattern("habit"), text):
        return AppSpec(measures=(other_measure(text, name),))
    return AppSpec()


def titled(spec: AppSpec, name: str) -> AppSpec:
    """The spec written with no name, its lone measure called `name` (the app's title), as
    write_spec(idea, app_settings, name) writes it: the same spec, named once it is chosen on."""
    if not name or len(spec.measures) != 1:
        return spec
    return replace(spec, measures=(replace(spec.measures[0], name=name),))


def measure_keys() -> tuple[str, ...]:
    """Every measure the rules can write (what a tracker must name and draw)."""
    return tuple(_KINDS)
