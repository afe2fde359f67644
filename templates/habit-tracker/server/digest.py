"""What the person logged, for macaron (server/macaron_life.py runs it): each habit today
against its goal, the period's total, the days running the goal was met, the latest taps.
A reading (weight, blood pressure) is never summed: its figure is the same the page shows
(server/app_figures.py), today's latest and the period's average, each value apart.

Read-only and deterministic: the same data and day give the same words."""

from __future__ import annotations

import datetime as dt

from server.app_figures import combine_of, figure, over_periods, period_start
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
        # The entries of a month back (for streaks) or the period, whichever is longer, oldest first.
        start = min(since, today - dt.timedelta(days=62)).isoformat()
        rows = conn.execute(
            "SELECT habit, amount, amount2, day FROM entries WHERE day BETWEEN ? AND ? ORDER BY day, id",
            (start, today.isoformat()),
        ).fetchall()
        latest = conn.execute(
            "SELECT habit, amount, amount2, day, created_at FROM entries WHERE day <= ?"
            " ORDER BY day DESC, id DESC LIMIT ?",
            (today.isoformat(), LATEST),
        ).fetchall()
        count = conn.execute(
            "SELECT COUNT(*) FROM entries WHERE day BETWEEN ? AND ?", (since.isoformat(), today.isoformat())
        ).fetchone()[0]
        # read-only: amounts the app has not yet brought into a changed unit are converted here
        scale = factors(conn, {h["key"]: h for h in habits})
    conn.close()
    entries: dict[str, dict[str, list[dict]]] = {}  # habit → day → its entries in its unit now
    for row in rows:
        factor = scale.get(row["habit"], 1.0)
        amount2 = None if row["amount2"] is None else row["amount2"] * factor
        entries.setdefault(row["habit"], {}).setdefault(row["day"], []).append(
            {"amount": row["amount"] * factor, "amount2": amount2}
        )
    units, label = settings["units"], period_label(words, period)
    lines, parts, notices, facts = [], [], [], {}
    yesterday, before = (today - dt.timedelta(days=n) for n in (1, 2))
    for habit in habits:
        key, unit, goal = habit["key"], str(habit.get("unit") or ""), float(habit.get("goal") or 0)
        by_day = entries.get(key, {})
        days = {d: (figure(habit, found) or [0.0])[0] for d, found in by_day.items()}
        in_period = {d: found for d, found in by_day.items() if d >= since.isoformat()}
        name = habit_name(habit, words)
        if combine_of(habit) != "sum":
            reading = _reading(habit, name, in_period, today, label, words, units)
            if reading is not None:
                line, part, facts[key] = reading
                lines.append(line)
                parts.append(part)
            continue
        if over_periods(habit):  # a goal for a week or a month: its period so far, as the page says it
            first = period_start(today, habit["period"]).isoformat()
            so_far = sum(v for d, v in days.items() if d >= first)
            per = words(f"habit.per_{habit['period']}")
            total, of = words.quantity(so_far, unit, units), words.quantity(goal, unit, units)
            lines.append(words("digest.measure_period", name=name, total=total, goal=of, per=per))
            parts.append(f"{name} {words.quantity(days.get(today.isoformat(), 0), unit, units)}")  # today's
            facts[key] = {"name": name, "unit": unit, "goal": goal, "period": habit["period"], "so_far": so_far}
            continue
        total = sum(days[d] for d in in_period)
        today_total = days.get(today.isoformat(), 0)
        met = {d for d, v in days.items() if goal and v >= goal}
        streak = days_running(met, today)
        lines.append(
            words(
                "digest.measure" if goal else "digest.measure_no_goal",
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
        factor = scale.get(row["habit"], 1.0)
        numbers = [row["amount"] * factor] + ([] if row["amount2"] is None else [row["amount2"] * factor])
        return values_text(numbers, unit, words, units)

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


def values_text(values: list[float], unit: str, words, units: str) -> str:
    """One figure as the page writes it: "72.4 kg"; several values, the numbers then the unit
    once ("135/85 mmHg")."""
    if len(values) == 1:
        return words.quantity(values[0], unit, units)
    return f"{'/'.join(words.number(v, 0) for v in values)} {unit}"


def _reading(habit: dict, name: str, in_period: dict, today: dt.date, label: str, words, units: str):
    """A reading's line, its part of the summary and its facts: the latest figure (today's
    when one was taken today, as the page shows it) and the period's average; None when
    none was taken in the period."""
    if not in_period:
        return None
    unit = str(habit.get("unit") or "")
    ordered = [entry for day in sorted(in_period) for entry in in_period[day]]
    latest = figure({**habit, "combine": "latest"}, ordered) or []
    average = figure({**habit, "combine": "average"}, ordered) or []
    today_figure = figure(habit, in_period.get(today.isoformat(), []))
    shown = values_text(latest, unit, words, units)
    line = words(
        "digest.reading",
        name=name,
        latest=shown,
        period=label,
        average=values_text(average, unit, words, units),
        n=len(ordered),
    )
    facts = {
        "name": name,
        "unit": unit,
        "latest": latest,
        "average": average,
        "today": today_figure,
        "readings": len(ordered),
    }
    return line, f"{name} {shown}", facts
