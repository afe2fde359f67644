"""What the person spent, for macaron (server/macaron_life.py runs it): the period's total
against the monthly budget, by category, today's spending and the latest expenses.

Read-only and deterministic. Amounts in another currency than the configured one (written
before the person switched currency) are said beside the total in their own currency, as
the app's own summary shows them (server/currencies.py)."""

from __future__ import annotations

import datetime as dt

from server.balances import in_words, standing
from server.currencies import in_other_currencies, set_amounts
from server.macaron_life import has_table, period_label, read_only

LATEST = 5


def category_name(category: str, words) -> str:
    key = f"category.{category}"
    return words(key) if words.has(key) else category


def digest(since: dt.date, today: dt.date, period: str, settings: dict, words) -> dict:
    conn = read_only()
    if conn is None or not has_table(conn, "expenses"):
        return {}
    currency = settings["currency"]
    span = (since.isoformat(), today.isoformat())
    amounts = set_amounts(settings)  # what the page's summary says of the budget and the goal
    comparable = amounts["comparable"]
    budget_minor, goal_minor = (amounts[key] if comparable else 0 for key in ("budget_minor", "goal_minor"))
    with conn:
        saved = conn.execute(
            "SELECT COALESCE(SUM(amount_minor), 0) FROM expenses WHERE day <= ? AND currency = ?",
            (today.isoformat(), currency),
        ).fetchone()[0]
        by_category = conn.execute(
            "SELECT category, SUM(amount_minor) AS total, COUNT(*) AS n FROM expenses "
            "WHERE day BETWEEN ? AND ? AND currency = ? GROUP BY category ORDER BY total DESC, category",
            (*span, currency),
        ).fetchall()
        spent_today = conn.execute(
            "SELECT COALESCE(SUM(amount_minor), 0) FROM expenses WHERE day = ? AND currency = ?",
            (today.isoformat(), currency),
        ).fetchone()[0]
        latest = conn.execute(
            "SELECT day, amount_minor, currency, category, note, created_at FROM expenses "
            "WHERE day <= ? ORDER BY day DESC, id DESC LIMIT ?",
            (today.isoformat(), LATEST),
        ).fetchall()
        also = in_other_currencies(conn, currency, *span)
    shared = bool(settings.get("people")) and (settings.get("debts") or settings.get("split"))
    balances = standing(conn, settings) if shared else None  # who owes whom: what a friend asks about
    conn.close()
    total = sum(r["total"] for r in by_category)
    count = sum(r["n"] for r in by_category)
    label = period_label(words, period)
    if goal_minor:
        first = words(
            "digest.saved",
            period=label,
            total=words.money(total, currency),
            count=count,
            saved=words.money(saved, currency),
            goal=words.money(goal_minor, currency),
        )
    elif budget_minor and period == "month":
        first = words(
            "digest.spent",
            period=label,
            total=words.money(total, currency),
            budget=words.money(budget_minor, currency),
            count=count,
        )
    else:
        first = words("digest.spent_no_budget", period=label, total=words.money(total, currency), count=count)
    lines = [first]
    if not comparable and (amounts["budget_minor"] or amounts["goal_minor"]):
        key = "budget.goal_set_in" if amounts["goal_minor"] else "budget.budget_set_in"
        minor = amounts["goal_minor"] or amounts["budget_minor"]
        lines.append(words(key, amount=words.money(minor, amounts["currency"]), now=currency))
    if also:
        amounts = ", ".join(words.money(a["total_minor"], a["currency"]) for a in also)
        lines.append(words("budget.also", amounts=amounts))
    if by_category:
        parts = ", ".join(
            f"{category_name(r['category'], words)} {words.money(r['total'], currency)}" for r in by_category
        )
        lines.append(words("digest.by_category", parts=parts))
    lines.append(words("digest.today", total=words.money(spent_today, currency)))
    if balances and balances["people"]:
        lines.append(f"{words('budget.balances')}: {', '.join(in_words(balances, words, currency))}.")
    shown = [
        " ".join(
            filter(
                None,
                (
                    words.day(r["day"]),
                    words.money(r["amount_minor"], r["currency"]),
                    category_name(r["category"], words),
                    r["note"],
                ),
            )
        )
        for r in latest
    ]
    if shown:
        lines.append(words("digest.latest", items=", ".join(shown)))
    return {
        "summary": first,
        "lines": lines,
        "count": count,
        "latest": [{"day": r["day"], "text": text} for r, text in zip(latest, shown, strict=True)],
        "last_record_at": latest[0]["created_at"] if latest else None,
        "notices": [],
        "facts": {
            "currency": currency,
            "total_minor": total,
            "today_minor": spent_today,
            "budget_minor": budget_minor,
            "goal_minor": goal_minor,
            "saved_minor": saved,
            "by_category": {r["category"]: r["total"] for r in by_category},
            "also": also,
            **({"balances": balances} if balances else {}),
        },
    }
