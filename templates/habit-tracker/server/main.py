"""Habit and intake tracker: log water, steps, medication taken… against daily goals.

The habits themselves (name, icon, unit, goal, step) are the person's settings in
config/app.json; this backend stores what was logged, one row per tap.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager

from fastapi import HTTPException
from pydantic import BaseModel, Field

from server.app_figures import figures, over_periods, period_start
from server.macaron_app import create_app, database, days_ending, load_config, not_found
from server.units import SCHEMA as UNITS_SCHEMA
from server.units import in_units_now

app = create_app("Habit tracker")
_db = database(
    [
        """
    CREATE TABLE entries (
        id INTEGER PRIMARY KEY,
        habit TEXT NOT NULL,
        amount REAL NOT NULL,
        day TEXT NOT NULL,             -- YYYY-MM-DD, the person's own calendar day
        created_at TEXT NOT NULL
    );
    CREATE INDEX entries_by_day ON entries (day, habit);
    """,
        # A second value per entry (blood pressure: systolic, then diastolic) and the time of
        # day it belongs to (morning, evening), for measures whose spec asks for them.
        """
    ALTER TABLE entries ADD COLUMN amount2 REAL;
    ALTER TABLE entries ADD COLUMN part TEXT;
    """,
        UNITS_SCHEMA,  # the unit each habit's amounts are in (server/units.py)
    ]
)


@contextmanager
def db() -> Iterator:
    """The database, each habit's amounts in its unit now (a changed unit converts them)."""
    with _db() as conn:
        in_units_now(conn, habits_by_key())
        yield conn


class NewEntry(BaseModel):
    habit: str
    amount: float = Field(gt=0, le=1_000_000)
    amount2: float | None = Field(default=None, gt=0, le=1_000_000)  # the second of two values
    part: str | None = Field(default=None, max_length=40)  # the time of day, one of the habit's times
    day: dt.date | None = None  # the browser sends its local day; default: the server's


def habits_by_key() -> dict[str, dict]:
    return {h["key"]: h for h in load_config().get("habits", []) if isinstance(h, dict) and "key" in h}


def habit_keys() -> set[str]:
    return set(habits_by_key())


def entry_json(row) -> dict:
    return {
        "id": row["id"],
        "habit": row["habit"],
        "amount": row["amount"],
        "amount2": row["amount2"],
        "part": row["part"],
        "day": row["day"],
        "created_at": row["created_at"],
    }


@app.get("/api/days/{day}")
def get_day(day: dt.date) -> dict:
    """What was logged on one day: every entry and each habit's figure (a sum of intake, the
    latest of a reading: server/app_figures.py, as the digest says it); a goal for a week or a
    month, its figure since the period began."""
    habits = habits_by_key().values()
    with db() as conn:
        rows = conn.execute("SELECT * FROM entries WHERE day = ? ORDER BY id", (day.isoformat(),)).fetchall()
        so_far = {}  # a goal for a week or a month: its entries from the period's first day
        for habit in (h for h in habits if over_periods(h)):
            first = period_start(day, habit["period"])
            found = conn.execute(
                "SELECT * FROM entries WHERE habit = ? AND day BETWEEN ? AND ? ORDER BY id",
                (habit["key"], first.isoformat(), day.isoformat()),
            ).fetchall()
            so_far[habit["key"]] = {"since": first.isoformat(), **figures([habit], found)[habit["key"]]}
    return {
        "day": day.isoformat(),
        "figures": figures(habits, rows),
        "period_figures": so_far,
        "entries": [entry_json(r) for r in rows],
    }


@app.get("/api/history")
def history(end: dt.date, days: int = 7) -> list[dict]:
    """Each habit's figure for the `days` days ending at `end`, oldest first (the week strip)."""
    by_day: dict[str, list] = {day: [] for day in days_ending(end, days)}
    with db() as conn:
        rows = conn.execute(
            "SELECT * FROM entries WHERE day BETWEEN ? AND ? ORDER BY id", (min(by_day), max(by_day))
        ).fetchall()
    for row in rows:
        by_day[row["day"]].append(row)
    habits = habits_by_key().values()
    return [{"day": day, "figures": figures(habits, entries)} for day, entries in by_day.items()]


@app.post("/api/entries", status_code=201)
def add_entry(entry: NewEntry) -> dict:
    habit = habits_by_key().get(entry.habit)
    if habit is None:
        raise HTTPException(status_code=422, detail=f"unknown habit {entry.habit!r}; add it to config/app.json first")
    if len(habit.get("values") or []) > 1 and entry.amount2 is None:
        raise HTTPException(status_code=422, detail=f"{entry.habit} takes two values per entry; send amount2 too")
    if entry.part is not None and entry.part not in (habit.get("times") or []):
        raise HTTPException(status_code=422, detail=f"{entry.habit} is not logged in the {entry.part!r}")
    day = (entry.day or dt.date.today()).isoformat()
    now = dt.datetime.now().isoformat(timespec="seconds")
    with db() as conn:
        cursor = conn.execute(
            "INSERT INTO entries (habit, amount, amount2, part, day, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (entry.habit, entry.amount, entry.amount2, entry.part, day, now),
        )
        row = conn.execute("SELECT * FROM entries WHERE id = ?", (cursor.lastrowid,)).fetchone()
    return entry_json(row)


@app.delete("/api/entries/{entry_id}", status_code=204)
def delete_entry(entry_id: int) -> None:
    with db() as conn:
        if conn.execute("DELETE FROM entries WHERE id = ?", (entry_id,)).rowcount == 0:
            raise not_found("entry")
