"""Study deck: cards with a front and a back, reviewed when due. A simple spaced schedule
(Leitner boxes): "good" moves a card up a box and it comes back after the box's days
(1, 2, 4, 8 … 64); "again" puts it back in the first box, due the same day."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, Field

from server.macaron_app import create_app, database, not_found

app = create_app("Study deck")
db = database(
    [
        """
    CREATE TABLE cards (
        id INTEGER PRIMARY KEY,
        front TEXT NOT NULL,
        back TEXT NOT NULL,
        box INTEGER NOT NULL DEFAULT 0,  -- 0: new or forgotten; each "good" moves it up one
        due TEXT NOT NULL,               -- YYYY-MM-DD it is shown again
        created_at TEXT NOT NULL
    );
    CREATE INDEX cards_by_due ON cards (due);
    CREATE TABLE reviews (
        id INTEGER PRIMARY KEY,
        card_id INTEGER NOT NULL REFERENCES cards (id) ON DELETE CASCADE,
        day TEXT NOT NULL,
        grade TEXT NOT NULL,             -- again | good
        created_at TEXT NOT NULL
    );
    CREATE INDEX reviews_by_day ON reviews (day);
    """,
    ]
)
# Days until a card in box n (after "good") is due again.
INTERVALS = (1, 2, 4, 8, 16, 32, 64)


class NewCard(BaseModel):
    front: str = Field(min_length=1, max_length=500)
    back: str = Field(min_length=1, max_length=500)
    day: dt.date  # the page's own day: a new card is due at once


class Review(BaseModel):
    grade: Literal["again", "good"]
    day: dt.date


def card_json(row) -> dict:
    return {k: row[k] for k in ("id", "front", "back", "box", "due", "created_at")}


def _card(conn, card_id: int):
    row = conn.execute("SELECT * FROM cards WHERE id = ?", (card_id,)).fetchone()
    if row is None:
        raise not_found("card")
    return row


@app.get("/api/cards")
def list_cards() -> list[dict]:
    """Every card, the newest first."""
    with db() as conn:
        rows = conn.execute("SELECT * FROM cards ORDER BY id DESC").fetchall()
    return [card_json(r) for r in rows]


@app.get("/api/due")
def due_cards(day: dt.date) -> list[dict]:
    """The cards to review on `day`: the longest waiting first, then the oldest."""
    with db() as conn:
        rows = conn.execute("SELECT * FROM cards WHERE due <= ? ORDER BY due, id", (day.isoformat(),)).fetchall()
    return [card_json(r) for r in rows]


@app.post("/api/cards", status_code=201)
def add_card(card: NewCard) -> dict:
    now = dt.datetime.now().isoformat(timespec="seconds")
    with db() as conn:
        cursor = conn.execute(
            "INSERT INTO cards (front, back, box, due, created_at) VALUES (?, ?, 0, ?, ?)",
            (card.front.strip(), card.back.strip(), card.day.isoformat(), now),
        )
        return card_json(_card(conn, cursor.lastrowid))


@app.post("/api/cards/{card_id}/review", status_code=201)
def review_card(card_id: int, review: Review) -> dict:
    """Answer a card: "good" sends it further off, "again" brings it back today."""
    now = dt.datetime.now().isoformat(timespec="seconds")
    with db() as conn:
        card = _card(conn, card_id)
        if review.grade == "good":
            box = min(card["box"] + 1, len(INTERVALS))
            due = review.day + dt.timedelta(days=INTERVALS[box - 1])
        else:
            box, due = 0, review.day
        conn.execute("UPDATE cards SET box = ?, due = ? WHERE id = ?", (box, due.isoformat(), card_id))
        conn.execute(
            "INSERT INTO reviews (card_id, day, grade, created_at) VALUES (?, ?, ?, ?)",
            (card_id, review.day.isoformat(), review.grade, now),
        )
        return card_json(_card(conn, card_id))


@app.delete("/api/cards/{card_id}", status_code=204)
def delete_card(card_id: int) -> None:
    with db() as conn:
        conn.execute("DELETE FROM reviews WHERE card_id = ?", (card_id,))
        if conn.execute("DELETE FROM cards WHERE id = ?", (card_id,)).rowcount == 0:
            raise not_found("card")
