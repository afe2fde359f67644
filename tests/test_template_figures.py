"""Every template says one figure everywhere: entries recorded through its page in a real
Chromium, then what the page shows is what `macaron apps digest` (run in the sandbox) and
the friend's line about the app say. The habit tracker's and the budget's are in
tests/test_figures_page.py; here, every other template that keeps records."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.support.served_page import served_page
from tests.test_change import scaffolded
from tests.test_figures_page import _digest_and_friend

pytestmark = pytest.mark.slow  # a server, a browser and the sandboxed digest each


def _count(page, selector: str, n: int) -> None:
    page.wait_for_function(f"document.querySelectorAll({selector!r}).length === {n}")


def _collection(page) -> list[str]:
    for n, name in enumerate(("Dune", "Emma"), start=1):
        page.fill("#item-name", name)
        page.locator("form button[type=submit]").click()
        _count(page, ".mc-list > li", n)
    kept = re.search(r"(\d+) kept", page.inner_text(".mc-subtitle")).group(1)  # type: ignore[union-attr]
    return [f"{kept} in all"]


def _converter(page) -> list[str]:
    page.fill("#value", "5")
    page.wait_for_function("!document.querySelector('[data-result]').innerText.includes('—')")
    page.get_by_role("button", name="Save").click()
    page.fill("#expression", "12*3")
    page.locator("form button[type=submit]").click()
    _count(page, ".saved li", 2)
    return [t.strip() for t in page.locator(".saved li span.mc-grow").all_inner_texts()] + ["2 results kept"]


def _countdown(page) -> list[str]:
    day = (dt.date.today() + dt.timedelta(days=10)).isoformat()
    page.fill("#event-name", "Trip to Osaka")
    page.fill("#event-day", day)
    page.locator("form button[type=submit]").click()
    _count(page, ".event", 1)
    left = page.inner_text(".event .event-number").strip()
    return [f"Trip to Osaka: {left} days to go"]


def _deck(page) -> list[str]:
    page.get_by_role("tab").nth(1).click()  # the cards, where they are added
    for n, (front, back) in enumerate((("hola", "hello"), ("gato", "cat")), start=1):
        page.locator("form input").nth(0).fill(front)
        page.locator("form input").nth(1).fill(back)
        page.locator("form button[type=submit]").click()
        _count(page, ".mc-list > li", n)
    page.get_by_role("tab").first.click()
    page.get_by_role("button", name="Show the back").click()
    page.get_by_role("button", name="Good").click()
    page.wait_for_function("document.querySelector('.mc-subtitle').innerText.includes('due today: 1')")
    due = re.search(r"due today: (\d+)", page.inner_text(".mc-subtitle")).group(1)  # type: ignore[union-attr]
    return [f"due today: {due}", "cards reviewed 1, good 1"]


def _diary(page) -> list[str]:
    for n, (face, text) in enumerate(((4, "a good walk"), (2, "tired")), start=1):
        page.locator("button.mood").nth(face - 1).click()
        page.fill("#entry-text", text)
        page.locator("form button[type=submit]").click()
        _count(page, ".entry", n)
    page.wait_for_selector(".mood-chart li[title]:not([title=''])")
    face = page.locator(".mood-chart li[title]:not([title=''])").last.get_attribute("title")
    return [f"Average mood {face}", "2 entries on 1 days"]


def _meal_plan(page) -> list[str]:
    cell = page.locator("tr.today input").first
    cell.fill("Toast")
    cell.press("Enter")
    page.wait_for_function("document.querySelector('.mc-subtitle').innerText.includes('Toast')")
    today = page.inner_text(".mc-subtitle")
    filled = re.search(r"(\d+) of \d+ meals planned", page.inner_text("body")).group(1)  # type: ignore[union-attr]
    assert "Toast" in today, today
    return ["Toast", f"dishes planned: {filled}"]


def _planner(page) -> list[str]:
    for n, title in enumerate(("Call the bank", "Buy stamps"), start=1):
        page.fill("#task-title", title)
        page.locator("form button[type=submit]").click()
        _count(page, ".task", n)
    # By its name, and clicked once: a done task moves down, so "the first checkbox" would
    # re-resolve to the next open task if anything retried.
    page.get_by_role("checkbox", name='Mark "Call the bank" done').click()
    page.wait_for_function("document.querySelector('.mc-subtitle').innerText.includes('1 left today')")
    left = re.search(r"(\d+) left today", page.inner_text(".mc-subtitle")).group(1)  # type: ignore[union-attr]
    return [f"Today {left} to do"]


def _timer(page) -> list[str]:
    # A session on the Sunday before this week: the digest's "this week" leaves it out, and so
    # must the page's week (a "last 7 days" would count it on every day but Sunday).
    monday = dt.date.today() - dt.timedelta(days=dt.date.today().weekday())
    last_week = {"minutes": 45, "day": (monday - dt.timedelta(days=1)).isoformat()}
    page.evaluate(
        "body => fetch('api/sessions', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify(body)})",
        last_week,
    )
    for n in (1, 2):
        page.get_by_role("button", name="Log a session done elsewhere").click()
        _count(page, "section.mc-card .mc-list li", n)
    today = re.search(r"Sessions today: (\d+)", page.inner_text("body")).group(1)  # type: ignore[union-attr]
    week = re.search(r"This week: (\d+) min, sessions: (\d+)", page.inner_text("body"))
    assert week is not None, page.inner_text("body")
    assert week.group(2) == "2", week.group(0)  # today's two, not last week's
    return [f"Sessions today: {today}", f"This week: {week.group(1)} minutes of focus, sessions done: 2"]


@dataclass(frozen=True)
class Case:
    idea: str
    ready: str  # a selector the page shows once loaded
    record: Callable  # records through the page; returns what it shows, as the digest must say it
    friend: int  # which of those the friend's line says


CASES = {
    "collection": Case("keep a list of the books I own", "#item-name", _collection, 0),
    "converter": Case("convert kilometers to miles", "#value", _converter, 2),
    "countdown": Case("count down the days to the dates that matter", "#event-name", _countdown, 0),
    "deck": Case("flashcards to learn Spanish words", ".mc-header", _deck, 1),
    "diary": Case("a mood diary, a few words a day", "#entry-text", _diary, 1),
    "meal-plan": Case("plan our dinners for the week", ".mc-header", _meal_plan, 1),
    "planner": Case("a daily planner for my tasks", "#task-title", _planner, 0),
    "timer": Case("a pomodoro focus timer", ".timer-phase", _timer, 1),
}


@pytest.mark.parametrize("template", sorted(CASES))
def test_the_page_the_digest_and_the_friend_say_the_same_figures(template, macaron, macaron_home, tmp_path):
    case = CASES[template]
    apps = tmp_path / "apps"
    slug = scaffolded(case.idea, "en", apps)
    assert (apps / slug / "macaron.json").read_text().count(f'"name": "{template}"') == 1, "another template"
    with served_page(apps / slug, case.ready) as page:
        shown = case.record(page)
    digest, friend = _digest_and_friend(macaron, slug)
    for said in shown:
        assert said in digest, (said, digest)
    assert shown[case.friend] in friend, (shown[case.friend], friend)
