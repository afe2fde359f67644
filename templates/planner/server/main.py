"""Planner: tasks with an optional day and time, grouped into overdue, today, upcoming
and someday; tick them off when done."""

from __future__ import annotations

import datetime as dt
import re

from fastapi import HTTPException
from pydantic import BaseModel, Field, field_validator

from server.macaron_app import create_app, database, load_config, not_found

DEFAULT_CATEGORIES = ["home", "work", "errand"]
_TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")

app = create_app("Planner")
db = database(
    [
        """
    CREATE TABLE tasks (
        id INTEGER PRIMARY KEY,
        title TEXT NOT NULL,
        day TEXT,                    -- YYYY-MM-DD, or NULL for "someday"
        time TEXT,                   -- HH:MM, or NULL
        category TEXT,
        done INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        done_at TEXT
    );
    CREATE INDEX tasks_by_day ON tasks (done, day, time);
    """,
        # Chores shared between people: who does a task, and whether it comes back every week.
        """
    ALTER TABLE tasks ADD COLUMN who TEXT;
    ALTER TABLE tasks ADD COLUMN repeat TEXT;
    """,
        # A rota: the time of day (shift) a task belongs to.
        "ALTER TABLE tasks ADD COLUMN shift TEXT;",
    ]
)


class TaskFields(BaseModel):
    title: str | None = Field(default=None, max_length=500)
    day: dt.date | None = None
    time: str | None = None
    category: str | None = None
    who: str | None = Field(default=None, max_length=80)  # one of config "people"
    repeat: str | None = None  # "weekly": ticked off, it comes back seven days later
    shift: str | None = Field(default=None, max_length=20)  # one of config "shifts"

    @field_validator("repeat")
    @classmethod
    def known_repeat(cls, value: str | None) -> str | None:
        if value not in (None, "", "weekly"):
            raise ValueError("repeat is 'weekly' or empty")
        return value or None

    @field_validator("time")
    @classmethod
    def clock_time(cls, value: str | None) -> str | None:
        if value in (None, ""):
            return None
        if not _TIME.match(value):
            raise ValueError("time is HH:MM, 24-hour")
        return value


class NewTask(TaskFields):
    title: str = Field(max_length=500)


class TaskChange(TaskFields):
    done: bool | None = None


def check_category(category: str | None) -> None:
    categories = load_config().get("categories") or DEFAULT_CATEGORIES
    if category is not None and category not in categories:
        raise HTTPException(status_code=422, detail=f"category is one of {', '.join(categories)}")


def check_who(who: str | None) -> None:
    people = load_config().get("people") or []
    if who is not None and who not in people:
        raise HTTPException(
            status_code=422, detail=f"who is one of {', '.join(people) or 'the people in config/app.json'}"
        )


def check_shift(shift: str | None) -> None:
    shifts = load_config().get("shifts") or []
    if shift is not None and shift not in shifts:
        said = ", ".join(shifts) or "the shifts in config/app.json"
        raise HTTPException(status_code=422, detail=f"shift is one of {said}")


def task_json(row) -> dict:
    return {
        "id": row["id"],
        "title": row["title"],
        "day": row["day"],
        "time": row["time"],
        "category": row["category"],
        "who": row["who"],
        "repeat": row["repeat"],
        "shift": row["shift"],
        "done": bool(row["done"]),
        "created_at": row["created_at"],
        "done_at": row["done_at"],
    }


def fetch(conn, task_id: int):
    row = conn.execute("SELECT * FROM tasks WHERE id = ?", (task_id,)).fetchone()
    if row is None:
        raise not_found("task")
    return row


@app.get("/api/tasks")
def list_tasks() -> list[dict]:
    """Every task: dated ones by day and time, then the undated, each in the order added."""
    with db() as conn:
        rows = conn.execute("SELECT * FROM tasks ORDER BY day IS NULL, day, time IS NULL, time, id").fetchall()
    return [task_json(r) for r in rows]


@app.post("/api/tasks", status_code=201)
def add_task(task: NewTask) -> dict:
    title = task.title.strip()
    if not title:
        raise HTTPException(status_code=422, detail="a task needs a title")
    check_category(task.category)
    check_who(task.who)
    check_shift(task.shift)
    if task.repeat and not task.day:
        raise HTTPException(status_code=422, detail="a task that repeats weekly needs a day to start from")
    now = dt.datetime.now().isoformat(timespec="seconds")
    with db() as conn:
        cursor = conn.execute(
            "INSERT INTO tasks (title, day, time, category, who, repeat, shift, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                title,
                task.day.isoformat() if task.day else None,
                task.time,
                task.category,
                task.who,
                task.repeat,
                task.shift,
                now,
            ),
        )
        return task_json(fetch(conn, cursor.lastrowid))


@app.patch("/api/tasks/{task_id}")
def change_task(task_id: int, change: TaskChange) -> dict:
    """Change only the fields sent; `"day": null` moves a task to someday."""
    fields = change.model_dump(exclude_unset=True)
    if "title" in fields:
        fields["title"] = (fields["title"] or "").strip()
        if not fields["title"]:
            raise HTTPException(status_code=422, detail="a task needs a title")
    if "category" in fields:
        check_category(fields["category"])
    if "who" in fields:
        check_who(fields["who"])
    if "shift" in fields:
        check_shift(fields["shift"])
    if "day" in fields and fields["day"] is not None:
        fields["day"] = fields["day"].isoformat()
    if "done" in fields:
        fields["done_at"] = dt.datetime.now().isoformat(timespec="seconds") if fields["done"] else None
        fields["done"] = int(fields["done"])
    with db() as conn:
        before = fetch(conn, task_id)
        if fields:
            assignments = ", ".join(f"{name} = ?" for name in fields)  # names come from the model
            conn.execute(f"UPDATE tasks SET {assignments} WHERE id = ?", (*fields.values(), task_id))
        task = fetch(conn, task_id)
        if fields.get("done") and not before["done"] and task["repeat"] == "weekly" and task["day"]:
            next_day = (dt.date.fromisoformat(task["day"]) + dt.timedelta(days=7)).isoformat()
            conn.execute(
                "INSERT INTO tasks (title, day, time, category, who, repeat, shift, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    task["title"],
                    next_day,
                    task["time"],
                    task["category"],
                    task["who"],
                    task["repeat"],
                    task["shift"],
                    dt.datetime.now().isoformat(timespec="seconds"),
                ),
            )
        return task_json(task)


@app.delete("/api/tasks/{task_id}", status_code=204)
def delete_task(task_id: int) -> None:
    with db() as conn:
        if conn.execute("DELETE FROM tasks WHERE id = ?", (task_id,)).rowcount == 0:
            raise not_found("task")
