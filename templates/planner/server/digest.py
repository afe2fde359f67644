"""What the person planned and did, for macaron (server/macaron_life.py runs it): what is
due today, overdue, coming up and someday, how many were done in the period, what is next.

Read-only and deterministic."""

from __future__ import annotations

import datetime as dt

from server.macaron_life import has_table, period_label, read_only

NEXT = 3


def digest(since: dt.date, today: dt.date, period: str, settings: dict, words) -> dict:
    conn = read_only()
    if conn is None or not has_table(conn, "tasks"):
        return {}
    day = today.isoformat()
    with conn:
        due_today, overdue, later, someday = conn.execute(
            "SELECT SUM(day = ?), SUM(day < ?), SUM(day > ?), SUM(day IS NULL) FROM tasks WHERE done = 0",
            (day, day, day),
        ).fetchone()
        done = conn.execute(
            "SELECT COUNT(*) FROM tasks WHERE done = 1 AND substr(done_at, 1, 10) BETWEEN ? AND ?",
            (since.isoformat(), day),
        ).fetchone()[0]
        upcoming = conn.execute(
            "SELECT title, day, time FROM tasks WHERE done = 0 AND day >= ? "
            "ORDER BY day, time IS NULL, time, id LIMIT ?",
            (day, NEXT),
        ).fetchall()
        latest = conn.execute("SELECT title, created_at FROM tasks ORDER BY id DESC LIMIT 3").fetchall()
    conn.close()
    counts = {"today": due_today or 0, "overdue": overdue or 0, "later": later or 0, "someday": someday or 0}
    first = words("digest.tasks", **counts)
    lines = [first, words("digest.done", period=period_label(words, period), n=done)]
    if upcoming:
        lines.append(
            words(
                "digest.next",
                items=", ".join(" ".join(filter(None, (r["title"], words.day(r["day"]), r["time"]))) for r in upcoming),
            )
        )
    if latest:
        lines.append(words("digest.latest", items=", ".join(r["title"] for r in latest)))
    return {
        "summary": first,
        "lines": lines,
        "count": done,
        "latest": [{"day": r["created_at"][:10], "text": r["title"]} for r in latest],
        "last_record_at": latest[0]["created_at"] if latest else None,
        "notices": [],
        "facts": {**counts, "done": done},
    }
