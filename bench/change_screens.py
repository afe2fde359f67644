"""Screenshots before and after one change of each family, to look at what the person gets.

    python3 bench/change_screens.py OUT_DIR               # every family
    python3 bench/change_screens.py OUT_DIR --only currency

Each app is made as `macaron make --offline --yes` makes it, in a home of its own; a record
is added through the app's own API (what a change must keep), the page is shot
(`FAMILY-before.png`), the change is asked with `macaron change --offline --yes`, and the
page is shot again (`FAMILY-after.png`), in headless Chromium with --virtual-time-budget.
The page is never opened between the make and the change: a change must show without it.
Each line printed says the family, the change's exit and first line, and the two PNGs. A
person looks at them: the new name, measure, unit, currency, goal, event or person on the
page, and the record made before still there and counted.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.family_shots import _post, chromium, out_and_only, served  # noqa: E402

# family: (idea, change request, a record added before the change: (API path, body) or None)
FAMILIES: dict[str, tuple[str, str, tuple[str, dict] | None]] = {
    "rename": (
        "track my daily water intake",
        "rename it to 'Morning water'",
        ("/api/entries", {"habit": "water", "amount": 500}),
    ),
    "add-measure": (
        "log my weight every morning",
        "add body fat in %",
        ("/api/entries", {"habit": "weight", "amount": 70.4}),
    ),
    "unit": ("log my runs in miles", "actually use km", None),
    "currency": (
        "track my spending in Korean won, budget 2,000,000 won a month",
        "switch to dollars",
        ("/api/expenses", {"amount_minor": 12000, "category": "food"}),
    ),
    "goal": (
        "drink 2 liters of water a day",
        "make the goal 3 liters",
        ("/api/entries", {"habit": "water", "amount": 500}),
    ),
    "add-event": ("count down to Aiko's wedding on May 16", "add exam June 3", None),
    "add-person": ("chores for me, Tom and Lily every week", "add Mia", ("/api/tasks", {"title": "Dishes"})),
    "add-category": ("track my monthly spending", "add a travel category", None),
    "add-attribute": ("a list of books I've read with a rating", "add the author to each book", None),
}


def macaron(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "macaron_cli", *args], capture_output=True, text=True, timeout=600, cwd=ROOT
    )


def shot(app: Path, png: Path, record: tuple[str, dict] | None = None) -> None:
    """The app served, `record` added through its API, and its page shot."""
    with served(app) as origin:
        if record:
            path, body = record
            _post(origin, path, {**body, "day": dt.date.today().isoformat()})
        chromium(origin + "/", png, "480,1100")


def main() -> int:
    args = out_and_only(__doc__, FAMILIES)
    for family in args.only or list(FAMILIES):
        idea, request, record = FAMILIES[family]
        with tempfile.TemporaryDirectory(prefix="macaron-change-shots-") as home:
            os.environ.update(MACARON_HOME=home, MACARON_APPS_DIR=f"{home}/apps")
            made = macaron("make", "--offline", "--yes", "--json", idea)
            if made.returncode != 0:
                print(f"{family}: make failed: {made.stderr.strip()[:200]}")
                continue
            slug, app = json.loads(made.stdout)["app"], Path(json.loads(made.stdout)["path"])
            if record and record[1].get("habit"):  # the measure's key as the spec names it
                measures = json.loads((app / "macaron.json").read_text(encoding="utf-8"))["spec"].get("measures") or []
                record = (record[0], {**record[1], "habit": measures[0]["key"]}) if measures else None
            shot(app, args.out / f"{family}-before.png", record)
            changed = macaron("change", slug, request, "--offline", "--yes")
            said = (changed.stdout.strip() or changed.stderr.strip()).splitlines()[:1]
            shot(app, args.out / f"{family}-after.png")
            print(f"{family}: exit {changed.returncode} · {said[0] if said else ''}")
            print(f"  {args.out / f'{family}-before.png'}  {args.out / f'{family}-after.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
