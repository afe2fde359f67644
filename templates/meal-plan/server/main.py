"""Weekly meal plan: dishes for each day and meal (breakfast, lunch, dinner, snack), planned
ahead, a week at a time. A meal may hold several dishes (curry and a salad)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from fastapi import HTTPException
from pydantic import BaseModel, Field

from server.macaron_app import create_app, database, not_found

app = create_app("Weekly meal plan")
db = database(
    [
        """
    CREATE TABLE planned (
        id INTEGER PRIMARY KEY,
        day TEXT NOT NULL,           -- YYYY-MM-DD
        meal TEXT NOT NULL,          -- breakfast | lunch | dinner | snack
        dish TEXT NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX planned_by_day ON planned (day);
    """,
    ]
)


class Planned(BaseModel):
    day: dt.date
    meal: Literal["breakfast", "lunch", "dinner", "snack"]
    dish: str = Field(min_length=1, max_length=200)


def planned_json(row) -> dict:
    return {"id": row["id"], "day": row["day"], "meal": row["meal"], "dish": row["dish"]}


@app.get("/api/plan")
def week_plan(start: dt.date, days: int = 7) -> list[dict]:
    """What is planned from `start`, for `days` days (a week), by day, in the order planned."""
    end = start + dt.timedelta(days=max(1, min(days, 31)) - 1)
    with db() as conn:
        rows = conn.execute(
            "SELECT * FROM planned WHERE day BETWEEN ? AND ? ORDER BY day, id", (start.isoformat(), end.isoformat())
        ).fetchall()
    return [planned_json(r) for r in rows]


@app.post("/api/plan", status_code=201)
def plan_dish(planned: Planned) -> dict:
    """A dish for one day's meal."""
    dish = planned.dish.strip()
    if not dish:
        raise HTTPException(status_code=422, detail="a dish needs a name")
    now = dt.datetime.now().isoformat(timespec="seconds")
    with db() as conn:
        cursor = conn.execute(
            "INSERT INTO planned (day, meal, dish, created_at) VALUES (?, ?, ?, ?)",
            (planned.day.isoformat(), planned.meal, dish, now),
        )
        row = conn.execute("SELECT * FROM planned WHERE id = ?", (cursor.lastrowid,)).fetchone()
    return planned_json(row)


@app.delete("/api/plan/{planned_id}", status_code=204)
def unplan_dish(planned_id: int) -> None:
    with db() as conn:
        if conn.execute("DELETE FROM planned WHERE id = ?", (planned_id,)).rowcount == 0:
            raise not_found("dish")
