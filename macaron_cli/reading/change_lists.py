"""A change to the list an app keeps, read by kind, not by phrase (en, ja, ko, zh, tl).

Every app keeps its things in one list the page shows: a tracker's habits (its measures), a
budget's spending categories, a chore chart's chores, a meal plan's meals. A change request
names things for it as a list ("stretching, flossing and journaling", "医療費と交通費",
"房租、水电和话费"), one thing after its verb ("add a category for coffee", "간식도 넣어줘",
"加个夜宵"), one thing named in place of another ("no more meditation, do yoga instead",
"不要早睡了，换成冥想"), or one it already keeps to take off ("일기 빼줘", "tanggalin mo na yung laba").
Whichever way, the rule is one: what the app keeps that is named is taken off when the request
takes off or swaps; what is said that the app does not keep yet is added, as said. People are
never things (change_rules' people rule has them), nor is what is code (a chart, a photo).

A thing taken off leaves the list the page shows; its records stay in the app's data.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from macaron_cli import lang
from macaron_cli.reading.change_people import change_people, people_named
from macaron_cli.reading.spec_rules import MEASURES, habit_of
from macaron_cli.spec import AppSpec, Measure

if TYPE_CHECKING:
    from macaron_cli.reading.change_ask import Asked

_ADD = lang.pattern("change.add")
_THING = lang.each("change.thing")
_INSTEAD = lang.each("change.instead")
_LIST_NOUN = lang.pattern("list.kept")
_TOO = rf"(?:\s+(?:{lang.pattern('attribute.too')}))+$"
_BEYOND = tuple(lang.pattern(f"beyond.{what}") for what in lang.BEYOND)


def _found(pattern: str, text: str) -> re.Match[str] | None:
    return re.search(pattern, text, re.IGNORECASE) if pattern else None


def _first_group(patterns: tuple[str, ...], text: str) -> str | None:
    for pattern in patterns:
        m = _found(pattern, text)
        if m:
            return next((g for g in m.groups() if g), None)
    return None


def _clean(thing: str) -> str:
    """A thing as said, without "too" after it nor the name of the list around it."""
    thing = re.sub(_TOO, "", thing.strip(), flags=re.IGNORECASE).strip(" .,!。、")
    thing = re.sub(rf"^(?:{_LIST_NOUN})\s+", "", thing, flags=re.IGNORECASE)  # "categories work and home"
    if re.fullmatch(rf"(?:{_LIST_NOUN})", thing, re.IGNORECASE):
        return ""
    return thing


def _same(a: str, b: str) -> bool:
    return a.casefold().strip() == b.casefold().strip()


def _named(name: str, text: str) -> bool:
    """Does the request name this thing (a whole word in spaced writing, anywhere in glued)?"""
    if not name:
        return False
    if name.isascii():
        return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text, re.IGNORECASE) is not None
    return name.casefold() in text.casefold()


# ── which list ────────────────────────────────────────────────────────────────────────────
def kept_list(spec: AppSpec) -> tuple[str, tuple[str, ...]] | None:
    """The list the app keeps its things in, and what it holds: a meal plan's meals, a budget's
    categories, a chore chart's chores, a tracker's habits (by their names); None for an app
    that keeps no such list (a countdown, a timer, a collection: its fields are items' own)."""
    if spec.plan:
        return "plan", spec.plan.meals
    if spec.money:
        return "money", spec.money.categories
    if spec.tasks and spec.tasks.countdown is None:
        return "tasks", spec.tasks.categories
    if spec.measures:
        return "measures", tuple(n for m in spec.measures for n in dict.fromkeys((m.name, m.key.replace("_", " "))))
    return None


# ── what is said ──────────────────────────────────────────────────────────────────────────
def things_said(text: str, listed: tuple[str, ...], people: list[str]) -> tuple[list[str], str | None]:
    """The things a request names for a list (several listed, else the one after its verb) and
    the one it puts in place of another, as said; never a person it names."""
    not_people = [t for t in (_clean(x) for x in listed) if t and not any(_same(t, p) for p in people)]
    instead = _first_group(_INSTEAD, text)
    instead = _clean(instead) if instead else None
    if len(not_people) >= 2:
        return not_people, instead
    one = one_thing_said(text)
    single = [one] if one and not any(_same(one, p) for p in people) else []
    return single, instead


def one_thing_said(text: str) -> str | None:
    """The one thing a request adds or takes off, after its verb, as said ("add our outing": outing)."""
    one = _first_group(_THING, text)
    return _clean(one) or None if one else None


def _meal(thing: str) -> str | None:
    """The meal a thing said is (おやつ, merienda: a snack), of those a plan can show."""
    return next((m for m in lang.MEALS if _found(lang.pattern(f"meal.{m}"), thing)), None)


def _known_kind(thing: str) -> str | None:
    """The kind of measure the rules know a thing as ("swimming": exercise), where it is one."""
    return next((key for key, kind in MEASURES.items() if _found(kind.words, thing)), None)


# ── a person, not a thing ────────────────────────────────────────────────────────────────
def _keeps_people(spec: AppSpec) -> bool:
    """An app of people: a chore chart (whose turn), money split or owed between people."""
    tasks, money = spec.tasks, spec.money
    return bool((tasks and tasks.countdown is None) or (money and (money.people or money.split or money.debts)))


def _a_person(thing: str, part: str, ask: Asked) -> bool:
    """One word added to an app of people is a person ("add jake to the chore rotation",
    "지호 추가해줘", "娘のはるかも入れて"), unless it is a thing of the app's own kind (a chore, a
    kind of spending) or the request names the list of things it goes in ("a category for")."""
    if not _keeps_people(ask.spec) or _found(_LIST_NOUN, ask.text) or len(thing.split()) > 1:
        return False
    if part == "money" and thing.isascii():
        return False  # a name in letters is capitalised (the people rule's); "add coffee" to split bills is spending
    own = lang.pattern("tasks.chores") if part == "tasks" else "|".join(_SPENDING)
    return not _found(own, thing)


def _as_name(thing: str) -> str:
    """A name as names are written: capitalised in letters ("jake" → "Jake")."""
    return thing[:1].upper() + thing[1:] if thing.isascii() else thing


_SPENDING = tuple(lang.pattern(f"spending.{kind}") for kind in lang.SPENDING)
_WHO_DOES = lang.pattern("tasks.assignees")


# ── the rule ──────────────────────────────────────────────────────────────────────────────
def listed_things(ask: Asked, config: dict) -> None:
    """Things added to, taken off or swapped in the list the app keeps (module docstring)."""
    kept = kept_list(ask.spec)
    if kept is None or ask.new_name or any(_found(words, ask.text) for words in _BEYOND):
        return
    part, names = kept
    of_people = _keeps_people(ask.spec)
    people = people_named(ask.text, ask.slots) if of_people else []
    said, instead = things_said(ask.text, ask.slots.listed, people)
    if of_people and not ask.remove and _found(_WHO_DOES, ask.text):
        # "share it with tom and mia", "민수랑 지영이 담당자로", "分给小王和小李": who does the tasks
        named = [*people, *(_as_name(t) for t in said if _a_person(t, part, ask))]
        if named:
            change_people(ask, list(dict.fromkeys(named)))
            return
    if people:
        return  # the people rule's
    named = [n for n in names if _named(n, ask.text)]
    # "Xにして", "X로 바꿔", "改成X" set a thing in place of another only where the other is named
    swap = instead is not None and bool(named) and not any(_same(instead, n) for n in names)
    instead = instead if swap else None
    if len(said) == 1 and not swap and not ask.remove and _a_person(said[0], part, ask):
        change_people(ask, [_as_name(said[0])])
        return
    gone = named if ask.remove or swap else []
    new = [t for t in [*said, *([instead] if instead else [])] if t]
    new = [t for t in dict.fromkeys(new) if not any(_same(t, n) for n in names)]  # kept already: not new
    if part == "measures" and not swap and len(said) < 2 and not gone:
        new = [t for t in new if _known_kind(t) is None]  # "add coffee": the measures rule, in its unit
    if not ask.remove and not swap:
        gone = []
    if (ask.remove and not swap) or not (swap or _found(_ADD, ask.text)):
        new = []  # things said in a request that sets or takes off are never added
    if not gone and not new:
        if said and not ask.remove and all(any(_same(t, n) for n in names) for t in said):
            ask.already("things", what=ask.listed(said))
        return
    _CHANGE[part](ask, gone, new, config)


def _measures(ask: Asked, gone: list[str], new: list[str], config: dict) -> None:
    """Habits taken off (by name or key) and added, each as said (spec_rules.habit_of)."""
    kept = tuple(m for m in ask.spec.measures if not any(_same(g, n) for g in gone for n in (m.name, _key_said(m))))
    if not kept and not new:
        ask.cannot("remove_all")
        return
    settings = {"units": config.get("units", "metric"), "currency": config.get("currency", "USD")}
    added: list[Measure] = []
    for thing in new:
        added.append(habit_of(thing, settings, {m.key for m in (*kept, *added)}))
    ask.spec = replace(ask.spec, measures=kept + tuple(added))
    _said_done(ask, gone, [m.name for m in added])


def _key_said(measure: Measure) -> str:
    return measure.key.replace("_", " ")


def _categories(part: str) -> Callable[[Asked, list[str], list[str], dict], None]:
    """A budget's spending categories, a chore chart's chores: the spec part's `categories`."""

    def change(ask: Asked, gone: list[str], new: list[str], config: dict) -> None:
        kept = getattr(ask.spec, part)
        categories = tuple(c for c in kept.categories if not any(_same(c, g) for g in gone)) + tuple(new)
        ask.spec = replace(ask.spec, **{part: replace(kept, categories=categories)})
        _said_done(ask, gone, new)

    return change


def _plan(ask: Asked, gone: list[str], new: list[str], config: dict) -> None:
    """Meals of a day planned: only those a plan shows (a snack row, not "dessert")."""
    plan = ask.spec.plan
    assert plan is not None
    added = [m for m in (_meal(t) for t in new) if m and m not in plan.meals]
    meals = tuple(m for m in lang.MEALS if (m in plan.meals and m not in gone) or m in added)
    if meals == plan.meals:
        return
    if not meals:
        ask.cannot("remove_all")
        return
    ask.spec = replace(ask.spec, plan=replace(plan, meals=meals))
    _said_done(ask, [g for g in gone if g in plan.meals], added)


def _said_done(ask: Asked, gone: list[str], new: list[str]) -> None:
    if gone:
        ask.done.append(f"took off {', '.join(gone)} (its records kept)")
    if new:
        ask.done.append(f"added {', '.join(new)}")
    ask.touched.add("things")


_CHANGE = {"measures": _measures, "money": _categories("money"), "tasks": _categories("tasks"), "plan": _plan}
