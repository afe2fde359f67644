"""The dates counted down to, for macaron (server/macaron_life.py runs it): the next ones
and the days left, and a date that arrived today.

Read-only and deterministic."""

from __future__ import annotations

import datetime as dt

from server.macaron_life import has_table, read_only
from server.said import said_in, with_said_events

NEXT = 3


def digest(since: dt.date, today: dt.date, period: str, settings: dict, words) -> dict:
    found = read_only()
    if (found is None or not has_table(found, "events")) and not said_in(settings):
        return {}
    kept = found if found is not None and has_table(found, "events") else None
    conn = with_said_events(kept, settings)  # the dates said are events before the page adds them
    if found is not None:
        found.close()
    with conn:
        upcoming = conn.execute(
            "SELECT name, day FROM events WHERE day >= ? ORDER BY day, id LIMIT ?", (today.isoformat(), NEXT)
        ).fetchall()
        added = conn.execute(
            "SELECT COUNT(*) FROM events WHERE substr(created_at, 1, 10) BETWEEN ? AND ?",
            (since.isoformat(), today.isoformat()),
        ).fetchone()[0]
        latest = conn.execute("SELECT name, created_at FROM events ORDER BY id DESC LIMIT 3").fetchall()
    conn.close()
    left = [(r["name"], (dt.date.fromisoformat(r["day"]) - today).days) for r in upcoming]
    lines = [
        words("digest.left", name=name, n=days) if days else words("digest.today", name=name) for name, days in left
    ]
    if not lines:
        lines = [words("digest.none_ahead")]
    return {
        "summary": lines[0],
        "lines": lines,
        "count": added,
        "latest": [{"day": r["created_at"][:10], "text": r["name"]} for r in latest],
        "last_record_at": latest[0]["created_at"] if latest else None,
        "notices": [
            {"kind": "celebrate", "key": name, "text": words("digest.today", name=name)}
            for name, days in left
            if days == 0
        ],
        "facts": {"next": [{"name": name, "days": days} for name, days in left]},
    }
