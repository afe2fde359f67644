"""A person's first minute with the budget, in a real headless browser."""

import pytest


# The template's own budget (in USD, as the tests' settings are): make sizes the person's
# to their currency, and may make it a savings goal or money between people.
@pytest.fixture(autouse=True)
def starter_budget(settings):
    settings(
        monthly_budget=1500, savings_goal=0, monthly_deposit=0, people=[], split=False, debts=False, budget_currency=""
    )


def test_add_an_expense_reload_and_it_is_still_there(page, settings):
    page.get_by_placeholder("Amount (USD)").fill("12.50")
    page.get_by_role("button", name="Transport").click()
    page.get_by_placeholder("Note").fill("Train to Kyoto")
    page.get_by_role("button", name="Add").click()
    page.locator(".expense").get_by_text("Train to Kyoto").wait_for()
    assert page.locator("[data-total]").inner_text() == "$12.50"

    page.reload()
    expense = page.locator(".expense").first
    expense.wait_for()
    assert "Train to Kyoto" in expense.inner_text() and "$12.50" in expense.inner_text()
    assert "$1,487.50 left of $1,500.00" in page.locator(".summary").inner_text()

    # Moved to Japan: yen and Japanese from now on; the train ticket stays in dollars.
    settings(language="ja", currency="JPY", monthly_budget=50000)
    page.reload()
    page.get_by_placeholder("金額（JPY）").fill("980")
    page.get_by_role("button", name="食費").click()
    page.get_by_role("button", name="追加").click()
    page.wait_for_function("document.querySelectorAll('.expense').length === 2")
    assert page.locator("[data-total]").inner_text() in ("￥980", "¥980")
    assert "$12.50" in page.locator(".expenses").inner_text()


def test_a_monthly_deposit_shows_the_months_left_to_the_goal(page, settings):
    settings(monthly_budget=0, savings_goal=1000, monthly_deposit=200)
    page.reload()
    page.get_by_placeholder("Amount (USD)").fill("200")
    page.get_by_role("button", name="Add").click()
    page.locator(".expense").first.wait_for()
    assert "$800.00 to go to $1,000.00" in page.locator(".summary").inner_text()
    assert "Putting by $200.00 each month: about 4 more months" in page.locator(".summary").inner_text()
