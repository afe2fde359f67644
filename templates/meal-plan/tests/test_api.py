"""The meal plan's API: dishes per day and meal, a week at a time."""


def plan(client, day, meal, dish):
    return client.post("/api/plan", json={"day": day, "meal": meal, "dish": dish})


def test_a_week_holds_the_dishes_planned_per_day_and_meal(client):
    plan(client, "2027-04-05", "dinner", "curry")
    plan(client, "2027-04-05", "dinner", "salad")
    plan(client, "2027-04-05", "lunch", "ramen")
    plan(client, "2027-04-11", "dinner", "pizza")
    plan(client, "2027-04-12", "dinner", "next week's")
    week = client.get("/api/plan?start=2027-04-05").json()
    assert [(p["day"], p["meal"], p["dish"]) for p in week] == [
        ("2027-04-05", "dinner", "curry"),
        ("2027-04-05", "dinner", "salad"),
        ("2027-04-05", "lunch", "ramen"),
        ("2027-04-11", "dinner", "pizza"),
    ]


def test_a_dish_taken_off_the_plan_is_gone(client):
    dish = plan(client, "2027-04-05", "dinner", " curry ").json()
    assert dish["dish"] == "curry"
    assert client.delete(f"/api/plan/{dish['id']}").status_code == 204
    assert client.delete(f"/api/plan/{dish['id']}").status_code == 404
    assert client.get("/api/plan?start=2027-04-05").json() == []


def test_what_is_not_a_day_a_meal_or_a_dish_is_refused(client):
    assert plan(client, "someday", "dinner", "curry").status_code == 422
    assert plan(client, "2027-04-05", "elevenses", "cake").status_code == 422
    assert plan(client, "2027-04-05", "dinner", "   ").status_code == 422
    assert client.get("/api/plan?start=2027-04-05").json() == []
