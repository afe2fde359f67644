"""Unit converter and calculator: everyday conversions (length, weight, volume,
temperature, area) and plain arithmetic, with the ones worth keeping saved."""

from __future__ import annotations

import datetime as dt

from fastapi import HTTPException
from pydantic import BaseModel, Field

from server import units
from server.macaron_app import create_app, database, load_config, not_found

app = create_app("Converter")
db = database(
    [
        """
    CREATE TABLE saved (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,            -- 'convert' or 'calculate'
        value REAL,                    -- convert: the amount and its units
        from_unit TEXT,
        to_unit TEXT,
        expression TEXT,               -- calculate: what was typed
        result REAL NOT NULL,
        created_at TEXT NOT NULL
    );
    """,
    ]
)


class Conversion(BaseModel):
    value: float = Field(allow_inf_nan=False)
    from_unit: str
    to_unit: str


class Calculation(BaseModel):
    expression: str = Field(max_length=200)


def unprocessable(error: ValueError) -> HTTPException:
    return HTTPException(status_code=422, detail=str(error))


def saved_json(row) -> dict:
    columns = ("id", "kind", "value", "from_unit", "to_unit", "expression", "result", "created_at")
    item = {key: row[key] for key in columns}
    if row["kind"] == "convert":
        item["from_symbol"], item["to_symbol"] = units.symbol(row["from_unit"]), units.symbol(row["to_unit"])
    return item


@app.get("/api/units")
def list_units() -> dict:
    """The categories to show (from the settings), their units and opening pairs."""
    config = load_config()
    everything = units.catalogue(config["units"], config.get("pairs"))
    wanted = [c for c in config.get("categories") or units.CATEGORIES if c in everything]
    return {category: everything[category] for category in wanted}


@app.get("/api/convert")
def convert(value: float, from_unit: str, to_unit: str) -> dict:
    try:
        result = units.convert(value, from_unit, to_unit)
    except ValueError as error:
        raise unprocessable(error) from None
    return {"value": value, "from_unit": from_unit, "to_unit": to_unit, "result": result}


def save(conn, **fields) -> dict:
    fields["created_at"] = dt.datetime.now().isoformat(timespec="seconds")
    names = ", ".join(fields)
    marks = ", ".join("?" * len(fields))
    cursor = conn.execute(f"INSERT INTO saved ({names}) VALUES ({marks})", tuple(fields.values()))
    return saved_json(conn.execute("SELECT * FROM saved WHERE id = ?", (cursor.lastrowid,)).fetchone())


@app.post("/api/conversions", status_code=201)
def save_conversion(conversion: Conversion) -> dict:
    try:
        result = units.convert(conversion.value, conversion.from_unit, conversion.to_unit)
    except ValueError as error:
        raise unprocessable(error) from None
    with db() as conn:
        return save(
            conn,
            kind="convert",
            value=conversion.value,
            from_unit=conversion.from_unit,
            to_unit=conversion.to_unit,
            result=result,
        )


@app.post("/api/calculations", status_code=201)
def calculate(calculation: Calculation) -> dict:
    """Work out an arithmetic expression and keep it in the saved list."""
    try:
        result = units.calculate(calculation.expression)
    except ValueError as error:
        raise unprocessable(error) from None
    with db() as conn:
        return save(conn, kind="calculate", expression=calculation.expression.strip(), result=result)


@app.get("/api/saved")
def list_saved(limit: int = 50) -> list[dict]:
    with db() as conn:
        rows = conn.execute("SELECT * FROM saved ORDER BY id DESC LIMIT ?", (max(1, min(limit, 500)),)).fetchall()
    return [saved_json(r) for r in rows]


@app.delete("/api/saved/{item_id}", status_code=204)
def delete_saved(item_id: int) -> None:
    with db() as conn:
        if conn.execute("DELETE FROM saved WHERE id = ?", (item_id,)).rowcount == 0:
            raise not_found("saved item")
