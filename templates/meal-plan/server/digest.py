"""The meals planned, for macaron (server/macaron_life.py runs it): how many meals are
planned in the period, today's plan, the latest planned.

Read-only and deterministic."""

from __future__ import annotations

import datetime as dt

from server.macaron_life import digest_with_latest, has_table, period_label, read_only

ORDER = {"breakfast": 0, "lunch": 1, "dinner": 2, "snack": 3}
LATEST = 3


def digest(since: dt.date, today: dt.date, period: str, settings: dict, words) -> dict:
    conn = read_only()
    if conn is None or not has_table(conn, "planned"):
        return {}
    with conn:
        count, days = conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT day) FROM planned WHERE day BETWEEN ? AND ?",
            (since.isoformat(), today.isoformat()),
        ).fetchone()
        todays = conn.execute(
            "SELECT meal, dish FROM planned WHERE day = ? ORDER BY id", (today.isoformat(),)
        ).fetchall()
        ahead = conn.execute(
            "SELECT COUNT(*) FROM planned WHERE day > ? AND day <= ?",
            (today.isoformat(), (today + dt.timedelta(days=7)).isoformat()),
        ).fetchone()[0]
        latest = conn.execute(
            "SELECT day, meal, dish, created_at FROM planned ORDER BY created_at DESC, id DESC LIMIT ?",
            (LATEST,),
        ).fetchall()
    conn.close()
    first = words("digest.planned", period=period_label(words, period), count=count, days=days)
    lines = [first]
    meals = sorted(todays, key=lambda r: ORDER.get(r["meal"], 9))  # stable: dishes stay in the order planned
    if meals:
        lines.append(words("digest.today", meals=", ".join(f"{words('meal.' + r['meal'])} {r['dish']}" for r in meals)))
    lines.append(words("digest.ahead", count=ahead))
    items = [f"{words.day(r['day'])} {words('meal.' + r['meal'])} {r['dish']}" for r in latest]
    return digest_with_latest(
        lines,
        count,
        latest,
        items,
        words,
        {
            "planned": count,
            "days": days,
            "ahead": ahead,
            "today": [{"meal": r["meal"], "dish": r["dish"]} for r in meals],
        },
    )
