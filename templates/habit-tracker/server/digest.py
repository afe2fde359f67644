"""What the person logged, for macaron (server/macaron_life.py runs it): each habit today
against its goal, the period's total, the days running the goal was met, the latest taps.

Read-only and deterministic: the same data and day give the same words."""

from __future__ import annotations

import datetime as dt

from server.macaron_life import days_running, has_table, period_label, read_only
from server.units import factors

LATEST = 5


def habit_name(habit: dict, words) -> str:
    label = habit.get("label")
    if isinstance(label, str) and label.strip():
        return label
    key = f"habit.{habit.get('key')}"
    return words(key) if words.has(key) else str(habit.get("name") or habit.get("key"))


def digest(since: dt.date, today: dt.date, period: str, settings: dict, words) -> dict:
    habits = [h for h in settings.get("habits") or [] if isinstance(h, dict) and h.get("key")]
    conn = read_only()
    if conn is None or not has_table(conn, "entries"):
        return {}
    with conn:
        # One pass of grouped rows: the period's totals, and a month back for streaks.
        start = min(since, today - dt.timedelta(days=62)).isoformat()
        rows = conn.execute(
            "SELECT habit, day, SUM(amount) AS total FROM entries WHERE day BETWEEN ? AND ? GROUP BY habit, day",
            (start, today.isoformat()),
        ).fetchall()
        latest = conn.execute(
            "SELECT habit, amount, day, created_at FROM entries WHERE day <= ? ORDER BY day DESC, id DESC LIMIT ?",
            (today.isoformat(), LATEST),
        ).fetchall()
        count = conn.execute(
            "SELECT COUNT(*) FROM entries WHERE day BETWEEN ? AND ?", (since.isoformat(), today.isoformat())
        ).fetchone()[0]
        # read-only: amounts the app has not yet brought into a changed unit are converted here
        scale = factors(conn, {h["key"]: h for h in habits})
    conn.close()
    by_habit: dict[str, dict[str, float]] = {}
    for row in rows:
        by_habit.setdefault(row["habit"], {})[row["day"]] = row["total"] * scale.get(row["habit"], 1.0)
    units, label = settings["units"], period_label(words, period)
    lines, parts, notices, facts = [], [], [], {}
    yesterday, before = (today - dt.timedelta(days=n) for n in (1, 2))
    for habit in habits:
        key, unit, goal = habit["key"], str(habit.get("unit") or ""), float(habit.get("goal") or 0)
        days = by_habit.get(key, {})
        in_period = {d: v for d, v in days.items() if d >= since.isoformat()}
        total, today_total = sum(in_period.values()), days.get(today.isoformat(), 0)
        met = {d for d, v in days.items() if goal and v >= goal}
        streak = days_running(met, today)
        name = habit_name(habit, words)
        lines.append(
            words(
                "digest.measure",
                name=name,
                today=words.quantity(today_total, unit, units),
                goal=words.quantity(goal, unit, units),
                period=label,
                total=words.quantity(total, unit, units),
                days=len(in_period),
            )
        )
        parts.append(f"{name} {words.quantity(today_total, unit, units)}")
        facts[key] = {
            "name": name,
            "unit": unit,
            "goal": goal,
            "today": today_total,
            "total": total,
            "days": len(in_period),
            "streak": streak,
        }
        if streak >= 3:
            notices.append(
                {
                    "kind": "celebrate",
                    "key": f"{key}:streak:{streak}",
                    "text": words("digest.celebrate", name=name, n=streak),
                }
            )
        was_logging = any(d < before.isoformat() for d in days)
        if goal and was_logging and all(days.get(d.isoformat(), 0) < goal for d in (yesterday, before)):
            notices.append(
                {
                    "kind": "missed",
                    "key": f"{key}:missed:{yesterday.isoformat()}",
                    "text": words("digest.missed", name=name),
                }
            )
    names = {h["key"]: h for h in habits}

    def amount(row) -> str:
        unit = str(names.get(row["habit"], {}).get("unit") or "")
        return words.quantity(row["amount"] * scale.get(row["habit"], 1.0), unit, units)

    shown = [
        f"{words.day(r['day'])} {habit_name(names.get(r['habit'], {'key': r['habit']}), words)} {amount(r)}"
        for r in latest
    ]
    if shown:
        lines.append(words("digest.latest", items=", ".join(shown)))
    return {
        "summary": words("digest.summary", parts=", ".join(parts)) if parts else "",
        "lines": lines,
        "count": count,
        "latest": [{"day": r["day"], "text": text} for r, text in zip(latest, shown, strict=True)],
        "last_record_at": latest[0]["created_at"] if latest else None,
        "notices": notices,
        "facts": facts,
    }
