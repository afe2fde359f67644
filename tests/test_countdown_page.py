"""Countdown dates said in an idea or a change are events on the page (read in a real
Chromium), not a pre-filled Add form; a second date named is added beside the first."""

from __future__ import annotations

import json

import pytest

from tests.support.served_page import served_page

pytestmark = pytest.mark.slow  # makes and changes through the CLI, a server and a browser


def _events(app) -> tuple[list[str], str]:
    """The events the page lists, and what its Add form holds."""
    with served_page(app, "#event-name") as page:
        page.wait_for_function("document.querySelector('.mc-list, .mc-empty') !== null")
        return [n.strip() for n in page.locator(".event-name").all_inner_texts()], page.input_value("#event-name")


def test_a_date_said_in_the_idea_and_one_added_by_a_change_are_both_events(macaron):
    made = macaron(
        "make", "--offline", "--yes", "--json", "count down the days to Aiko's wedding on May 16", timeout=300
    )
    assert made.returncode == 0, made.stderr
    slug, app = json.loads(made.stdout)["app"], json.loads(made.stdout)["path"]
    listed, form = _events(app)
    assert len(listed) == 1 and "wedding" in listed[0].lower() and form == "", (listed, form)

    changed = macaron("change", slug, "add my exam on June 3", "--offline", "--yes", timeout=300)
    assert changed.returncode == 0, changed.stdout + changed.stderr
    listed, form = _events(app)
    assert len(listed) == 2 and form == "", listed
    assert "wedding" in listed[0].lower() and "exam" in listed[1].lower(), listed


def test_two_dates_added_by_two_changes_before_the_page_is_opened_are_both_events(macaron):
    made = macaron("make", "--offline", "--yes", "--json", "a countdown to the days that matter", timeout=300)
    assert made.returncode == 0, made.stderr
    slug, app = json.loads(made.stdout)["app"], json.loads(made.stdout)["path"]
    for wish in ("add Aiko's wedding on May 16", "add exam June 3"):  # the page not opened in between
        changed = macaron("change", slug, wish, "--offline", "--yes", timeout=300)
        assert changed.returncode == 0, changed.stdout + changed.stderr
    digest = macaron("apps", "digest", slug)
    assert digest.returncode == 0, digest.stderr
    assert "wedding" in digest.stdout.lower() and "exam" in digest.stdout.lower(), digest.stdout  # before the page
    listed, _ = _events(app)
    assert len(listed) == 2, listed
    assert "wedding" in listed[0].lower() and "exam" in listed[1].lower(), listed
