"""The habit tracker's API: logging, each day's figures, the week, undo."""

from starter_habits import starter_habits  # noqa: F401 (autouse: the template's own habits)

DAY = "2026-03-14"


def logged(client, day=DAY) -> dict:
    """Each habit's figure that day as the page shows it, for the habits with entries."""
    figures = client.get(f"/api/days/{day}").json()["figures"]
    return {key: f["values"] for key, f in figures.items() if f["values"] not in (None, [0])}


def log(client, habit="water", amount=250, day=DAY):
    return client.post("/api/entries", json={"habit": habit, "amount": amount, "day": day})


def test_logged_amounts_add_up_per_habit_and_day(client):
    assert log(client).status_code == 201
    log(client, amount=500)
    log(client, habit="steps", amount=1000)
    log(client, day="2026-03-13")
    assert logged(client) == {"water": [750], "steps": [1000]}
    today = client.get(f"/api/days/{DAY}").json()
    assert [e["habit"] for e in today["entries"]] == ["water", "water", "steps"]


def test_entries_survive_a_restart(client, data_dir):
    log(client)
    from fastapi.testclient import TestClient
    from server.main import app

    with TestClient(app) as again:
        assert logged(again) == {"water": [250]}
    assert (data_dir / "app.db").is_file()


def test_deleting_an_entry_takes_it_off_the_total(client):
    first = log(client).json()
    log(client, amount=100)
    assert client.delete(f"/api/entries/{first['id']}").status_code == 204
    assert logged(client) == {"water": [100]}
    assert client.delete(f"/api/entries/{first['id']}").status_code == 404


def test_the_week_lists_every_day_oldest_first(client):
    log(client, day="2026-03-10")
    log(client, habit="medication", amount=1)
    week = client.get("/api/history", params={"end": DAY, "days": 7}).json()
    assert [d["day"] for d in week] == [f"2026-03-{n:02d}" for n in range(8, 15)]
    assert week[2]["figures"]["water"]["values"] == [250]
    assert week[-1]["figures"]["medication"]["values"] == [1]
    assert week[0]["figures"]["water"]["values"] == [0]


def test_only_configured_habits_and_positive_amounts_are_accepted(client, settings):
    assert log(client, habit="coffee").status_code == 422
    assert log(client, amount=0).status_code == 422
    assert log(client, day="not-a-day").status_code == 422
    settings(habits=[{"key": "coffee", "unit": "times", "goal": 2, "step": 1}])
    assert log(client, habit="coffee", amount=1).status_code == 201


def test_a_reading_with_two_values_keeps_both_and_its_time_of_day(client, settings):
    settings(
        habits=[
            {
                "key": "blood_pressure",
                "name": "Blood pressure",
                "unit": "mmHg",
                "kind": "quantity",
                "free_entry": True,
                "values": ["systolic", "diastolic"],
                "times": ["morning", "evening"],
            }
        ]
    )
    entry = {"habit": "blood_pressure", "amount": 128, "amount2": 84, "part": "evening", "day": DAY}
    assert client.post("/api/entries", json=entry).status_code == 201
    (saved,) = client.get(f"/api/days/{DAY}").json()["entries"]
    assert (saved["amount"], saved["amount2"], saved["part"]) == (128, 84, "evening")
    client.post("/api/entries", json={**entry, "amount": 142, "amount2": 91, "part": "morning"})
    assert logged(client) == {"blood_pressure": [142, 91]}  # a reading is its latest, each value apart
    assert client.post("/api/entries", json={**entry, "amount2": None}).status_code == 422
    assert client.post("/api/entries", json={**entry, "part": "noon"}).status_code == 422


def test_amounts_logged_keep_their_meaning_when_the_unit_changes(client, settings):
    log(client, amount=500)
    log(client, habit="steps", amount=1000)
    water = {"key": "water", "unit": "cups", "goal": 8, "step": 1}
    settings(habits=[water, {"key": "steps", "unit": "steps", "goal": 8000, "step": 1000}])
    assert logged(client) == {"water": [2], "steps": [1000]}  # mL logged: 2 cups
    log(client, amount=1)
    settings(habits=[{**water, "unit": "milliliter"}, {"key": "steps", "unit": "steps"}])
    assert logged(client) == {"water": [750], "steps": [1000]}


def test_a_weekly_goal_counts_the_weeks_entries_from_its_monday(client, settings):
    running = {"key": "running", "unit": "kilometer", "goal": 20, "period": "weekly", "step": 1, "free_entry": True}
    settings(habits=[running])
    log(client, "running", 5, day="2026-03-08")  # the Sunday before: last week's
    log(client, "running", 4, day="2026-03-09")  # Monday
    log(client, "running", 7, day=DAY)  # Saturday
    week = client.get(f"/api/days/{DAY}").json()["period_figures"]["running"]
    assert (week["since"], week["values"]) == ("2026-03-09", [11])
    assert logged(client) == {"running": [7]}  # the day's own figure stays the day's
