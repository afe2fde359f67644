"""A person's first minute with the countdown, in a real headless browser."""

import datetime as dt

import pytest


@pytest.fixture(autouse=True)
def no_date_named(settings):
    """The app as the template is, before an idea named a date (one named is an event)."""
    settings(event="", day="", said_events=[])


def test_add_a_date_and_see_the_days_left(page, settings):
    in_ten_days = (dt.date.today() + dt.timedelta(days=10)).isoformat()
    page.get_by_placeholder("What are you counting down to?").fill("Wedding")
    page.locator("#event-day").fill(in_ten_days)
    page.get_by_role("button", name="Add").click()
    page.get_by_text("10 days to go").wait_for()
    settings(language="ko")
    page.reload()
    page.get_by_text("10일 남음").wait_for()
