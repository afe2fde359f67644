"""A person's first minute with the habit tracker, in a real headless browser."""

from starter_habits import starter_habits  # noqa: F401 (autouse: the template's own habits)


def water(page):
    return page.locator('[data-habit="water"]')


def test_log_water_reload_and_it_is_still_there(page, settings):
    assert water(page).locator(".total").inner_text() == "0 mL"
    water(page).get_by_role("button", name="+ 250 mL").click()
    water(page).get_by_role("button", name="+ 250 mL").click()
    page.wait_for_function("document.querySelectorAll('.log li').length === 2")
    assert water(page).locator(".total").inner_text() == "500 mL"

    page.reload()
    page.wait_for_selector(".log li")
    assert water(page).locator(".total").inner_text() == "500 mL"

    water(page).get_by_role("button", name="Undo").click()
    page.wait_for_function("document.querySelectorAll('.log li').length === 1")
    assert water(page).locator(".total").inner_text() == "250 mL"

    # In Japanese with imperial units: the words and the measure change, the data stays.
    settings(language="ja", units="imperial")
    page.reload()
    page.wait_for_selector(".log li")
    assert page.locator("h1").inner_text() == "毎日の習慣"
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert "8.5" in water(page).locator(".total").inner_text()


def test_a_weekly_goal_is_shown_with_its_week(page, settings):
    settings(habits=[{"key": "water", "unit": "milliliter", "goal": 14000, "period": "weekly", "step": 250}])
    page.reload()
    water(page).get_by_role("button", name="+ 250 mL").click()
    page.wait_for_function("document.querySelectorAll('.log li').length === 1")
    assert water(page).locator("p").first.inner_text().startswith("250 mL / 14,000 mL a week")
