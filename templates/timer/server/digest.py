"""The focus sessions finished, for macaron (server/macaron_life.py runs it): how many and
how many minutes in the period, today's, the days running with one, the latest.

Read-only and deterministic."""

from __future__ import annotations

import datetime as dt

from server.macaron_life import days_running, digest_with_latest, has_table, period_label, read_only, recorded_days

LATEST = 3


def digest(since: dt.date, today: dt.date, period: str, settings: dict, words) -> dict:
    conn = read_only()
    if conn is None or not has_table(conn, "sessions"):
        return {}
    with conn:
        count, minutes = conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(minutes), 0) FROM sessions WHERE day BETWEEN ? AND ?",
            (since.isoformat(), today.isoformat()),
        ).fetchone()
        today_count = conn.execute("SELECT COUNT(*) FROM sessions WHERE day = ?", (today.isoformat(),)).fetchone()[0]
        focused = recorded_days(conn, "sessions", today)
        latest = conn.execute(
            "SELECT day, minutes, created_at FROM sessions WHERE day <= ? ORDER BY day DESC, id DESC LIMIT ?",
            (today.isoformat(), LATEST),
        ).fetchall()
    conn.close()
    first = words("digest.sessions", period=period_label(words, period), count=count, minutes=words.number(minutes))
    lines = [first, words("digest.today", count=today_count)]
    streak = days_running(focused, today)
    if streak >= 2:
        lines.append(words("digest.streak", n=streak))
    items = [f"{words.day(r['day'])} {words('digest.minutes', n=r['minutes'])}" for r in latest]
    return digest_with_latest(
        lines,
        count,
        latest,
        items,
        words,
        {"sessions": count, "minutes": minutes, "today": today_count, "streak": streak},
    )
