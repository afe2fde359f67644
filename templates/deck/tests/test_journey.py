"""A person's first minutes with the study deck, in a real headless browser."""


def test_add_a_card_review_it_and_it_goes_away_until_later(page, settings):
    settings(sides=["es", "en"])
    page.reload()
    page.get_by_placeholder("Spanish").fill("gato")
    page.get_by_placeholder("English").fill("cat")
    page.get_by_role("button", name="Add").click()
    page.get_by_role("tab", name="Review (1)").click()
    page.get_by_text("gato").wait_for()
    page.get_by_role("button", name="Show the back").click()
    page.get_by_text("cat", exact=True).wait_for()
    page.get_by_role("button", name="Good").click()
    page.get_by_text("Nothing to review now").wait_for()
    settings(language="ja")
    page.reload()
    page.get_by_role("tab", name="カード (1)").click()
    page.get_by_text("次は").wait_for()
