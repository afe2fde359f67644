"""Reading a change to an existing app by rules, with no model (en, ja, ko, zh, tl).

A change request ("add my pulse", "Sam moved out", "目標を3リットルに", "달러로") is read
with make's own understanding: the slots (slots.py) and the kinds of measure, item and money
the spec rules know (spec_rules.py). Each rule below edits one part of the app's current spec
or settings; what no rule can do is named in `missing`, never pretended.

Nothing here touches the person's records: a removed measure leaves the spec (the app stops
showing it) while its rows stay in the app's data; a renamed measure keeps its key.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from macaron_cli import lang
from macaron_cli.manifest import Manifest
from macaron_cli.reading.change import Change
from macaron_cli.reading.change_ask import Asked
from macaron_cli.reading.change_lists import listed_things, one_thing_said
from macaron_cli.reading.change_numbers import (
    DEPOSIT,
    PERIOD,
    goal_in_its_own_unit,
    goal_period,
    goal_period_unshown,
    money_kept,
    monthly_deposit,
    saves,
    timer_minutes,
    unit_already,
    unit_words_follow,
)
from macaron_cli.reading.change_people import people_rule
from macaron_cli.reading.idea import read_idea
from macaron_cli.reading.slots import Slots
from macaron_cli.reading.spec_rules import _RATING, _SCALE, MEASURES, measures_of
from macaron_cli.resources import shared_module
from macaron_cli.spec import AppSpec, Items, Measure, Tasks, missing


def _found(pattern: str, text: str) -> re.Match[str] | None:
    return re.search(pattern, text, re.IGNORECASE)


# Asking to remove, add, rename or set: lang's change.remove, change.add, change.rename, change.set.
# A line that asks an app to change at all (those, and the verbs that set a value): the chat asks
# no more of a line that names one of the person's apps (friend/changes.py).
_REMOVE = lang.pattern("change.remove")
_ADD = lang.pattern("change.add")
_RENAME = lang.pattern("change.rename")
_SET = lang.pattern("change.set")


def asks_a_change(text: str) -> bool:
    """Does the line ask for something to be added, removed, renamed or set?"""
    return any(_found(words, text) for words in (_ADD, _REMOVE, _RENAME, _SET))


_QUOTED = r"[“\"「『‘'](.+?)[”\"」』’']"
_NEW_NAME = lang.pattern("rename.to")  # the new name, in a group (none where the particle says it)
# The languages an app may be shown in, named (lang's app_language.<code>); the unit systems.
_LANGUAGES = {code: lang.pattern(f"app_language.{code}") for code in lang.APP_LANGUAGES}
_IMPERIAL = lang.pattern("change.imperial")
_METRIC = lang.pattern("change.metric")
_SYSTEM_OF = {"pound": "imperial", "mile": "imperial", "inch": "imperial"}
_SYSTEM_OF |= {"kilogram": "metric", "kilometer": "metric", "centimeter": "metric"}
# Units a count of water is kept in, with the step that fits each (how much each is: the
# units table's unit_factor, the one the app's records follow).
_unit_factor = shared_module("app_units").unit_factor
# The metric unit each imperial one is shown for (the units table's, read backwards; the first
# metric unit where two share one: fluid ounces were millilitres).
_METRIC_OF = {shown: metric for metric, (shown, _) in reversed(shared_module("app_units").IMPERIAL.items())}
_amount = shared_module("app_units").written  # "3,000 mL", as the app writes it
_WATER_UNITS = {"cups": 1, "glasses": 1, "milliliter": 250}
_WATER_GOAL_ML = 2000  # a day's water when the app had no goal
_TIMES = ("morning", "afternoon", "evening", "fasting", "after_meal")
# What people ask of an app that is code, not settings: said with how to get it.
# Each is said by lang's line cannot.<what> ("a dark mode"); "add a chart", not the app's own
# name ("the chores chart").
_BEYOND = {what: lang.pattern(f"beyond.{what}") for what in lang.BEYOND}


def understand(request: str, spec: AppSpec, config: dict, manifest: Manifest) -> Change:
    """The request applied to the app's spec and settings, by rules: read once, by the reader
    that reads a make's idea (reading/idea.py), into the change a Plan carries."""
    from macaron_cli.reading.personal import idea_language

    reading = read_idea(request)
    text = reading.idea
    # A new name is the person's words, not more asks: "rename it to 'Morning water'" sets no
    # time of day, so every other rule reads the request without it.
    name = _new_name(text)
    rest, said = (text.replace(name, " "), read_idea(text.replace(name, " ")).said) if name else (text, reading.said)
    ask = Asked(rest, said, bool(_found(_REMOVE, rest)), spec, {}, manifest, [], [], set(), new_name=name, before=spec)
    ask.language = idea_language(text, fallback=str(config.get("language") or "en"))
    for rule in _RULES:
        before = (ask.spec, dict(ask.settings), len(ask.done))
        rule(ask, config)
        new_needs = set(missing(ask.spec, manifest)) - set(missing(before[0], manifest))
        if new_needs:  # the template cannot show it: say so, write none of it
            from macaron_cli.spec import in_words

            words = "; ".join(in_words(n) for n in sorted(new_needs))
            ask.cannot("not_shown", what=words, template=manifest.template or "app")
            ask.spec, ask.settings, ask.done[:] = before[0], before[1], ask.done[: before[2]]
    for what, words in _BEYOND.items():
        if _found(words, text):
            ask.cannot(what)
    unread = not ask.done and not ask.missing and not ask.held
    if unread:
        ask.no_rule_reads(text)
    already = tuple(dict.fromkeys(ask.held)) if not ask.done else ()
    missed = tuple(dict.fromkeys(ask.missing))
    return Change(
        request, spec, ask.spec, config, ask.settings, tuple(ask.done), missed, already, unread, ask.language, manifest
    )


# ── measures ─────────────────────────────────────────────────────────────────────────────
def _named_keys(text: str, spec: AppSpec) -> list[str]:
    """The kinds of measure the request names, by make's own words, in the order named."""
    found = sorted((m.start(), key) for key, kind in MEASURES.items() if (m := _found(kind.words, text)))
    keys = [key for _, key in found]
    if any(m.key == "water" for m in spec.measures):  # "in glasses" is water's unit, not a thing of its own
        keys = [k for k in keys if k != "glasses"]
    for measure in spec.measures:  # a measure by the name the person gave it
        if measure.key not in keys and measure.name and measure.name.casefold() in text.casefold():
            keys.append(measure.key)
    return keys


def _measures(ask: Asked, config: dict) -> None:
    if _found(_RENAME, ask.text) or "things" in ask.touched:  # a list's things: change_lists did them
        return
    keys = _named_keys(ask.text, ask.spec)
    ask.touched.update(keys)
    have = {m.key for m in ask.spec.measures}
    if ask.remove:
        gone = [k for k in keys if k in have]
        if keys and not gone:
            ask.cannot("not_tracked", what=", ".join(k.replace("_", " ") for k in keys))
            return
        if gone and len(gone) == len(have):
            ask.cannot("remove_all")
            return
        if gone:
            kept = tuple(m for m in ask.spec.measures if m.key not in gone)
            ask.spec = replace(ask.spec, measures=kept)
            shown = ", ".join(k.replace("_", " ") for k in gone)
            ask.done.append(f"stopped showing {shown} (its records kept)")
        return
    new = [k for k in keys if k not in have]
    if not new:
        return
    if not ask.spec.measures:
        ask.cannot("no_measures", what=", ".join(new))
        return
    settings = {"units": config.get("units", "metric"), "currency": config.get("currency", "USD")}
    made = [m for m in measures_of(ask.text, settings, "", ask.slots) if m.key in new]
    made = [replace(m, name=m.key.replace("_", " "), goal=m.goal if ask.slots.goal is None else None) for m in made]
    if made:
        ask.spec = replace(ask.spec, measures=ask.spec.measures + tuple(made))
        ask.done.append("added " + ", ".join(f"{m.name} ({m.unit})" for m in made))


def _target_measure(ask: Asked) -> Measure | None:
    """The measure a goal, unit or time is about: the one named, else the only one."""
    named = [m for m in ask.spec.measures if m.key in ask.touched]
    if named:
        return named[0]
    return ask.spec.measures[0] if len(ask.spec.measures) == 1 else None


def _replace_measure(ask: Asked, measure: Measure) -> None:
    ask.spec = replace(ask.spec, measures=tuple(measure if m.key == measure.key else m for m in ask.spec.measures))


def _new_name(text: str) -> str | None:
    """The name a rename asks for (quoted, or after lang's rename.to), or None."""
    if not _found(_RENAME, text):
        return None
    quoted = re.search(_QUOTED, text)
    said = re.search(_NEW_NAME, text, re.IGNORECASE)
    name = quoted.group(1) if quoted else next((g for g in (said.groups() if said else ()) if g), None)
    return (name or "").strip(" .!。") or None


def _rename(ask: Asked, config: dict) -> None:
    """A new name: the app's title, or a measure's (its key, which its records use, kept)."""
    if not _found(_RENAME, ask.text):
        return
    name = ask.new_name
    if not name:
        ask.cannot("new_name")
        return
    keys = [k for k in _named_keys(ask.text, ask.spec) if k in {m.key for m in ask.spec.measures}]
    if keys:
        measure = next(m for m in ask.spec.measures if m.key == keys[0])
        _replace_measure(ask, replace(measure, name=name))
        ask.done.append(f"{measure.key.replace('_', ' ')} is now called {name} (its records kept)")
        return
    ask.settings["title"] = name
    ask.done.append(f"the app is now called {name}")


def _goal(ask: Asked, config: dict) -> None:
    slots, money = ask.slots, money_kept(ask, config)
    # a sum put by each month is the deposit (change_numbers), never the target or the budget
    amount = slots.target or slots.budget or (slots.goal if DEPOSIT not in ask.touched else None)
    if money and amount:
        # in the currency said, else the one the app records in now (after a change of currency)
        currency = amount.unit if amount.unit in lang.PAID_IN else config.get("currency") or money.currency
        if slots.target or (not slots.budget and saves(money, ask, config)):  # a sum said to a saving app
            value = amount.value
            ask.spec = replace(ask.spec, money=replace(money, target=value, currency=currency))
            ask.done.append(f"savings target {value:,.0f} {currency}")
        else:
            value = (slots.budget or slots.goal).value  # type: ignore[union-attr]
            ask.spec = replace(ask.spec, money=replace(money, budget=value, currency=currency))
            ask.done.append(f"budget {value:,.0f} {currency} a month")
        return
    if slots.goal is None or not ask.spec.measures or ask.remove or PERIOD in ask.touched:
        return
    measure = _target_measure(ask) or _by_unit(ask.spec, slots.goal.unit)
    if measure is None:
        ask.cannot("which_goal")
        return
    factor = 1.0 if slots.goal.unit in ("", measure.unit) else _SCALE.get((slots.goal.unit, measure.unit))
    if factor is None and slots.goal.unit in _WATER_UNITS and measure.key == "water":
        return  # a unit for water: _units does it
    if factor is None:
        ask.cannot("goal_unit", unit=slots.goal.unit, name=measure.name, kept=measure.unit)
        return
    goal = round(slots.goal.value * factor, 2)
    if goal == measure.goal:
        ask.already("goal", measure=ask.named(measure), amount=_amount(goal, measure.unit))
        return
    _replace_measure(ask, replace(measure, goal=goal))
    ask.done.append(f"{measure.key.replace('_', ' ')} goal {_amount(goal, measure.unit)}")
    title = _title_with_goal(str(config.get("title") or ""), measure, goal)
    if title:  # "Drink 2 liters of water a day" would go on saying the goal it no longer is
        ask.settings.setdefault("title", title)


def _title_with_goal(title: str, measure: Measure, goal: float) -> str | None:
    """The title with the measure's old goal, where it says it (once, as a goal), said as the
    new one in the title's own unit; None where the title says no such goal."""
    said = read_idea(title).said.goal if title else None
    if said is None or measure.goal is None:
        return None
    factor = 1.0 if said.unit in ("", measure.unit) else _SCALE.get((said.unit, measure.unit))
    if factor is None or round(said.value * factor, 2) != measure.goal:
        return None
    numbers = [m for m in re.finditer(r"\d+(?:[.,]\d+)*", title) if _number(m.group()) == said.value]
    if len(numbers) != 1:
        return None
    new = goal / factor
    written = f"{new:,.2f}" if "," in numbers[0].group() else f"{new:.2f}"
    written = written.rstrip("0").rstrip(".") if "." in written else written
    return title[: numbers[0].start()] + written + title[numbers[0].end() :]


def _number(digits: str) -> float | None:
    try:
        return float(digits.replace(",", ""))
    except ValueError:
        return None


def _by_unit(spec: AppSpec, unit: str) -> Measure | None:
    return next((m for m in spec.measures if unit and (m.unit == unit or (unit, m.unit) in _SCALE)), None)


def _units(ask: Asked, config: dict) -> None:
    """The system the app shows (records are kept metric and shown either way), or the
    unit a count of water is kept in."""
    slots = ask.slots
    water = next((m for m in ask.spec.measures if m.key == "water"), None)
    said = [u for u in slots.units if u in _WATER_UNITS or u == "liter"]
    about_water = ask.touched <= {"water"}  # "coffee" says cups for the coffee, not the water
    if water and about_water and said and said[0] in _WATER_UNITS and said[0] != water.unit and not ask.remove:
        unit = said[0]
        goal = _water_goal(water, unit, slots)
        _replace_measure(ask, replace(water, unit=unit, goal=goal, step=_WATER_UNITS[unit]))
        ask.done.append(f"water in {unit} (goal {_amount(goal, unit)})")
    system = "imperial" if _found(_IMPERIAL, ask.text) else "metric" if _found(_METRIC, ask.text) else None
    named = [_SYSTEM_OF[u] for u in slots.units if u in _SYSTEM_OF]
    refused = [_SYSTEM_OF[u] for u in slots.refused if u in _SYSTEM_OF]
    system = (
        system
        or (named[0] if named else None)
        or ({"metric": "imperial", "imperial": "metric"}.get(refused[0]) if refused else None)
    )
    if system == "metric" and not ask.remove:
        _kept_metric(ask)
    if system and config.get("units") != system:
        ask.settings["units"] = system
        ask.done.append(f"{system} units")
    elif system:
        ask.already(f"units.{system}")


def _kept_metric(ask: Asked) -> None:
    """A measure kept in an imperial unit ("log my runs in miles") shows it whatever the app's
    system: going metric moves it to the metric unit, its goal converted (the app converts
    its records when their unit moves)."""
    for measure in ask.spec.measures:
        metric = _METRIC_OF.get(measure.unit)
        factor = _unit_factor(measure.unit, metric) if metric else None
        if metric is None or factor is None:
            continue
        goal = round(measure.goal * factor, 1) if measure.goal is not None else None
        _replace_measure(ask, replace(measure, unit=metric, goal=goal))
        ask.done.append(f"{measure.key.replace('_', ' ')} in {metric}")


def _water_goal(water: Measure, unit: str, slots: Slots) -> float:
    """The water goal in the new unit: the one said in it, else the old goal converted
    (2000 ml → 8 cups, 3 liters → 12 cups), never the old number relabelled."""
    if slots.goal is not None and slots.goal.unit == unit:
        return slots.goal.value
    ml = water.goal * (_unit_factor(water.unit, "milliliter") or 1) if water.goal is not None else _WATER_GOAL_ML
    if unit == "milliliter":
        return float(round(ml / 50) * 50)
    return float(max(1, round(ml * (_unit_factor("milliliter", unit) or 1))))


def _currency(ask: Asked, config: dict) -> None:
    slots, money = ask.slots, ask.spec.money
    if not slots.currency or slots.budget or slots.target:
        return
    set_amount = (money.budget or money.target) if money else None
    if money and money.currency != slots.currency and not set_amount:
        ask.spec = replace(ask.spec, money=replace(money, currency=slots.currency))
    if config.get("currency") != slots.currency:
        ask.settings["currency"] = slots.currency
        ask.done.append(f"amounts in {slots.currency}")
    if money and set_amount and money.currency != slots.currency:  # no rate offline: it keeps its own currency, said
        what = "savings target" if money.target else "budget"
        ask.done.append(
            f"the {what} stays {set_amount:,.0f} {money.currency} (no rate is known offline; "
            f"say a {what} in {slots.currency} to compare)"
        )
    else:
        ask.already("currency", currency=slots.currency)


def _times(ask: Asked, config: dict) -> None:
    said = tuple(t for t in ask.slots.times if t in _TIMES)
    if not said or not ask.spec.measures:
        return
    measure = _target_measure(ask)
    if measure is None:
        ask.cannot("which_times")
        return
    if ask.remove:
        times = tuple(t for t in measure.times if t not in said)
    elif _found(lang.pattern("change.only"), ask.text):
        times = said
    else:
        times = tuple(dict.fromkeys(measure.times + said))
    if times != measure.times:
        _replace_measure(ask, replace(measure, times=times))
        ask.done.append(f"{measure.key.replace('_', ' ')} logged: {', '.join(times) or 'any time'}")


# ── items, tasks ─────────────────────────────────────────────────────────────────────────
# A field added or taken off, in a group: each language's own way (lang's attribute.add,
# attribute.remove), tried language by language.
_ATTRIBUTE_ADD = lang.each("attribute.add")
_ATTRIBUTE_REMOVE = lang.each("attribute.remove")


def _items(ask: Asked, config: dict) -> None:
    items = ask.spec.items
    if items is None or _found(_RENAME, ask.text):
        return
    if _found(_RATING, ask.text):
        rating = not ask.remove
        if rating != items.rating:
            ask.spec = replace(ask.spec, items=replace(items, rating=rating))
            ask.done.append("a rating per item" if rating else "no rating")
        return
    said = _attribute(ask.text, _ATTRIBUTE_REMOVE if ask.remove else _ATTRIBUTE_ADD)
    if not said or any(_found(words, said) for words in _BEYOND.values()):
        return  # a photo or a chart is code, not a text field called "photo": said as beyond
    if ask.remove:
        kept = tuple(a for a in items.attributes if a.casefold() != said.casefold())
        if kept != items.attributes:
            ask.spec = replace(ask.spec, items=Items(items.name, kept, items.rating, items.every))
            ask.done.append(f"no {said} per {items.name} (what was written kept)")
    elif said.casefold() not in (a.casefold() for a in items.attributes):
        ask.spec = replace(ask.spec, items=replace(items, attributes=(*items.attributes, said)))
        ask.done.append(f"each {items.name} records {said}")
    else:  # "add the author" where each book records it: said so, never "not a change the rules know"
        ask.already("records", items=items.name, field=said)


def _attribute(text: str, patterns: tuple[str, ...]) -> str | None:
    for pattern in patterns:
        m = re.search(pattern, text, re.IGNORECASE)
        if m:
            said = re.sub(rf"\s+(?:{lang.pattern('attribute.too')})$", "", m.group(1).strip())
            return said or None
    return None


def _tasks(ask: Asked, config: dict) -> None:
    tasks, slots = ask.spec.tasks, ask.slots
    if tasks is None:
        period_shown = slots.goal is not None and "measures.period" in ask.manifest.renders  # goal_period keeps it
        said = slots.period if slots.period != "daily" and not period_shown else None
        if said and ask.spec.measures and not ask.touched - {"people"}:
            ask.cannot("period_goal", period=said)
        return
    if tasks.countdown is not None and (slots.date or slots.event):
        from macaron_cli.reading.slots import event_kind

        same_day = slots.event and tasks.event and event_kind(slots.event) == event_kind(tasks.event)
        # "move the wedding to May 23": the event it counts to, named, is moved, whatever verb leads
        same_day = same_day or bool(tasks.event and tasks.event.lower() in ask.text.lower())
        # "add our outing Aug 3": named as said, beside the day kept (one with no day yet is not kept beside)
        named = slots.event or (one_thing_said(ask.text) if slots.date and tasks.countdown else None)
        if not same_day and not named and _found(_ADD, ask.text):
            ask.cannot("which_event")  # a day added unnamed: never the exam moved there
            return
        event = tasks.event if same_day else named or tasks.event  # "結婚式" is the "wedding" it counts to
        changed = replace(tasks, countdown=slots.date or tasks.countdown, event=event)
        if changed != tasks:
            ask.spec = replace(ask.spec, tasks=changed)
            ask.done.append(" on ".join(x for x in (changed.event, changed.countdown) if x))
        return
    if slots.period and slots.period != tasks.repeat and tasks.countdown is None:
        ask.spec = replace(ask.spec, tasks=Tasks(tasks.assignees, slots.period, None, tasks.categories, tasks.event))
        ask.done.append(f"repeats {slots.period}")


def _language(ask: Asked, config: dict) -> None:
    found = sorted((m.start(), code) for code, words in _LANGUAGES.items() if (m := _found(words, ask.text)))
    if found and config.get("language") != found[0][1]:
        ask.settings["language"] = found[0][1]
        ask.done.append(f"shown in {found[0][1]}")
    elif found:
        ask.already(f"language.{found[0][1]}")


_RULES: tuple[Callable[[Asked, dict], None], ...] = (
    _rename,
    listed_things,
    _measures,
    people_rule,
    _items,
    monthly_deposit,
    goal_period_unshown,
    goal_in_its_own_unit,
    _goal,
    _units,
    goal_period,  # after _units: a water goal in cups is set there
    _currency,
    _times,
    _tasks,
    _language,
    timer_minutes,
    unit_already,
    unit_words_follow,  # last: a unit moved by any rule above is said anew in the names
)
