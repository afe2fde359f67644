"""The change rules that set numbers (en, ja, ko, zh, tl): a timer's work and break minutes in
the order said ("50 on 10 off", "集中45分、休み15分"); what is put by each month beside a savings
target, never taken for the target ("毎月2万ずつ", "magtatabi ako ng 4k kada buwan"); a unit
moved is said anew where the app's names said the old one ("Running log in miles" → "in km").

Each rule takes the change being read (change_rules.Asked, as the Asked protocol here names it)
and edits one part of the app's spec, the way change_rules' own rules do; change_rules._RULES
runs them in its order.
"""

from __future__ import annotations

import re
from dataclasses import replace

from macaron_cli import lang
from macaron_cli.reading.change_ask import Asked
from macaron_cli.reading.slots import Amount, sums_each_period
from macaron_cli.reading.spec_families import minutes_said
from macaron_cli.reading.spec_rules import _SCALE
from macaron_cli.resources import shared_module
from macaron_cli.spec import Measure, Money, Timer

_unit_factor = shared_module("app_units").unit_factor
_amount = shared_module("app_units").written  # "3,000 mL", as the app writes it
_LENGTHS = ("hour", "minute", "second")  # lengths of time convert into each other


def timer_minutes(ask: Asked, config: dict) -> None:
    """Work and break minutes, as said: a pair in its order, or one of them named ("make the
    break 10 minutes"); the other stays as it was."""
    timer = ask.spec.timer
    if timer is None or ask.remove:
        return
    work, rest = minutes_said(ask.text, ask.slots)
    if work is None and rest is None:
        return
    after = Timer(work=work or timer.work, rest=rest or timer.rest)
    if after == timer:
        ask.already("timer", work=str(after.work), rest=str(after.rest))
        return
    ask.spec = replace(ask.spec, timer=after)
    ask.done.append(f"{after.work} minutes of work, then {after.rest} of break")


# A goal said with its period ("3 a week", "月に4冊", "하루 8잔"): the goal is set by change_rules'
# own goal rule, its period beside it here; an app that shows no goal but a day's says so.
PERIOD = "period"  # in ask.touched: the goal said is for a period the app cannot show


def goal_period_unshown(ask: Asked, config: dict) -> None:
    """A weekly or monthly goal where the app's template shows a day's goal only: named in
    `missing`, and no daily goal is set from its number (never "3 workouts" as 3 a day)."""
    slots = ask.slots
    if slots.goal is None or slots.period in (None, "daily") or not ask.spec.measures or ask.remove:
        return
    if "measures.period" not in ask.manifest.renders:
        ask.touched.add(PERIOD)
        ask.cannot("period_goal", period=slots.period)


def goal_in_its_own_unit(ask: Asked, config: dict) -> None:
    """A goal said in a unit its measure is not kept in and cannot be converted to ("3 workouts a
    week" where workouts are kept in minutes, "每月100公里" where running is): a measure of its own
    beside it, in that unit, with the goal and its period; the measure and its records stay."""
    goal = ask.slots.goal
    if goal is None or not goal.unit or ask.remove or PERIOD in ask.touched or ask.slots.budget:
        return
    named = [m for m in ask.spec.measures if m.key in ask.touched]
    measure = named[0] if named else ask.spec.measures[0] if len(ask.spec.measures) == 1 else None
    if measure is None or measure.key == "water" or goal.unit in (measure.unit, *_LENGTHS):
        return  # water's units are its own rule's; a length of time converts (minutes, hours)
    if (goal.unit, measure.unit) in _SCALE or _unit_factor(goal.unit, measure.unit) is not None:
        return  # the same quantity in another unit: change_rules' goal converts it
    key = f"{measure.key}_{goal.unit}".replace("/", "_").lower()
    period = ask.slots.period if ask.slots.period in ("weekly", "monthly") else None
    kept = next((m for m in ask.spec.measures if m.key == key), None)
    counted = goal.unit == "times"
    own = kept or Measure(
        key=key,
        name=f"{measure.name} ({_symbol(goal.unit).removeprefix('times').strip() or '×'})",
        unit=goal.unit,
        kind="count" if counted else "quantity",
        step=1 if counted else 0.1,
        free_entry=not counted,
        combine="sum",
    )
    own = replace(own, goal=goal.value, period=period)
    others = tuple(m for m in ask.spec.measures if m.key != key)
    ask.spec = replace(
        ask.spec, measures=(*others, own) if not kept else tuple(own if m.key == key else m for m in ask.spec.measures)
    )
    ask.touched.add(PERIOD)  # the goal is this measure's: no other rule sets it again
    when = f" {period}" if period else ""
    ask.done.append(f"{own.name}: goal {_amount(goal.value, goal.unit)}{when} ({measure.name} and its records kept)")


def goal_period(ask: Asked, config: dict) -> None:
    """The period said beside a goal, kept on the measure whose goal the request set."""
    period = ask.slots.period
    if ask.slots.goal is None or period is None or PERIOD in ask.touched or ask.remove:
        return
    was = {m.key: m for m in ask.before.measures} if ask.before else {}
    for measure in ask.spec.measures:
        before = was.get(measure.key)
        if before is None or before.goal == measure.goal or measure.period == period:
            continue
        measures = tuple(replace(m, period=period) if m.key == measure.key else m for m in ask.spec.measures)
        ask.spec = replace(ask.spec, measures=measures)
        ask.done.append(f"{measure.key.replace('_', ' ')} goal {period}")


# What is put by each month is a money app's own: a deposit is kept where the app saves.
DEPOSIT = "deposit"  # in ask.touched: the sum said each month is the deposit, not a target or budget


def money_kept(ask: Asked, config: dict) -> Money | None:
    """The app's money: its spec's, or, where the app renders money and its spec keeps none
    yet (an app made before it said a sum), the template's own in the app's currency."""
    if ask.spec.money is not None:
        return ask.spec.money
    if "money" in ask.manifest.renders:
        return Money(currency=str(config.get("currency") or "USD"))
    return None


def saves(money: Money, ask: Asked, config: dict) -> bool:
    """Whether the app puts money by: a target or a deposit set, or saving in its name."""
    named = f"{config.get('title') or ''} {ask.manifest.title or ''}"
    return (
        money.target is not None
        or money.rate is not None
        or bool(re.search(lang.pattern("saving"), named, re.IGNORECASE))
    )


def monthly_deposit(ask: Asked, config: dict) -> None:
    """What is put by each month ("매달 50만원씩 넣을게"): read as a deposit where the request
    says saving, or where the app saves and the request says a sum each month and no budget."""
    money = money_kept(ask, config)
    if money is None or ask.remove or ask.slots.period != "monthly" or ask.slots.budget:
        return
    said = ask.slots.rate
    if said is None and saves(money, ask, config) and not ask.slots.target:
        each = sums_each_period(ask.text)
        said = Amount(each[0], ask.slots.currency or "") if each else None
    if said is None:
        return
    currency = said.unit if said.unit in lang.PAID_IN else str(config.get("currency") or money.currency)
    ask.touched.add(DEPOSIT)
    if money.rate == said.value:
        ask.already("deposit", amount=f"{said.value:,.0f}", currency=currency)
        return
    ask.spec = replace(ask.spec, money=replace(money, rate=said.value, currency=currency))
    ask.done.append(f"{said.value:,.0f} {currency} put by each month")


def _symbol(unit: str) -> str:
    """How the app writes a unit after a number ("km", "mL", "cups")."""
    return shared_module("app_units").written(2, unit).removeprefix("2").strip()


def _said_in(text: str, before: str, after: str) -> str:
    """`text` with each word for the unit `before` written as the unit `after`."""
    words = lang.pattern(f"unit.{before}") if before in lang.UNITS else ""
    return re.sub(words, _symbol(after), text, flags=re.IGNORECASE) if words else text


def unit_words_follow(ask: Asked, config: dict) -> None:
    """A measure whose unit moved ("actually use km") or money whose currency moved is never still
    named in the old one: the measure's name and the app's title say the new where they said the old."""
    was = {m.key: m.unit for m in ask.before.measures} if ask.before else {}
    title = str(ask.settings.get("title") or config.get("title") or "")
    for measure in ask.spec.measures:
        before = was.get(measure.key)
        if before is None or before == measure.unit:
            continue
        name = _said_in(measure.name, before, measure.unit)
        if name != measure.name:
            measures = tuple(replace(m, name=name) if m.key == measure.key else m for m in ask.spec.measures)
            ask.spec = replace(ask.spec, measures=measures)
        title = _said_in(title, before, measure.unit)
    currency, was_in = ask.settings.get("currency"), config.get("currency")
    if currency and was_in and currency != was_in and was_in in lang.CURRENCIES:  # "Spending in yen" → "in USD"
        title = re.sub(lang.pattern(f"currency.{was_in}"), str(currency), title, flags=re.IGNORECASE)
    if title and title != (ask.settings.get("title") or config.get("title")):
        ask.settings["title"] = title
        ask.done.append(f"the app is now called {title}")


def unit_already(ask: Asked, config: dict) -> None:
    """A unit asked that the measure already is in ("单位换成毫升" where the water is in ml): said
    so, never a request left unread."""
    if ask.done or ask.remove:
        return
    for unit in ask.slots.units:
        measure = next((m for m in ask.spec.measures if m.unit == unit and ask.touched <= {m.key}), None)
        if measure is not None:
            ask.already("unit", measure=ask.named(measure), unit=_symbol(unit))
