"""The budget's API: expenses in minor units, month totals, currencies kept per row."""

import pytest


# The template's own budget (in USD, as the tests' settings are): make sizes the person's
# to their currency, and may make it a savings goal or money between people.
@pytest.fixture(autouse=True)
def starter_budget(settings):
    settings(
        monthly_budget=1500, savings_goal=0, monthly_deposit=0, people=[], split=False, debts=False, budget_currency=""
    )


def spend(client, amount_minor=1250, category="food", **fields):
    return client.post(
        "/api/expenses", json={"amount_minor": amount_minor, "category": category, "day": "2026-07-15", **fields}
    )


def test_month_totals_add_up_overall_and_by_category(client):
    spend(client, 1250, note="Lunch")
    spend(client, 300, "transport")
    spend(client, 750)
    spend(client, 9999, day="2026-08-01")
    summary = client.get("/api/summary", params={"month": "2026-07"}).json()
    assert summary["total_minor"] == 2300 and summary["count"] == 3
    assert summary["by_category"] == {"food": 2000, "transport": 300}


def test_a_month_lists_its_expenses_newest_first(client):
    spend(client, 100, day="2026-07-01")
    spend(client, 200, day="2026-07-20", note="  Movie  ", category="fun")
    expenses = client.get("/api/expenses", params={"month": "2026-07"}).json()
    assert [e["amount_minor"] for e in expenses] == [200, 100]
    assert expenses[0]["note"] == "Movie" and expenses[0]["currency"] == "USD"


def test_changing_currency_keeps_old_amounts_in_theirs(client, settings):
    spend(client, 1250)
    settings(currency="JPY")
    spend(client, 800)
    summary = client.get("/api/summary", params={"month": "2026-07"}).json()
    assert summary["currency"] == "JPY" and summary["total_minor"] == 800
    assert {e["currency"] for e in client.get("/api/expenses", params={"month": "2026-07"}).json()} == {"USD", "JPY"}


def test_a_budget_set_in_one_currency_stays_in_it_after_a_change(client, settings):
    settings(currency="USD", monthly_budget=2000000, budget_currency="KRW")  # set in won, then dollars
    budget = client.get("/api/summary", params={"month": "2026-07"}).json()["set"]
    assert budget == {
        "currency": "KRW",
        "budget_minor": 2000000,
        "goal_minor": 0,
        "deposit_minor": 0,
        "comparable": False,
    }


def test_what_is_put_by_each_month_is_said_beside_the_goal_and_no_budget(client, settings):
    settings(currency="JPY", monthly_budget=0, savings_goal=1000000, monthly_deposit=20000, budget_currency="JPY")
    amounts = client.get("/api/summary", params={"month": "2026-07"}).json()["set"]
    assert (amounts["goal_minor"], amounts["deposit_minor"], amounts["budget_minor"]) == (1000000, 20000, 0)


def test_bad_expenses_are_refused(client):
    assert spend(client, 0).status_code == 422
    assert spend(client, 12.5).status_code == 422
    assert spend(client, category="yachts").status_code == 422
    assert client.get("/api/expenses", params={"month": "2026-13"}).status_code == 422


def test_deleted_expenses_leave_the_totals(client):
    expense = spend(client).json()
    assert client.delete(f"/api/expenses/{expense['id']}").status_code == 204
    assert client.get("/api/summary", params={"month": "2026-07"}).json()["total_minor"] == 0
    assert client.delete(f"/api/expenses/{expense['id']}").status_code == 404


def test_deposits_toward_a_savings_goal_add_up_over_every_month(client):
    spend(client, 50_000, day="2026-06-03")
    spend(client, 20_000, day="2026-07-03")
    summary = client.get("/api/summary", params={"month": "2026-07"}).json()
    assert summary["all_time_minor"] == 70_000 and summary["total_minor"] == 20_000


def test_shared_bills_balance_against_an_equal_share(client, settings):
    settings(people=["me", "Marco", "Lena"], split=True, debts=False)
    spend(client, 9000, "home", who="Marco")
    spend(client, 3000, "home", who="me")
    assert spend(client, 100, who="Someone else").status_code == 422
    balance = {p["name"]: p["balance_minor"] for p in client.get("/api/balances").json()["people"]}
    assert balance == {"me": -1000, "Marco": 5000, "Lena": -4000}


def test_money_lent_less_what_was_paid_back_is_still_owed(client, settings):
    settings(people=["me", "Tom", "Sara"], debts=True, split=False)  # "me" lends: never a borrower
    spend(client, 4000, "other", who="Tom")
    spend(client, 2500, "other", who="Sara")
    spend(client, 1000, "other", who="Tom", repaid=True)
    balance = {p["name"]: p["balance_minor"] for p in client.get("/api/balances").json()["people"]}
    assert balance == {"Tom": 3000, "Sara": 2500}
