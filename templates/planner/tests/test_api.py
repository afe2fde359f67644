"""The planner's API: adding, ordering, ticking off, moving and deleting tasks."""


def add(client, title="Buy milk", **fields):
    return client.post("/api/tasks", json={"title": title, **fields})


def test_tasks_come_in_day_then_time_order_with_someday_last(client):
    add(client, "Someday: learn piano")
    add(client, "Dentist", day="2026-06-02", time="15:30", category="errand")
    add(client, "Standup", day="2026-06-02", time="09:00", category="work")
    add(client, "Laundry", day="2026-06-01")
    titles = [t["title"] for t in client.get("/api/tasks").json()]
    assert titles == ["Laundry", "Standup", "Dentist", "Someday: learn piano"]


def test_ticking_off_records_when_and_can_be_undone(client):
    task = add(client, day="2026-06-01").json()
    done = client.patch(f"/api/tasks/{task['id']}", json={"done": True}).json()
    assert done["done"] is True and done["done_at"]
    again = client.patch(f"/api/tasks/{task['id']}", json={"done": False}).json()
    assert again["done"] is False and again["done_at"] is None
    assert again["title"] == "Buy milk" and again["day"] == "2026-06-01"


def test_a_task_can_be_renamed_and_moved_to_someday(client):
    task = add(client, day="2026-06-01", time="08:00").json()
    moved = client.patch(f"/api/tasks/{task['id']}", json={"title": "Buy oat milk", "day": None}).json()
    assert (moved["title"], moved["day"], moved["time"]) == ("Buy oat milk", None, "08:00")


def test_bad_tasks_are_refused_with_a_reason(client):
    assert add(client, "   ").status_code == 422
    assert add(client, time="25:00").status_code == 422
    assert add(client, category="space").status_code == 422
    assert client.patch("/api/tasks/999", json={"done": True}).status_code == 404


def test_a_weekly_chore_comes_back_a_week_later_for_the_same_person(client, settings):
    settings(people=["Mia", "Leo"])
    chore = add(client, "Dishes", day="2026-06-01", who="Leo", repeat="weekly").json()
    client.patch(f"/api/tasks/{chore['id']}", json={"done": True})
    tasks = client.get("/api/tasks").json()
    again = [t for t in tasks if not t["done"]]
    assert [(t["title"], t["day"], t["who"], t["repeat"]) for t in again] == [("Dishes", "2026-06-08", "Leo", "weekly")]
    assert add(client, "Vacuum", day="2026-06-01", who="Zed").status_code == 422
    assert add(client, "Vacuum", repeat="weekly").status_code == 422  # no day to repeat from


def test_deleted_tasks_are_gone(client):
    task = add(client).json()
    assert client.delete(f"/api/tasks/{task['id']}").status_code == 204
    assert client.get("/api/tasks").json() == []


def test_a_rota_keeps_each_task_on_its_shift_and_refuses_an_unknown_one(client, settings):
    settings(people=["Ana", "Ben"], shifts=["morning", "evening"])
    till = {"title": "Open the till", "day": "2030-01-07", "who": "Ana", "shift": "morning"}
    made = client.post("/api/tasks", json=till)
    assert made.status_code == 201 and made.json()["shift"] == "morning"
    assert client.post("/api/tasks", json={"title": "Close", "shift": "night"}).status_code == 422
    moved = client.patch(f"/api/tasks/{made.json()['id']}", json={"shift": "evening"}).json()
    assert (moved["who"], moved["shift"]) == ("Ana", "evening")
