"""Records kept in their own currency: after the person switched currency ("use dollars"),
what they recorded before is still theirs and still counted, in the currency it was written
in (no rate is known offline to convert it). The page's summary and the digest both ask
here, so each says the same earlier amounts beside the total in the currency now."""

from __future__ import annotations

import sqlite3

from server.macaron_life import minor_digits


def in_other_currencies(conn: sqlite3.Connection, currency: str, first: str, last: str) -> list[dict]:
    """What was recorded from `first` to `last` (days, YYYY-MM-DD) in other currencies than
    `currency`, each currency's total in its minor unit, the largest count first."""
    rows = conn.execute(
        "SELECT currency, SUM(CASE WHEN repaid THEN -amount_minor ELSE amount_minor END) AS total, COUNT(*) AS n "
        "FROM expenses WHERE day BETWEEN ? AND ? AND currency != ? GROUP BY currency ORDER BY n DESC, currency",
        (first, last, currency),
    ).fetchall()
    return [{"currency": r["currency"], "total_minor": r["total"], "count": r["n"]} for r in rows]


def set_amounts(settings: dict) -> dict:
    """The monthly budget, the savings goal and what is put by each month as the page and the
    digest both say them: in the minor unit of the currency they were set in ("budget_currency";
    empty: the app's), which stays theirs after a currency change (no rate is known offline to convert it).
    `comparable` is False when that is not the currency spending is recorded in now: then
    the amount is said in its own currency, never set against spending in another."""
    currency = settings["currency"]
    set_in = str(settings.get("budget_currency") or currency).upper()
    keys = ("monthly_budget", "savings_goal", "monthly_deposit")
    budget, goal, deposit = (_minor(settings.get(key), set_in) for key in keys)
    if goal or deposit or settings.get("debts"):  # money put by, or money lent: no budget to be over
        budget = 0
    return {
        "currency": set_in,
        "budget_minor": budget,
        "goal_minor": goal,
        "deposit_minor": deposit,
        "comparable": set_in == currency,
    }


def _minor(amount, currency: str) -> int:
    """A setting in whole currency units (1500 dollars) in the currency's minor unit."""
    return round(float(amount) * 10 ** minor_digits(currency)) if isinstance(amount, int | float) and amount else 0
