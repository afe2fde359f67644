"""A person's first minute with the focus timer, in a real headless browser."""


def test_start_pause_and_log_a_session(page, settings):
    settings(work_minutes=50, break_minutes=10)
    page.reload()
    page.get_by_text("50:00").wait_for()
    page.get_by_role("button", name="Start").click()
    page.get_by_role("button", name="Pause").click()
    page.get_by_role("button", name="Resume").wait_for()
    page.get_by_role("button", name="Take the break").click()
    page.get_by_text("10:00").wait_for()
    page.get_by_role("button", name="Log a session done elsewhere").click()
    page.get_by_text("Sessions today: 1").wait_for()
    settings(language="ja")
    page.reload()
    page.get_by_text("今日は1回").wait_for()
