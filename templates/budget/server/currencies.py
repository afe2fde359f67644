"""Records kept in their own currency: after the person switched currency ("use dollars"),
what they recorded before is still theirs and still counted, in the currency it was written
in (no rate is known offline to convert it). The page's summary and the digest both ask
here, so each says the same earlier amounts beside the total in the currency now."""

from __future__ import annotations

import sqlite3


def in_other_currencies(conn: sqlite3.Connection, currency: str, first: str, last: str) -> list[dict]:
    """What was recorded from `first` to `last` (days, YYYY-MM-DD) in other currencies than
    `currency`, each currency's total in its minor unit, the largest count first."""
    rows = conn.execute(
        "SELECT currency, SUM(CASE WHEN repaid THEN -amount_minor ELSE amount_minor END) AS total, COUNT(*) AS n "
        "FROM expenses WHERE day BETWEEN ? AND ? AND currency != ? GROUP BY currency ORDER BY n DESC, currency",
        (first, last, currency),
    ).fetchall()
    return [{"currency": r["currency"], "total_minor": r["total"], "count": r["n"]} for r in rows]
