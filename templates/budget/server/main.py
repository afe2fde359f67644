"""Budget and expense tracker: what was spent, on what, against a monthly budget.

Amounts are integers in the currency's minor unit (cents; yen and won have none), each
row keeping the currency it was written in, so changing currency never rewrites history.
"""

from __future__ import annotations

import datetime as dt

from fastapi import HTTPException, Query
from pydantic import BaseModel, Field

from server.balances import standing
from server.currencies import in_other_currencies, set_amounts
from server.macaron_app import create_app, database, load_config, not_found

DEFAULT_CATEGORIES = ["food", "transport", "home", "fun", "health", "other"]
MONTH = r"^\d{4}-(0[1-9]|1[0-2])$"

app = create_app("Budget")
db = database(
    [
        """
    CREATE TABLE expenses (
        id INTEGER PRIMARY KEY,
        day TEXT NOT NULL,               -- YYYY-MM-DD, the person's own calendar day
        amount_minor INTEGER NOT NULL,   -- in the currency's minor unit
        currency TEXT NOT NULL,          -- ISO 4217, as configured when written
        category TEXT NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    );
    CREATE INDEX expenses_by_day ON expenses (day);
    """,
        # Money between people: who paid a shared bill, or who was lent money and who paid it back.
        """
    ALTER TABLE expenses ADD COLUMN who TEXT;
    ALTER TABLE expenses ADD COLUMN repaid INTEGER NOT NULL DEFAULT 0;
    """,
    ]
)


class NewExpense(BaseModel):
    amount_minor: int = Field(gt=0, le=10**12)
    category: str
    note: str = Field(default="", max_length=500)
    day: dt.date | None = None
    who: str | None = Field(default=None, max_length=80)  # one of config "people"
    repaid: bool = False  # debts: money paid back, not lent


def expense_json(row) -> dict:
    keys = ("id", "day", "amount_minor", "currency", "category", "note", "who", "created_at")
    return {key: row[key] for key in keys} | {"repaid": bool(row["repaid"])}


def this_month() -> str:
    return dt.date.today().isoformat()[:7]


@app.get("/api/expenses")
def list_expenses(month: str = Query(default_factory=this_month, pattern=MONTH)) -> list[dict]:
    """One month's expenses, newest first."""
    with db() as conn:
        rows = conn.execute(
            "SELECT * FROM expenses WHERE day LIKE ? ORDER BY day DESC, id DESC", (f"{month}-%",)
        ).fetchall()
    return [expense_json(r) for r in rows]


@app.get("/api/summary")
def month_summary(month: str = Query(default_factory=this_month, pattern=MONTH)) -> dict:
    """Totals for one month in the configured currency, overall and per category."""
    config = load_config()
    with db() as conn:
        rows = conn.execute(
            # Money paid back (debts) takes away from what was lent.
            "SELECT category, SUM(CASE WHEN repaid THEN -amount_minor ELSE amount_minor END) AS total, COUNT(*) AS n "
            "FROM expenses WHERE day LIKE ? AND currency = ? GROUP BY category ORDER BY total DESC",
            (f"{month}-%", config["currency"]),
        ).fetchall()
        saved = conn.execute(  # a savings goal counts every deposit ever made, not one month's
            "SELECT COALESCE(SUM(amount_minor), 0) FROM expenses WHERE currency = ?", (config["currency"],)
        ).fetchone()[0]
        also = in_other_currencies(conn, config["currency"], f"{month}-01", f"{month}-31")
    return {
        "month": month,
        "currency": config["currency"],
        "all_time_minor": saved,
        "total_minor": sum(r["total"] for r in rows),
        "count": sum(r["n"] for r in rows),
        "by_category": {r["category"]: r["total"] for r in rows},
        "also": also,  # recorded before a currency change, in its own currency (server/currencies.py)
        "set": set_amounts(config),  # the budget or savings goal, in the currency it was set in
    }


@app.post("/api/expenses", status_code=201)
def add_expense(expense: NewExpense) -> dict:
    config = load_config()
    categories = config.get("categories") or DEFAULT_CATEGORIES
    if expense.category not in categories:
        raise HTTPException(status_code=422, detail=f"category is one of {', '.join(categories)}")
    people = config.get("people") or []
    if expense.who is not None and expense.who not in people:
        raise HTTPException(status_code=422, detail=f"who is one of {', '.join(people) or 'the people in config'}")
    day = (expense.day or dt.date.today()).isoformat()
    now = dt.datetime.now().isoformat(timespec="seconds")
    with db() as conn:
        cursor = conn.execute(
            "INSERT INTO expenses (day, amount_minor, currency, category, note, who, repaid, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                day,
                expense.amount_minor,
                config["currency"],
                expense.category,
                expense.note.strip(),
                expense.who,
                int(expense.repaid),
                now,
            ),
        )
        row = conn.execute("SELECT * FROM expenses WHERE id = ?", (cursor.lastrowid,)).fetchone()
    return expense_json(row)


@app.delete("/api/expenses/{expense_id}", status_code=204)
def delete_expense(expense_id: int) -> None:
    with db() as conn:
        if conn.execute("DELETE FROM expenses WHERE id = ?", (expense_id,)).rowcount == 0:
            raise not_found("expense")


@app.get("/api/balances")
def balances() -> dict:
    """Where each person stands (server/balances.py), every month together."""
    with db() as conn:
        return standing(conn, load_config())
