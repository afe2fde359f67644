"""What every macaron starter app shares: where its data lives, the person's settings,
SQLite with ordered migrations, and serving the no-build front end.

This file is generated from macaron's templates/_shared/ (one source for every template);
change it there, not in an app.

- Data: the directory in the env var MACARON_APP_DATA (default `data/` in the app),
  so macaron can snapshot, sandbox or move it without touching code.
- Settings: the tracked file `config/app.json` (MACARON_APP_CONFIG overrides the path,
  which tests use). It is read on every request, so an edit shows on the next reload.
- What the app tracks: the spec in `macaron.json` (server/app_spec.py), given with the
  settings as "spec" (null for an app without one).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from server.app_spec import AppSpec, spec_of

APP_ROOT = Path(__file__).resolve().parents[1]
STATIC_DIR = APP_ROOT / "static"

# Settings every app understands; a template's config/app.json adds its own.
COMMON_SETTINGS = {
    "title": "",  # empty: the app's name in the person's language (i18n key "app.title")
    "language": "en",
    "accent": "#FF9AA2",
    "units": "metric",
    "currency": "USD",
    "date_format": "locale",
}
UNIT_SYSTEMS = ("metric", "imperial")
_HEX_COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{3}){1,2}$")
_CURRENCY = re.compile(r"^[A-Z]{3}$")
# The page asks for several things at once; only one request may migrate a new file.
_MIGRATING = threading.Lock()


def data_dir() -> Path:
    raw = Path(os.environ.get("MACARON_APP_DATA") or "data")
    path = raw if raw.is_absolute() else APP_ROOT / raw
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_path() -> Path:
    raw = os.environ.get("MACARON_APP_CONFIG")
    return Path(raw) if raw else APP_ROOT / "config" / "app.json"


def load_config() -> dict:
    """The person's settings, with safe values where the file is missing or wrong.

    A broken settings file must not take the app down: bad values fall back to defaults.
    """
    try:
        stored = json.loads(config_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stored = {}
    config = {**COMMON_SETTINGS, **(stored if isinstance(stored, dict) else {})}
    if not isinstance(config["accent"], str) or not _HEX_COLOUR.match(config["accent"]):
        config["accent"] = COMMON_SETTINGS["accent"]
    if config["units"] not in UNIT_SYSTEMS:
        config["units"] = COMMON_SETTINGS["units"]
    if not isinstance(config["currency"], str) or not _CURRENCY.match(config["currency"].upper()):
        config["currency"] = COMMON_SETTINGS["currency"]
    config["currency"] = config["currency"].upper()
    if not isinstance(config["language"], str) or not config["language"]:
        config["language"] = COMMON_SETTINGS["language"]
    spec = load_spec()
    config["spec"] = spec.to_json() if spec else None
    return config


def load_spec() -> AppSpec | None:
    """What the app tracks, from macaron.json; None when it has no valid spec (the app
    then runs on its settings alone)."""
    try:
        manifest = json.loads((APP_ROOT / "macaron.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return spec_of(manifest)


def database(migrations: list[str], filename: str = "app.db") -> Callable[[], Iterator[sqlite3.Connection]]:
    """A `with db() as conn:` opener for the app's SQLite file, migrated on first use.

    `migrations` is append-only: entry n runs once, when the file's user_version is n.
    To change the schema, add a new entry; never edit one that has shipped (people's
    data was made by it). Commits when the block ends without an error.
    """

    def migrate(conn: sqlite3.Connection) -> None:
        with _MIGRATING:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            for number, script in enumerate(migrations[version:], start=version):
                # one transaction per step: a failing migration leaves the data as it was
                conn.executescript(f"BEGIN;\n{script}\n;PRAGMA user_version = {number + 1};\nCOMMIT;")

    @contextmanager
    def connect() -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(data_dir() / filename, timeout=10, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys = ON")
        try:
            if conn.execute("PRAGMA user_version").fetchone()[0] < len(migrations):
                migrate(conn)
            yield conn
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        finally:
            conn.close()

    return connect


def create_app(name: str) -> FastAPI:
    """The FastAPI app with the routes every macaron app has: the page, static files,
    GET /api/config (the person's settings) and GET /api/health."""
    app = FastAPI(title=name)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/config")
    def get_config() -> dict:
        return load_config()

    @app.get("/api/health")
    def health() -> dict:
        return {"ok": True}

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app


def days_ending(end: dt.date, days: int) -> list[str]:
    """The `days` calendar days up to and including `end`, oldest first, as YYYY-MM-DD
    (at least 1, at most a year: enough for any chart, never a runaway query)."""
    days = max(1, min(days, 366))
    return [(end - dt.timedelta(days=back)).isoformat() for back in range(days - 1, -1, -1)]


def not_found(what: str) -> HTTPException:
    return HTTPException(status_code=404, detail=f"{what} not found")
