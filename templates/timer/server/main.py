"""Focus timer: work for the minutes chosen, then a break; each finished work session is
kept (its minutes, on the person's day), so the page and the life loop can count them.

The countdown itself runs in the page; the server only keeps what was finished."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field

from server.macaron_app import create_app, database, not_found

app = create_app("Focus timer")
db = database(
    [
        """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        day TEXT NOT NULL,           -- YYYY-MM-DD, the person's own calendar day
        minutes INTEGER NOT NULL,    -- minutes of work in the session
        created_at TEXT NOT NULL
    );
    CREATE INDEX sessions_by_day ON sessions (day);
    """,
    ]
)


class NewSession(BaseModel):
    minutes: int = Field(ge=1, le=240)
    day: dt.date  # the page sends its own day: the person's time zone, not the server's


def session_json(row) -> dict:
    return {"id": row["id"], "day": row["day"], "minutes": row["minutes"], "created_at": row["created_at"]}


@app.get("/api/sessions")
def list_sessions(since: dt.date | None = None) -> list[dict]:
    """Finished sessions, the latest first (from `since` on, when given)."""
    with db() as conn:
        rows = conn.execute(
            "SELECT * FROM sessions WHERE day >= ? ORDER BY day DESC, id DESC LIMIT 500",
            ((since or dt.date.min).isoformat(),),
        ).fetchall()
    return [session_json(r) for r in rows]


@app.post("/api/sessions", status_code=201)
def add_session(session: NewSession) -> dict:
    now = dt.datetime.now().isoformat(timespec="seconds")
    with db() as conn:
        cursor = conn.execute(
            "INSERT INTO sessions (day, minutes, created_at) VALUES (?, ?, ?)",
            (session.day.isoformat(), session.minutes, now),
        )
        row = conn.execute("SELECT * FROM sessions WHERE id = ?", (cursor.lastrowid,)).fetchone()
    return session_json(row)


@app.delete("/api/sessions/{session_id}", status_code=204)
def delete_session(session_id: int) -> None:
    with db() as conn:
        if conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,)).rowcount == 0:
            raise not_found("session")
