"""A person's first minute with the meal plan, in a real headless browser."""

import datetime as dt


def test_plan_tonights_dinner_and_see_it_as_todays(page, settings):
    weekday = dt.date.today().strftime("%A")
    settings(meals=["lunch", "dinner"])
    page.reload()
    page.get_by_role("columnheader", name="Dinner").wait_for()
    assert page.get_by_role("columnheader", name="Breakfast").count() == 0
    cell = page.get_by_label(f"{weekday} Dinner")
    cell.fill("curry")
    cell.press("Enter")
    page.get_by_text("Today: Dinner: curry").wait_for()
    settings(language="ja")
    page.reload()
    page.get_by_text("今日: 晩ごはん: curry").wait_for()
