"""The dates the idea or a change named, as events: the page's API adds them to the person's
data and the digest says them too, before the page was ever opened, from this one rule.

config/app.json keeps each date named before ("said_events", oldest first: a change that
names a second date never loses the first) and the latest ("event", "day"). Each is added
once: a name said again on a new day moves the event added before, and one the person
deleted stays deleted. Only the standard library: the digest starts without the web framework."""

from __future__ import annotations

import datetime as dt
import sqlite3

MIGRATIONS = [
    """
    CREATE TABLE events (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        day TEXT NOT NULL,           -- YYYY-MM-DD, the person's own calendar day
        created_at TEXT NOT NULL
    );
    CREATE INDEX events_by_day ON events (day);
    """,
    # Each event the settings named, once: so it is added once and a deleted one stays deleted.
    """
    CREATE TABLE said_events (
        name TEXT NOT NULL,
        day TEXT NOT NULL,
        event_id INTEGER NOT NULL,
        PRIMARY KEY (name, day)
    );
    """,
]


def said_in(config: dict) -> list[tuple[str, str]]:
    """Each (name, day) the settings named, oldest first; a day that is not a date is left out."""
    named = [*(config.get("said_events") or []), [config.get("event"), config.get("day")]]
    out: list[tuple[str, str]] = []
    for pair in named:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            continue
        name = str(pair[0] or "").strip()
        try:
            day = dt.date.fromisoformat(str(pair[1] or "")).isoformat()
        except ValueError:
            continue
        if name and (name, day) not in out:
            out.append((name, day))
    return out


def add_said_events(conn: sqlite3.Connection, config: dict) -> None:
    """Every date the settings named, as an event (see the module's rule)."""
    for name, day in said_in(config):
        _add(conn, name, day)


def with_said_events(conn: sqlite3.Connection | None, config: dict) -> sqlite3.Connection:
    """A copy in memory of the person's data (or of none) with the dates said added: what the
    page will show, read without writing the person's file."""
    copy = sqlite3.connect(":memory:")
    copy.row_factory = sqlite3.Row
    if conn is not None:
        conn.backup(copy)
    version = copy.execute("PRAGMA user_version").fetchone()[0]
    for script in MIGRATIONS[version:]:
        copy.executescript(script)
    add_said_events(copy, config)
    return copy


def _add(conn: sqlite3.Connection, name: str, day: str) -> None:
    if conn.execute("SELECT 1 FROM said_events WHERE name = ? AND day = ?", (name, day)).fetchone():
        return
    before = conn.execute(
        "SELECT event_id FROM said_events WHERE name = ? ORDER BY rowid DESC LIMIT 1", (name,)
    ).fetchone()
    moved = before and conn.execute("UPDATE events SET day = ? WHERE id = ?", (day, before[0])).rowcount
    event_id = before[0] if moved else None
    if not moved:
        now = dt.datetime.now().isoformat(timespec="seconds")
        event_id = conn.execute(
            "INSERT INTO events (name, day, created_at) VALUES (?, ?, ?)", (name, day, now)
        ).lastrowid
    conn.execute("INSERT INTO said_events (name, day, event_id) VALUES (?, ?, ?)", (name, day, event_id))
