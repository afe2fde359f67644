"""What a make understood, said to the person before anything is written, and corrected in words.

In a terminal `macaron make` shows one short line built from the Plan's spec and the settings
the app will be written with ("Weight in kg, goal 62; body fat in %. Go ahead, or tell me what
to change"), in the app's language. The answer is yes (build it), no (nothing is written:
`Declined`), or a correction read as a change request by the change rules (change_rules.py)
and folded into the Plan, which is then shown again. A correction the rules cannot read is
said in one sentence and the same summary asked again. `--yes` and pipes are not asked
(MakeRequest.understood is None).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from macaron_cli import lang
from macaron_cli.resources import shared_module

if TYPE_CHECKING:
    from macaron_cli.maker.plan import Plan
    from macaron_cli.spec import AppSpec, Measure

_units = shared_module("app_units")
YES = frozenset(lang.listed("answer.yes"))
NO = frozenset(lang.listed("answer.no"))


class Declined(Exception):
    """The person said no to what was understood: nothing is written."""

    def __init__(self, language: str):
        super().__init__(lang.line("make.declined", language))
        self.language = language


def settled(plan: Plan, ask: Callable[[str, str], str] | None) -> Plan:
    """The plan once the person has said yes to its summary (corrections folded in); `ask`
    shows a text and the answers it takes, and returns the answer (None: no one to ask, the
    plan as it is)."""
    if ask is None:
        return plan
    note = ""
    while True:
        language = str(settings_of(plan)["language"])
        answer = ask(note + summary(plan), _said("understood.answer", language)).strip()
        word = answer.casefold().rstrip(".!。！")
        if not answer or word in YES:
            return plan
        if word in NO:
            raise Declined(language)
        plan, note = corrected(plan, answer)


def corrected(plan: Plan, words: str) -> tuple[Plan, str]:
    """The plan with `words` read as a change to it, and the sentence that says what of them
    the rules could not do ("" when nothing), on a line of its own before the summary again."""
    from macaron_cli.maker.refusal import cannot
    from macaron_cli.maker.request import checked_request
    from macaron_cli.reading.change_rules import understand

    words = checked_request(words, "say what to change.")
    assert plan.template is not None and plan.spec is not None  # a make's plan, before it is written
    change = understand(words, plan.spec, settings_of(plan), plan.template.manifest)
    note = cannot(change, words) + "\n" if change.missing else ""
    if not change.done:
        return plan, note
    said = {**(plan.corrected or {}), **change.settings}
    return replace(plan, spec=change.after, corrected=said, title=str(said.get("title") or plan.title)), note


def settings_of(plan: Plan) -> dict:
    """The settings the app will be written with that a correction can change: units, currency,
    language, title (scaffold.personal_config writes them, the corrections last)."""
    from macaron_cli.maker.scaffold import units_for

    brief, spec = plan.brief, plan.spec
    currency = spec.money.currency if spec and spec.money else brief.app_settings["currency"]
    written = {"title": plan.title, "language": brief.language, "units": units_for(brief), "currency": currency}
    return {**written, **(plan.corrected or {})}


def summary(plan: Plan) -> str:
    """One short line of what the app will track, then "Go ahead, or tell me what to change"."""
    settings = settings_of(plan)
    language = str(settings["language"])
    parts = _parts(plan.spec, settings, language) if plan.spec else []
    if not parts:
        parts = [_said("understood.app", language, title=plan.title, template=plan.template_name)]
    joined = _said("understood.and", language).join(parts)
    return _said("understood.ask", language, what=joined[:1].upper() + joined[1:])


def _parts(spec: AppSpec, settings: dict, language: str) -> list[str]:
    parts = [_measure(m, settings, language) for m in spec.measures]
    if spec.money:
        money = spec.money
        parts.append(_said("understood.money", language, currency=money.currency))
        if money.budget:
            parts.append(_said("understood.budget", language, amount=_money(money.budget, money.currency)))
        if money.target:
            parts.append(_said("understood.target", language, amount=_money(money.target, money.currency)))
        if money.people:
            parts.append(_said("understood.people", language, names=", ".join(money.people)))
    if spec.items:
        parts.append(_said("understood.items", language, name=spec.items.name))
    if spec.tasks:
        tasks = spec.tasks
        if tasks.assignees:
            parts.append(_said("understood.people", language, names=", ".join(tasks.assignees)))
        if tasks.countdown is not None:
            date = tasks.countdown or "?"
            parts.append(_said("understood.countdown", language, event=tasks.event or "?", date=date))
    if spec.timer:
        parts.append(_said("understood.timer", language, work=spec.timer.work, rest=spec.timer.rest))
    return parts


def _measure(measure: Measure, settings: dict, language: str) -> str:
    """ "Weight in kg, goal 62", in the unit the page shows (imperial shows the metric records
    converted: the app's own table)."""
    unit, factor = measure.unit, 1.0
    if settings.get("units") == "imperial" and unit in _units.IMPERIAL:
        unit, factor = _units.IMPERIAL[unit]
    symbol = _units.SYMBOLS.get(unit, unit)
    what = _said("understood.measure", language, name=measure.name, unit=symbol)
    if measure.goal is None:
        return what
    goal = _units.written_number(measure.goal * factor)
    if measure.combine not in ("latest", "average"):  # a goal a day's entries add up to
        goal = _said("understood.daily", language, goal=goal)
    return _said("understood.goal", language, what=what, goal=goal)


def _money(amount: float, currency: str) -> str:
    return f"{_units.written_number(amount)} {currency}"


def _said(key: str, language: str, **values) -> str:
    return lang.line(key, language).format(**values)
