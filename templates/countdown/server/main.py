"""Countdown: the days left until the dates that matter (a wedding, an exam, a trip),
the nearest first; a date that has passed says how long ago it was.

The date the idea or a change named (config/app.json "event" and "day") is an event like
any other, added once: a change to its day moves it, a second one named is added beside
it, and one the person deleted stays deleted."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field

from server.macaron_app import create_app, database, load_config, not_found

app = create_app("Countdown")
db = database(
    [
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
)


def add_said_event(conn) -> None:
    """The event the settings name, as an event: added once; the same name on a new day
    (the date was changed) moves the one added before."""
    config = load_config()
    name, day = str(config.get("event") or "").strip(), str(config.get("day") or "")
    try:
        day = dt.date.fromisoformat(day).isoformat()
    except ValueError:
        return
    if not name or conn.execute("SELECT 1 FROM said_events WHERE name = ? AND day = ?", (name, day)).fetchone():
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


class NewEvent(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    day: dt.date


def event_json(row) -> dict:
    return {"id": row["id"], "name": row["name"], "day": row["day"], "created_at": row["created_at"]}


@app.get("/api/events")
def list_events() -> list[dict]:
    """Every date, the soonest first (the page counts the days in the person's own time zone)."""
    with db() as conn:
        add_said_event(conn)
        rows = conn.execute("SELECT * FROM events ORDER BY day, id").fetchall()
    return [event_json(r) for r in rows]


@app.post("/api/events", status_code=201)
def add_event(event: NewEvent) -> dict:
    now = dt.datetime.now().isoformat(timespec="seconds")
    with db() as conn:
        cursor = conn.execute(
            "INSERT INTO events (name, day, created_at) VALUES (?, ?, ?)",
            (event.name.strip(), event.day.isoformat(), now),
        )
        row = conn.execute("SELECT * FROM events WHERE id = ?", (cursor.lastrowid,)).fetchone()
    return event_json(row)


@app.delete("/api/events/{event_id}", status_code=204)
def delete_event(event_id: int) -> None:
    with db() as conn:
        if conn.execute("DELETE FROM events WHERE id = ?", (event_id,)).rowcount == 0:
            raise not_found("event")
