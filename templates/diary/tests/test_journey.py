"""A person's first minute with the diary, in a real headless browser."""

import pytest


# A mood diary, whichever kind make fitted the person's app to.
@pytest.fixture(autouse=True)
def mood_diary(settings):
    settings(kind="mood")


def test_write_an_entry_reload_and_it_is_still_there(page, settings):
    page.get_by_role("button", name="Mood 4 of 5").click()
    page.get_by_placeholder("How are you feeling today?").fill("Tea with Mai in the park")
    page.get_by_role("button", name="Save").click()
    page.wait_for_selector(".entry")
    assert page.get_by_placeholder("How are you feeling today?").input_value() == ""

    page.reload()
    entry = page.locator(".entry").first
    entry.wait_for()
    assert "Tea with Mai in the park" in entry.inner_text()
    assert "🙂" in entry.inner_text()
    assert page.locator(".day h2").first.inner_text() == "Today"

    # The same diary as a food diary in Korean: the words change, the entries stay.
    settings(kind="food", language="ko")
    page.reload()
    page.get_by_role("button", name="점심").click()
    page.get_by_placeholder("무엇을 먹었나요?").fill("비빔밥")
    page.get_by_role("button", name="저장").click()
    page.wait_for_function("document.querySelectorAll('.entry').length === 2")
    assert "점심" in page.locator(".entry").first.inner_text()
    assert page.locator(".day h2").first.inner_text() == "오늘"
