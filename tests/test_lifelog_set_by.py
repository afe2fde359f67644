"""A change stays: a setting the person set explicitly (a change, a rollback) is never undone
by `apps refresh` or `run` from an older chat line; what the friend learned that disagrees
is said in one line, not applied. Through the real CLI, real git and LanceDB."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # makes and changes an app through the CLI


def _made(macaron) -> tuple[str, Path]:
    made = macaron("make", "--offline", "--yes", "--json", "track my trip expenses", timeout=300)
    assert made.returncode == 0, made.stderr
    out = json.loads(made.stdout)
    return out["app"], Path(out["path"])


def _currency(app: Path) -> str:
    return json.loads((app / "config" / "app.json").read_text(encoding="utf-8"))["currency"]


def test_a_refresh_after_an_explicit_change_leaves_it_and_says_what_it_heard(macaron):
    assert macaron("memory", "add", "I pay for everything in US dollars").returncode == 0
    slug, app = _made(macaron)
    assert _currency(app) == "USD"

    changed = macaron("change", slug, "switch the currency to yen", "--offline", "--yes", timeout=300)
    assert changed.returncode == 0, changed.stdout + changed.stderr
    assert _currency(app) == "JPY"

    refreshed = macaron("apps", "refresh", slug)
    assert refreshed.returncode == 0, refreshed.stderr
    assert _currency(app) == "JPY", refreshed.stdout  # the older chat line did not flip it back
    said = [line for line in refreshed.stdout.splitlines() if "USD" in line]
    assert len(said) == 1 and "stays JPY" in said[0] and "your change" in said[0], refreshed.stdout
    phases = [c["phase"] for c in json.loads(macaron("checkpoints", slug, "--json").stdout)]
    assert phases[-1].startswith("change-"), phases  # no refresh checkpoint over the change

    # Rolled back by the person, it stays rolled back too.
    assert macaron("rollback", slug, "--steps", "1", "--yes").returncode == 0
    assert _currency(app) == "USD"
    assert macaron("memory", "add", "I pay for everything in yen now").returncode == 0
    again = macaron("apps", "refresh", slug)
    assert _currency(app) == "USD" and "your rollback" in again.stdout, again.stdout


def test_a_setting_no_one_set_explicitly_still_follows_what_the_friend_learned(macaron):
    slug, app = _made(macaron)
    assert _currency(app) == "USD"
    assert macaron("memory", "add", "I pay for everything in yen now").returncode == 0
    refreshed = macaron("apps", "refresh", slug)
    assert refreshed.returncode == 0 and _currency(app) == "JPY", refreshed.stdout
