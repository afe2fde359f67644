"""Mood or food diary: a few words a day, with a mood face or the meal they belong to.

`kind` in config/app.json chooses the diary ("mood" or "food"); both keep the same rows,
so a person can switch without losing anything.
"""

from __future__ import annotations

import datetime as dt

from fastapi import HTTPException
from pydantic import BaseModel, Field

from server.macaron_app import create_app, database, days_ending, load_config, not_found

DEFAULT_MOODS = ["😢", "😕", "😐", "🙂", "😄"]
DEFAULT_MEALS = ["breakfast", "lunch", "dinner", "snack"]

app = create_app("Diary")
db = database(
    [
        """
    CREATE TABLE entries (
        id INTEGER PRIMARY KEY,
        day TEXT NOT NULL,           -- YYYY-MM-DD, the person's own calendar day
        mood INTEGER,                -- 1 (low) … len(moods) (high), or NULL
        meal TEXT,                   -- one of the configured meals, or NULL
        text TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    );
    CREATE INDEX entries_by_day ON entries (day);
    """,
    ]
)


class NewEntry(BaseModel):
    day: dt.date | None = None
    mood: int | None = Field(default=None, ge=1)
    meal: str | None = None
    text: str = Field(default="", max_length=5000)


def entry_json(row) -> dict:
    return {key: row[key] for key in ("id", "day", "mood", "meal", "text", "created_at")}


@app.get("/api/entries")
def list_entries(limit: int = 200) -> list[dict]:
    """The newest entries first."""
    with db() as conn:
        rows = conn.execute(
            "SELECT * FROM entries ORDER BY day DESC, id DESC LIMIT ?", (max(1, min(limit, 2000)),)
        ).fetchall()
    return [entry_json(r) for r in rows]


@app.post("/api/entries", status_code=201)
def add_entry(entry: NewEntry) -> dict:
    config = load_config()
    moods = config.get("moods") or DEFAULT_MOODS
    meals = config.get("meals") or DEFAULT_MEALS
    text = entry.text.strip()
    if entry.mood is None and not text:
        raise HTTPException(status_code=422, detail="write something or pick a mood")
    if entry.mood is not None and entry.mood > len(moods):
        raise HTTPException(status_code=422, detail=f"mood is 1 to {len(moods)}")
    if entry.meal is not None and entry.meal not in meals:
        raise HTTPException(status_code=422, detail=f"meal is one of {', '.join(meals)}")
    day = (entry.day or dt.date.today()).isoformat()
    now = dt.datetime.now().isoformat(timespec="seconds")
    with db() as conn:
        cursor = conn.execute(
            "INSERT INTO entries (day, mood, meal, text, created_at) VALUES (?, ?, ?, ?, ?)",
            (day, entry.mood, entry.meal, text, now),
        )
        row = conn.execute("SELECT * FROM entries WHERE id = ?", (cursor.lastrowid,)).fetchone()
    return entry_json(row)


@app.delete("/api/entries/{entry_id}", status_code=204)
def delete_entry(entry_id: int) -> None:
    with db() as conn:
        if conn.execute("DELETE FROM entries WHERE id = ?", (entry_id,)).rowcount == 0:
            raise not_found("entry")


@app.get("/api/moods")
def mood_by_day(end: dt.date, days: int = 14) -> list[dict]:
    """The average mood of each of the `days` days ending at `end` (None where unrecorded)."""
    wanted = days_ending(end, days)
    with db() as conn:
        rows = conn.execute(
            "SELECT day, AVG(mood) AS mood FROM entries WHERE mood IS NOT NULL AND day BETWEEN ? AND ? GROUP BY day",
            (wanted[0], wanted[-1]),
        ).fetchall()
    found = {r["day"]: r["mood"] for r in rows}
    return [{"day": day, "mood": found.get(day)} for day in wanted]
