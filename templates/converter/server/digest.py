"""What the person kept, for macaron (server/macaron_life.py runs it): how many results
were saved in the period and the latest ones. Read-only and deterministic."""

from __future__ import annotations

import datetime as dt

from server.macaron_life import has_table, period_label, read_only
from server.units import symbol

LATEST = 3


def shown(row, words) -> str:
    if row["kind"] == "convert":
        try:
            units = symbol(row["from_unit"]), symbol(row["to_unit"])
        except (KeyError, TypeError):
            units = row["from_unit"], row["to_unit"]
        return f"{words.number(row['value'], 4)} {units[0]} = {words.number(row['result'], 4)} {units[1]}"
    return f"{row['expression']} = {words.number(row['result'], 4)}"


def digest(since: dt.date, today: dt.date, period: str, settings: dict, words) -> dict:
    conn = read_only()
    if conn is None or not has_table(conn, "saved"):
        return {}
    with conn:
        count = conn.execute(
            "SELECT COUNT(*) FROM saved WHERE substr(created_at, 1, 10) BETWEEN ? AND ?",
            (since.isoformat(), today.isoformat()),
        ).fetchone()[0]
        latest = conn.execute("SELECT * FROM saved ORDER BY id DESC LIMIT ?", (LATEST,)).fetchall()
    conn.close()
    items = [shown(r, words) for r in latest]
    first = words("digest.saved", period=period_label(words, period), n=count)
    lines = [first] + ([words("digest.latest", items=", ".join(items))] if items else [])
    return {
        "summary": first,
        "lines": lines,
        "count": count,
        "latest": [{"day": r["created_at"][:10], "text": text} for r, text in zip(latest, items, strict=True)],
        "last_record_at": latest[0]["created_at"] if latest else None,
        "notices": [],
        "facts": {"saved": count},
    }
