"""The life-log contract: what the app recorded, summarised by the app itself, for macaron.

This file is generated from macaron's templates/_shared/ (one source for every template);
change it there, not in an app.

macaron (the friend, `macaron apps digest`) never starts the app to learn what the person
recorded: it runs the manifest's "digest" command,

    python -m server.macaron_life --since 2026-11-30 --today 2026-12-04 --period week

in a sandbox, read-only, with a time limit. That calls the app's own
`server/digest.py: digest(since, today, period)` and prints one JSON object:

    {"title", "language", "since", "today", "period", "summary", "lines", "count",
     "latest", "last_record_at", "notices", "facts"}

(its shape is declared once, as `Digest` in server/app_manifest.py, which macaron reads too).

Everything is worded in the app's language (config/app.json "language"), from the same
dictionaries as the page (static/i18n/*.json, keys "digest.*"). No model, no network,
no writes: the data file is opened read-only and a missing one is an empty digest.
Nothing here imports the web framework, so a digest starts in a blink.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import os
import sqlite3
import sys
from pathlib import Path

from server.app_manifest import PERIODS, digest_problem
from server.app_units import IMPERIAL, SYMBOLS, written, written_number  # stored metric, shown as i18n.js shows them

APP_ROOT = Path(__file__).resolve().parents[1]
STATIC_DIR = APP_ROOT / "static"

CURRENCY_SYMBOLS = {"USD": "$", "JPY": "¥", "KRW": "₩", "CNY": "¥", "PHP": "₱", "EUR": "€", "GBP": "£"}
ZERO_DECIMAL_CURRENCIES = {"JPY", "KRW", "VND", "CLP", "ISK", "HUF", "TWD", "UGX"}


def minor_digits(currency: str) -> int:
    """Decimals of a currency's minor unit (cents: 2; yen and won have none)."""
    return 0 if currency in ZERO_DECIMAL_CURRENCIES else 2


class Words:
    """The app's words in one language ({name} filled in), English where one is missing."""

    def __init__(self, language: str):
        self.language = language
        table: dict[str, str] = {}
        for name in ("common.json", "app.json"):
            try:
                found = json.loads((STATIC_DIR / "i18n" / name).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            table.update(found.get("en", {}))
            table.update(found.get(language, {}))
        self.table = table

    def __call__(self, key: str, **values) -> str:
        text = self.table.get(key, key)
        for name, value in values.items():
            text = text.replace("{" + name + "}", str(value))
        return text

    def has(self, key: str) -> bool:
        return key in self.table

    def number(self, value: float, decimals: int = 1) -> str:
        return written_number(value, decimals)

    def quantity(self, value: float, unit: str, units: str = "metric") -> str:
        """750 milliliter → "750 mL" (or "25.4 fl oz" in imperial); 3 steps → "3 歩"."""
        if units == "imperial" and unit in IMPERIAL:
            unit, factor = IMPERIAL[unit]
            value = value * factor
        if unit in SYMBOLS:
            return written(value, unit)
        if self.has(f"unit.{unit}"):
            return self(f"unit.{unit}", n=self.number(value))
        return f"{self.number(value)} {unit}".strip()

    def money(self, minor: int, currency: str) -> str:
        """1234 in USD → "$12.34"; 1200 in JPY → "¥1,200" (amounts are kept in minor units)."""
        digits = minor_digits(currency)
        amount = minor / 10**digits
        text = f"{amount:,.{digits}f}"
        symbol = CURRENCY_SYMBOLS.get(currency)
        return f"{symbol}{text}" if symbol else f"{text} {currency}"

    def day(self, day: str) -> str:
        """YYYY-MM-DD as the person's language writes a short date."""
        date = dt.date.fromisoformat(day[:10])
        return self("digest.date", m=date.month, d=date.day)


def read_only(filename: str = "app.db") -> sqlite3.Connection | None:
    """The app's data file opened read-only, or None when nothing was recorded yet.

    A digest never creates, migrates or changes the person's data."""
    raw = Path(os.environ.get("MACARON_APP_DATA") or "data")
    path = (raw if raw.is_absolute() else APP_ROOT / raw) / filename
    if not path.is_file():
        return None
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1")
    except sqlite3.DatabaseError:
        conn.close()
        return None
    return conn


def has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone() is not None


def period_label(words: Words, period: str) -> str:
    return words(f"digest.this_{period}")


def recorded_days(conn: sqlite3.Connection, table: str, today: dt.date, back: int = 62) -> set[str]:
    """The days (YYYY-MM-DD) in the `back` days up to today on which `table` has a row: what
    days_running counts. `table` is the template's own table name, never the person's text."""
    start = (today - dt.timedelta(days=back)).isoformat()
    rows = conn.execute(f"SELECT DISTINCT day FROM {table} WHERE day BETWEEN ? AND ?", (start, today.isoformat()))
    return {r[0] for r in rows}


def days_running(days_met: set[str], today: dt.date) -> int:
    """How many days in a row, ending today (or yesterday, while today is still open), are in `days_met`."""
    day = today if today.isoformat() in days_met else today - dt.timedelta(days=1)
    count = 0
    while day.isoformat() in days_met:
        count += 1
        day -= dt.timedelta(days=1)
    return count


def empty_digest(words: Words, title: str) -> dict:
    return {
        "summary": words("digest.nothing", title=title),
        "lines": [words("digest.nothing", title=title)],
        "count": 0,
        "latest": [],
        "last_record_at": None,
        "notices": [],
        "facts": {},
    }


def digest_with_latest(lines: list[str], count: int, latest: list, shown: list[str], words, facts: dict) -> dict:
    """A digest from its lines (the first is the summary) and the latest records (rows with
    day and created_at, newest first) as `shown`, which become its last line."""
    if shown:
        lines = [*lines, words("digest.latest", items=" / ".join(shown))]
    return {
        "summary": lines[0],
        "lines": lines,
        "count": count,
        "latest": [{"day": r["day"], "text": text} for r, text in zip(latest, shown, strict=True)],
        "last_record_at": latest[0]["created_at"] if latest else None,
        "notices": [],
        "facts": facts,
    }


def capitalised(line: str) -> str:
    """A line that starts with a period's name ("this week: …") as a sentence starts."""
    return line[:1].upper() + line[1:]


def load_settings() -> dict:
    """The person's settings without the web framework (the same file the app reads)."""
    raw = os.environ.get("MACARON_APP_CONFIG")
    path = Path(raw) if raw else APP_ROOT / "config" / "app.json"
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stored = {}
    settings = stored if isinstance(stored, dict) else {}
    language = settings.get("language")
    settings["language"] = language if isinstance(language, str) and language else "en"
    settings["units"] = settings.get("units") if settings.get("units") in ("metric", "imperial") else "metric"
    currency = settings.get("currency")
    settings["currency"] = currency.upper() if isinstance(currency, str) and len(currency) == 3 else "USD"
    return settings


def app_title(settings: dict, words: Words) -> str:
    title = settings.get("title")
    return title if isinstance(title, str) and title.strip() else words("app.title")


def run(since: dt.date, today: dt.date, period: str) -> dict:
    """The app's digest with the fields every digest has, checked."""
    settings = load_settings()
    words = Words(settings["language"])
    title = app_title(settings, words)
    module = importlib.import_module("server.digest")
    found = module.digest(since=since, today=today, period=period, settings=settings, words=words)
    result = {**empty_digest(words, title), **found}
    result["lines"] = [capitalised(line) for line in result["lines"]]
    result["summary"] = capitalised(result["summary"])
    result.update(
        {
            "title": title,
            "language": settings["language"],
            "since": since.isoformat(),
            "today": today.isoformat(),
            "period": period,
        }
    )
    problem = digest_problem(result)
    if problem is not None:
        raise TypeError(f"digest() {problem}")
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Print what this app recorded, as JSON.")
    parser.add_argument("--since", type=dt.date.fromisoformat, required=True)
    parser.add_argument("--today", type=dt.date.fromisoformat, default=None)
    parser.add_argument("--period", choices=PERIODS, default="week")
    args = parser.parse_args(argv)
    today = args.today or dt.date.today()
    sys.path.insert(0, str(APP_ROOT))
    print(json.dumps(run(args.since, today, args.period), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
