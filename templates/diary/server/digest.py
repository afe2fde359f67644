"""What the person wrote, for macaron (server/macaron_life.py runs it): entries and days
written in the period, the average mood or the meals logged, the latest entries.

Read-only and deterministic."""

from __future__ import annotations

import datetime as dt

from server.macaron_life import days_running, digest_with_latest, has_table, period_label, read_only, recorded_days

DEFAULT_MOODS = ["😢", "😕", "😐", "🙂", "😄"]
LATEST = 3
EXCERPT = 80


def meal_name(meal: str, words) -> str:
    key = f"meal.{meal}"
    return words(key) if words.has(key) else meal


def digest(since: dt.date, today: dt.date, period: str, settings: dict, words) -> dict:
    conn = read_only()
    if conn is None or not has_table(conn, "entries"):
        return {}
    span = (since.isoformat(), today.isoformat())
    with conn:
        count, days, mood = conn.execute(
            "SELECT COUNT(*), COUNT(DISTINCT day), AVG(mood) FROM entries WHERE day BETWEEN ? AND ?", span
        ).fetchone()
        meals = conn.execute(
            "SELECT meal, COUNT(*) AS n FROM entries WHERE meal IS NOT NULL AND day BETWEEN ? AND ? "
            "GROUP BY meal ORDER BY n DESC, meal",
            span,
        ).fetchall()
        written = recorded_days(conn, "entries", today)
        latest = conn.execute(
            "SELECT day, mood, meal, text, created_at FROM entries WHERE day <= ? ORDER BY day DESC, id DESC LIMIT ?",
            (today.isoformat(), LATEST),
        ).fetchall()
    conn.close()
    moods = settings.get("moods") or DEFAULT_MOODS
    label = period_label(words, period)
    first = words("digest.written", period=label, count=count, days=days)
    lines = [first]
    if mood is not None:
        face = moods[min(len(moods), max(1, round(mood))) - 1]
        lines.append(words("digest.mood", face=face, value=words.number(mood), max=len(moods)))
    if meals:
        lines.append(words("digest.meals", parts=", ".join(f"{meal_name(r['meal'], words)} {r['n']}" for r in meals)))
    streak = days_running(written, today)
    if streak >= 2:
        lines.append(words("digest.streak", n=streak))

    def shown(row) -> str:
        face = moods[row["mood"] - 1] if row["mood"] and row["mood"] <= len(moods) else ""
        meal = meal_name(row["meal"], words) if row["meal"] else ""
        text = row["text"] if len(row["text"]) <= EXCERPT else row["text"][: EXCERPT - 1] + "…"
        return " ".join(filter(None, (words.day(row["day"]), face, meal, text)))

    items = [shown(r) for r in latest]
    return digest_with_latest(
        lines,
        count,
        latest,
        items,
        words,
        {
            "entries": count,
            "days": days,
            "average_mood": mood,
            "streak": streak,
            "meals": {r["meal"]: r["n"] for r in meals},
        },
    )
