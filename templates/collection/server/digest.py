"""What the person collected, for macaron (server/macaron_life.py runs it): how many items,
how many were added in the period, the best rated, the latest.

Read-only and deterministic."""

from __future__ import annotations

import datetime as dt

from server.macaron_life import has_table, period_label, read_only

LATEST = 3


def digest(since: dt.date, today: dt.date, period: str, settings: dict, words) -> dict:
    conn = read_only()
    if conn is None or not has_table(conn, "items"):
        return {}
    with conn:
        total = conn.execute("SELECT COUNT(*) FROM items").fetchone()[0]
        added = conn.execute(
            "SELECT COUNT(*) FROM items WHERE substr(created_at, 1, 10) BETWEEN ? AND ?",
            (since.isoformat(), today.isoformat()),
        ).fetchone()[0]
        best = conn.execute(
            "SELECT name, rating FROM items WHERE rating IS NOT NULL ORDER BY rating DESC, id DESC LIMIT 3"
        ).fetchall()
        latest = conn.execute(
            "SELECT name, rating, created_at FROM items ORDER BY id DESC LIMIT ?", (LATEST,)
        ).fetchall()
    conn.close()
    first = words("digest.items", period=period_label(words, period), n=added, total=total)
    lines = [first]
    if best:
        lines.append(words("digest.best", items=", ".join(f"{r['name']} {'★' * r['rating']}" for r in best)))
    if latest:
        lines.append(words("digest.latest", items=", ".join(r["name"] for r in latest)))
    return {
        "summary": first,
        "lines": lines,
        "count": added,
        "latest": [{"day": r["created_at"][:10], "text": r["name"]} for r in latest],
        "last_record_at": latest[0]["created_at"] if latest else None,
        "notices": [],
        "facts": {"total": total, "added": added, "best": [r["name"] for r in best]},
    }
