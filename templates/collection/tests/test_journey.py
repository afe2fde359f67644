"""A person's first minute with the collection, in a real headless browser."""


def test_add_a_book_with_who_borrowed_it_and_rate_it(page, settings):
    settings(item="book", attributes=["author", "lent to"], rating=True)
    page.reload()
    page.get_by_placeholder("Add a book").fill("Kindred")
    page.get_by_label("Lent to").fill("Mia")
    page.get_by_placeholder("Add a book").press("Enter")
    page.get_by_text("Kindred").wait_for()
    page.get_by_role("group", name='Rate "Kindred"').get_by_role("button", name="4/5").click()
    page.reload()
    page.get_by_text("Lent to: Mia").wait_for()
    assert page.locator(".item .star.on").count() == 4
