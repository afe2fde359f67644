"""How a measure's entries become the one figure the page, the digest and the friend say.

This file is generated from macaron's templates/_shared/ (one source for every template);
change it there, not in an app.

A measure says how its figures combine (its spec's `combine`):
- "sum": intake and counts add up over the day (water, steps, pages read);
- "latest": a reading is taken, not added (weight, blood pressure, glucose): the day's figure
  is its latest entry, each value apart (systolic and diastolic stay two numbers);
- "average": a reading whose day is the mean of its entries, each value apart.
The app's API serves these figures to its page and the digest computes them with the same
function, so what the person sees and what macaron says of it cannot disagree.
Only the standard library: the digest starts without the web framework.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any

from server.app_spec import MEASURE_COMBINES as COMBINES


def combine_of(measure: Mapping[str, Any]) -> str:
    """The measure's own `combine`; for one written before measures said it, a reading
    (several values per entry, or a typed quantity with no daily goal) is its latest."""
    said = measure.get("combine")
    if said in COMBINES:
        return str(said)
    values = measure.get("values") or []
    typed_without_goal = measure.get("kind") == "quantity" and measure.get("free_entry") and not measure.get("goal")
    return "latest" if len(values) > 1 or typed_without_goal else "sum"


def value_count(measure: Mapping[str, Any]) -> int:
    """How many numbers one entry holds (blood pressure: two)."""
    return max(1, len(measure.get("values") or []))


def figure(measure: Mapping[str, Any], entries: Iterable[Mapping[str, Any]]) -> list[float] | None:
    """The figure of `entries` (rows with amount and amount2, oldest first), one number per
    value; None when there is none (a reading not taken is not a zero)."""
    rows = [_numbers(row, value_count(measure)) for row in entries]
    rows = [row for row in rows if row is not None]
    combine = combine_of(measure)
    if not rows:
        return [0.0] if combine == "sum" else None
    if combine == "sum":
        return [sum(row[0] for row in rows)]
    if combine == "latest":
        return rows[-1]
    return [sum(row[i] for row in rows) / len(rows) for i in range(len(rows[0]))]


def figures(measures: Iterable[Mapping[str, Any]], entries: Iterable[Mapping[str, Any]]) -> dict[str, dict]:
    """Each measure's figure over `entries` (rows with habit, amount, amount2, oldest first),
    as the app's API serves it: {key: {"combine", "values"}}."""
    by_key: dict[str, list[Mapping[str, Any]]] = {}
    for row in entries:
        by_key.setdefault(str(row["habit"]), []).append(row)
    return {
        str(m["key"]): {"combine": combine_of(m), "values": figure(m, by_key.get(str(m["key"]), []))}
        for m in measures
        if m.get("key")
    }


def _numbers(row: Mapping[str, Any], count: int) -> list[float] | None:
    numbers = [row["amount"], row["amount2"] if count > 1 else None][:count]
    if any(n is None for n in numbers):
        return None
    return [float(n) for n in numbers]


def period_start(day: dt.date, period: str | None) -> dt.date:
    """The first day of the goal's period that holds `day`: its week's Monday, its month's first
    day; the day itself for a day's goal. The page and the digest count a goal's period from it."""
    if period == "weekly":
        return day - dt.timedelta(days=day.weekday())
    if period == "monthly":
        return day.replace(day=1)
    return day


def over_periods(measure: Mapping[str, Any]) -> bool:
    """Whether the measure's goal counts a week's or a month's entries, not a day's."""
    return measure.get("period") in ("weekly", "monthly")
