"""Collection: the things a person keeps track of (books lent, places tried, films seen),
each with the details that matter for that kind of thing and, if wanted, a rating."""

from __future__ import annotations

import datetime as dt
import json

from fastapi import HTTPException
from pydantic import BaseModel, Field

from server.macaron_app import create_app, database, load_config, not_found

app = create_app("Collection")
db = database(
    [
        """
    CREATE TABLE items (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        rating INTEGER,              -- 1..5, or NULL when not rated
        details TEXT NOT NULL DEFAULT '{}',  -- JSON: attribute → text, as config/app.json names them
        note TEXT,
        created_at TEXT NOT NULL
    );
    CREATE INDEX items_by_rating ON items (rating, created_at);
    """,
        # Care every few days (plants): how often, and when it was last done.
        """
    ALTER TABLE items ADD COLUMN every_days INTEGER;
    ALTER TABLE items ADD COLUMN last_done TEXT;
    """,
    ]
)


class ItemFields(BaseModel):
    name: str | None = Field(default=None, min_length=1, max_length=200)
    rating: int | None = Field(default=None, ge=1, le=5)
    details: dict[str, str] | None = None
    note: str | None = Field(default=None, max_length=2000)
    every_days: int | None = Field(default=None, ge=1, le=366)  # care every this many days
    last_done: dt.date | None = None


class NewItem(ItemFields):
    name: str = Field(min_length=1, max_length=200)


def item_json(row) -> dict:
    return {
        "id": row["id"],
        "name": row["name"],
        "rating": row["rating"],
        "details": json.loads(row["details"]),
        "note": row["note"],
        "every_days": row["every_days"],
        "last_done": row["last_done"],
        "next_due": next_due(row),
        "created_at": row["created_at"],
    }


def next_due(row) -> str | None:
    """The day care is due next: the last time plus its interval (today when never done)."""
    if not row["every_days"]:
        return None
    if not row["last_done"]:
        return dt.date.today().isoformat()
    return (dt.date.fromisoformat(row["last_done"]) + dt.timedelta(days=row["every_days"])).isoformat()


def checked_details(details: dict[str, str] | None) -> str:
    """Only the attributes this collection keeps, each a short text (an unknown one is a typo)."""
    allowed = set(load_config().get("attributes") or [])
    details = {k: v.strip() for k, v in (details or {}).items() if v and v.strip()}
    unknown = sorted(set(details) - allowed)
    if unknown:
        raise HTTPException(
            status_code=422, detail=f"unknown detail {unknown[0]!r}; add it to attributes in config/app.json"
        )
    if any(len(v) > 200 for v in details.values()):
        raise HTTPException(status_code=422, detail="a detail is at most 200 characters")
    return json.dumps(details, ensure_ascii=False, sort_keys=True)


@app.get("/api/items")
def list_items() -> list[dict]:
    """Every item, the best rated first, then the newest."""
    with db() as conn:
        rows = conn.execute("SELECT * FROM items ORDER BY rating IS NULL, rating DESC, id DESC").fetchall()
    return [item_json(r) for r in rows]


@app.post("/api/items", status_code=201)
def add_item(item: NewItem) -> dict:
    details = checked_details(item.details)
    now = dt.datetime.now().isoformat(timespec="seconds")
    with db() as conn:
        cursor = conn.execute(
            "INSERT INTO items (name, rating, details, note, every_days, last_done, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (item.name.strip(), item.rating, details, item.note, item.every_days, _day(item.last_done), now),
        )
        row = conn.execute("SELECT * FROM items WHERE id = ?", (cursor.lastrowid,)).fetchone()
    return item_json(row)


@app.patch("/api/items/{item_id}")
def change_item(item_id: int, change: ItemFields) -> dict:
    fields = change.model_dump(exclude_unset=True)
    with db() as conn:
        row = conn.execute("SELECT * FROM items WHERE id = ?", (item_id,)).fetchone()
        if row is None:
            raise not_found("item")
        if "details" in fields:
            fields["details"] = checked_details(change.details)
        if fields.get("name") is None:
            fields.pop("name", None)  # a name can be changed, never removed
        if "last_done" in fields:
            fields["last_done"] = _day(change.last_done)
        for column, value in fields.items():
            conn.execute(f"UPDATE items SET {column} = ? WHERE id = ?", (value, item_id))  # columns: the model's own
        row = conn.execute("SELECT * FROM items WHERE id = ?", (item_id,)).fetchone()
    return item_json(row)


@app.delete("/api/items/{item_id}", status_code=204)
def delete_item(item_id: int) -> None:
    with db() as conn:
        if conn.execute("DELETE FROM items WHERE id = ?", (item_id,)).rowcount == 0:
            raise not_found("item")


@app.post("/api/items/{item_id}/done")
def done_today(item_id: int) -> dict:
    """Care given today (watered): the next time is counted from now."""
    with db() as conn:
        if (
            conn.execute("UPDATE items SET last_done = ? WHERE id = ?", (dt.date.today().isoformat(), item_id)).rowcount
            == 0
        ):
            raise not_found("item")
        row = conn.execute("SELECT * FROM items WHERE id = ?", (item_id,)).fetchone()
    return item_json(row)


def _day(day: dt.date | None) -> str | None:
    return day.isoformat() if day else None
