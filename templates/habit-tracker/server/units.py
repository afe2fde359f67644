"""Recorded amounts follow their habit's unit.

A habit's unit is a setting (config/app.json), and a change may move it ("use cups, not ml"):
the amounts already logged were logged in the old unit. The database remembers the unit each
habit's amounts are in (`stored_units`); when the setting differs and the two units measure
the same thing, the amounts are converted once, in the same transaction, so a liter logged
before is 4 cups after, never 1 cup. Data stays out of git: a rollback of the setting
converts them back the same way. Units that are counted words (steps, times) are only
recorded: there is nothing to convert.
"""

from __future__ import annotations

import sqlite3

from server.app_units import unit_factor

SCHEMA = """
    CREATE TABLE stored_units (
        habit TEXT PRIMARY KEY,
        unit TEXT NOT NULL             -- the unit the habit's amounts in `entries` are in
    );
"""


def in_units_now(conn: sqlite3.Connection, habits: dict[str, dict]) -> None:
    """Bring each habit's amounts into its unit now (a writing connection)."""
    stored = {row["habit"]: row["unit"] for row in conn.execute("SELECT habit, unit FROM stored_units")}
    for key, habit in habits.items():
        unit = str(habit.get("unit") or "")
        before = stored.get(key)
        if before == unit:
            continue
        if before is None:
            conn.execute("INSERT OR IGNORE INTO stored_units (habit, unit) VALUES (?, ?)", (key, unit))
            continue
        # Claim the move first: a request racing this one finds the unit moved and converts nothing.
        moved = conn.execute("UPDATE stored_units SET unit = ? WHERE habit = ? AND unit = ?", (unit, key, before))
        factor = unit_factor(before, unit)
        if moved.rowcount == 1 and factor not in (None, 1.0):
            conn.execute(
                "UPDATE entries SET amount = amount * ?, amount2 = amount2 * ? WHERE habit = ?", (factor, factor, key)
            )


def factors(conn: sqlite3.Connection, habits: dict[str, dict]) -> dict[str, float]:
    """For a reader that may not write (the digest): what each habit's stored amounts are
    multiplied by to be in its unit now (1 where they already are)."""
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'stored_units'").fetchone()
    stored = {row[0]: row[1] for row in conn.execute("SELECT habit, unit FROM stored_units")} if exists else {}
    out = {}
    for key, habit in habits.items():
        before = stored.get(key)
        factor = unit_factor(before, str(habit.get("unit") or "")) if before is not None else None
        out[key] = factor or 1.0
    return out
