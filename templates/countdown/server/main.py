"""Countdown: the days left until the dates that matter (a wedding, an exam, a trip),
the nearest first; a date that has passed says how long ago it was.

The dates the idea or a change named are events like any other (server/said.py)."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field

from server.macaron_app import create_app, database, load_config, not_found
from server.said import MIGRATIONS, add_said_events

app = create_app("Countdown")
db = database(MIGRATIONS)


class NewEvent(BaseModel):
    name: str = Field(min_length=1, max_length=200)
    day: dt.date


def event_json(row) -> dict:
    return {"id": row["id"], "name": row["name"], "day": row["day"], "created_at": row["created_at"]}


@app.get("/api/events")
def list_events() -> list[dict]:
    """Every date, the soonest first (the page counts the days in the person's own time zone)."""
    with db() as conn:
        add_said_events(conn, load_config())
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
