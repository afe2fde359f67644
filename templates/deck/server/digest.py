"""The cards studied, for macaron (server/macaron_life.py runs it): reviews in the period
and how many were good, the cards in the deck and those due today, the latest answered.

Read-only and deterministic."""

from __future__ import annotations

import datetime as dt

from server.macaron_life import days_running, digest_with_latest, has_table, period_label, read_only, recorded_days

LATEST = 3
EXCERPT = 40


def digest(since: dt.date, today: dt.date, period: str, settings: dict, words) -> dict:
    conn = read_only()
    if conn is None or not has_table(conn, "reviews"):
        return {}
    with conn:
        reviews, good = conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(grade = 'good'), 0) FROM reviews WHERE day BETWEEN ? AND ?",
            (since.isoformat(), today.isoformat()),
        ).fetchone()
        cards, due = conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(due <= ?), 0) FROM cards", (today.isoformat(),)
        ).fetchone()
        added = conn.execute(
            "SELECT COUNT(*) FROM cards WHERE substr(created_at, 1, 10) BETWEEN ? AND ?",
            (since.isoformat(), today.isoformat()),
        ).fetchone()[0]
        studied = recorded_days(conn, "reviews", today)
        latest = conn.execute(  # cards answered and cards added, the latest first
            "SELECT r.day, r.grade, r.created_at, c.front FROM reviews r JOIN cards c ON c.id = r.card_id "
            "WHERE r.day <= ? UNION ALL "
            "SELECT substr(created_at, 1, 10), 'new', created_at, front FROM cards "
            "ORDER BY created_at DESC LIMIT ?",
            (today.isoformat(), LATEST),
        ).fetchall()
    conn.close()
    first = words("digest.reviewed", period=period_label(words, period), count=reviews, good=good)
    lines = [first, words("digest.deck", cards=cards, due=due)]
    streak = days_running(studied, today)
    if streak >= 2:
        lines.append(words("digest.streak", n=streak))

    def shown(row) -> str:
        front = row["front"] if len(row["front"]) <= EXCERPT else row["front"][: EXCERPT - 1] + "…"
        return f"{words.day(row['day'])} {front} ({words('deck.' + row['grade'])})"

    items = [shown(r) for r in latest]
    return digest_with_latest(
        lines,
        reviews + added,
        latest,
        items,
        words,
        {"reviews": reviews, "good": good, "cards": cards, "due": due, "added": added, "streak": streak},
    )
