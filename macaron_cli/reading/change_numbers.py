"""The change rules that set numbers (en, ja, ko, zh, tl): a timer's work and break minutes in
the order said ("50 on 10 off", "集中45分、休み15分"); what is put by each month beside a savings
target, never taken for the target ("毎月2万ずつ", "magtatabi ako ng 4k kada buwan").

Each rule takes the change being read (change_rules._Ask) and edits one part of the app's
spec, the way change_rules' own rules do; change_rules.RULES runs them in its order.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from macaron_cli import lang
from macaron_cli.reading.slots import Amount, sums_each_period
from macaron_cli.reading.spec_families import minutes_said
from macaron_cli.spec import Money, Timer

if TYPE_CHECKING:
    from macaron_cli.reading.change_rules import _Ask


def timer_minutes(ask: _Ask, config: dict) -> None:
    """Work and break minutes, as said: a pair in its order, or one of them named ("make the
    break 10 minutes"); the other stays as it was."""
    timer = ask.spec.timer
    if timer is None or ask.remove:
        return
    work, rest = minutes_said(ask.text, ask.slots)
    if work is None and rest is None:
        return
    after = Timer(work=work or timer.work, rest=rest or timer.rest)
    said = f"{after.work} minutes of work, then {after.rest} of break"
    if after == timer:
        ask.already.append(f"the timer is already {said}")
        return
    ask.spec = replace(ask.spec, timer=after)
    ask.done.append(said)


# What is put by each month is a money app's own: a deposit is kept where the app saves.
DEPOSIT = "deposit"  # in ask.touched: the sum said each month is the deposit, not a target or budget


def money_kept(ask: _Ask, config: dict) -> Money | None:
    """The app's money: its spec's, or, where the app renders money and its spec keeps none
    yet (an app made before it said a sum), the template's own in the app's currency."""
    if ask.spec.money is not None:
        return ask.spec.money
    if "money" in ask.manifest.renders:
        return Money(currency=str(config.get("currency") or "USD"))
    return None


def saves(money: Money, ask: _Ask, config: dict) -> bool:
    """Whether the app puts money by: a target or a deposit set, or saving in its name."""
    named = f"{config.get('title') or ''} {ask.manifest.title or ''}"
    return (
        money.target is not None
        or money.rate is not None
        or bool(re.search(lang.pattern("saving"), named, re.IGNORECASE))
    )


def monthly_deposit(ask: _Ask, config: dict) -> None:
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
        ask.already.append(f"{said.value:,.0f} {currency} a month is already put by")
        return
    ask.spec = replace(ask.spec, money=replace(money, rate=said.value, currency=currency))
    ask.done.append(f"{said.value:,.0f} {currency} put by each month")
