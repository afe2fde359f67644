"""Records in a template's app, put there the way the person would (through the app's own
HTTP API) or in bulk (10k rows straight into its database, after its own migrations)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from macaron_cli.resources import compose_template, templates_dir

TEMPLATES = [
    *("habit-tracker", "budget", "diary", "planner", "converter", "collection", "countdown"),
    *("timer", "deck", "meal-plan"),
]
LANGUAGES = ["en", "ja", "ko", "zh", "tl"]
DAY = "2026-12-03"  # a Thursday; the week began on Monday 2026-11-30

# One record per template, posted to its API: (path, body).
ONE = {
    "habit-tracker": ("/api/entries", {"habit": "water", "amount": 250, "day": DAY}),
    "budget": ("/api/expenses", {"amount_minor": 1250, "category": "food", "note": "ramen", "day": DAY}),
    "diary": ("/api/entries", {"mood": 4, "text": "a walk by the river", "day": DAY}),
    "planner": ("/api/tasks", {"title": "call mom", "day": DAY, "time": "18:00"}),
    "converter": ("/api/conversions", {"value": 5, "from_unit": "kilometer", "to_unit": "mile"}),
    "collection": ("/api/items", {"name": "Kindred", "rating": 5}),
    "countdown": ("/api/events", {"name": "Wedding", "day": "2026-12-24"}),
    "timer": ("/api/sessions", {"minutes": 25, "day": DAY}),
    "deck": ("/api/cards", {"front": "gato", "back": "cat", "day": DAY}),
    "meal-plan": ("/api/plan", {"day": DAY, "meal": "dinner", "dish": "curry"}),
}

# Rows for bulk loads: (table, columns, a row for record n).
BULK = {
    "habit-tracker": (
        "entries",
        "habit, amount, day, created_at",
        lambda n, day: ("water", 250, day, f"{day}T08:00:00"),
    ),
    "budget": (
        "expenses",
        "day, amount_minor, currency, category, note, created_at",
        lambda n, day: (day, 100, "USD", "food", f"lunch {n}", f"{day}T12:00:00"),
    ),
    "diary": (
        "entries",
        "day, mood, meal, text, created_at",
        lambda n, day: (day, 3, None, f"note {n}", f"{day}T21:00:00"),
    ),
    "planner": (
        "tasks",
        "title, day, time, category, done, created_at, done_at",
        lambda n, day: (f"task {n}", day, None, None, 1, f"{day}T09:00:00", f"{day}T10:00:00"),
    ),
    "converter": (
        "saved",
        "kind, value, from_unit, to_unit, expression, result, created_at",
        lambda n, day: ("convert", 1.0, "kilometer", "mile", None, 0.621371, f"{day}T10:00:00"),
    ),
    "collection": (
        "items",
        "name, rating, details, created_at",
        lambda n, day: (f"book {n}", 1 + n % 5, "{}", f"{day}T20:00:00"),
    ),
    "countdown": (
        "events",
        "name, day, created_at",
        lambda n, day: (f"day {n}", day, f"{day}T20:00:00"),
    ),
    "timer": (
        "sessions",
        "day, minutes, created_at",
        lambda n, day: (day, 25, f"{day}T10:00:00"),
    ),
    "deck": (
        "cards",
        "front, back, box, due, created_at",
        lambda n, day: (f"word {n}", f"meaning {n}", 0, day, f"{day}T19:00:00"),
    ),
    "meal-plan": (
        "planned",
        "day, meal, dish, created_at",
        lambda n, day: (day, ("lunch", "dinner")[n % 2], f"dish {n}", f"{day}T18:00:00"),
    ),
}


def make_template_app(template: str, dest: Path, **settings) -> Path:
    """The template composed into `dest` (as `macaron make` would), with these settings;
    registered with its template's pinned values when the test has a home of its own."""
    compose_template(templates_dir() / template, dest)
    set_settings(dest, **settings)
    if os.environ.get("MACARON_HOME"):
        from macaron_cli.apps import register
        from macaron_cli.untrusted.pinned import for_template

        pins = for_template(template)
        assert pins is not None
        register(dest.name, path=str(dest), template=template, pinned=pins.to_json())
    return dest


def set_settings(app: Path, **settings) -> None:
    path = app / "config" / "app.json"
    config = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**config, **settings}, ensure_ascii=False), encoding="utf-8")


_POST = """
import json, sys
from fastapi.testclient import TestClient
from server.main import app
with TestClient(app) as client:
    for path, body in json.loads(sys.argv[1]):
        answer = client.post(path, json=body)
        assert answer.status_code == 201, answer.text
"""


def post(app: Path, *requests: tuple[str, dict]) -> None:
    """POST to the app's own API (in a process of its own, as the app runs)."""
    subprocess.run(
        [sys.executable, "-c", _POST, json.dumps(list(requests))], cwd=app, check=True, capture_output=True, timeout=120
    )


def bulk_load(app: Path, template: str, count: int, days: list[str]) -> None:
    """`count` rows spread over `days`, after the app's own migrations made its database."""
    import sqlite3

    migrate = "from server.main import db\nwith db():\n    pass"  # the app makes its own database
    subprocess.run([sys.executable, "-c", migrate], cwd=app, check=True, capture_output=True, timeout=120)

    table, columns, row = BULK[template]
    marks = ", ".join("?" * len(columns.split(",")))
    with sqlite3.connect(app / "data" / "app.db") as conn:
        conn.executemany(
            f"INSERT INTO {table} ({columns}) VALUES ({marks})", [row(n, days[n % len(days)]) for n in range(count)]
        )


def digest(app: Path, since: str = "2026-11-30", today: str = DAY, period: str = "week") -> dict:
    """The app's digest as macaron's sandbox runs it, here in a plain process."""
    done = subprocess.run(
        [sys.executable, "-m", "server.macaron_life", "--since", since, "--today", today, "--period", period],
        cwd=app,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
