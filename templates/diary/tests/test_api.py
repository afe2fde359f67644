"""The diary's API: writing, listing newest first, moods over time, the food diary."""

import pytest


# A mood diary, whichever kind make fitted the person's app to.
@pytest.fixture(autouse=True)
def mood_diary(settings):
    settings(kind="mood")


def write(client, **entry):
    return client.post("/api/entries", json={"day": "2026-05-02", **entry})


def test_entries_come_back_newest_first(client):
    assert write(client, text="A calm morning", mood=4).status_code == 201
    write(client, day="2026-05-01", text="Rainy", mood=2)
    write(client, day="2026-05-03", text="  Picnic!  ")
    entries = client.get("/api/entries").json()
    assert [e["text"] for e in entries] == ["Picnic!", "A calm morning", "Rainy"]
    assert entries[1]["mood"] == 4


def test_an_entry_needs_words_or_a_mood(client):
    assert write(client, text="   ").status_code == 422
    assert write(client, mood=3).status_code == 201
    assert write(client, mood=6, text="off the scale").status_code == 422


def test_deleted_entries_are_gone(client):
    entry = write(client, text="oops").json()
    assert client.delete(f"/api/entries/{entry['id']}").status_code == 204
    assert client.get("/api/entries").json() == []
    assert client.delete(f"/api/entries/{entry['id']}").status_code == 404


def test_mood_by_day_averages_and_leaves_gaps(client):
    write(client, mood=2)
    write(client, mood=4, text="better later")
    points = client.get("/api/moods", params={"end": "2026-05-03", "days": 3}).json()
    assert points == [
        {"day": "2026-05-01", "mood": None},
        {"day": "2026-05-02", "mood": 3.0},
        {"day": "2026-05-03", "mood": None},
    ]


def test_food_diary_entries_belong_to_a_configured_meal(client, settings):
    settings(kind="food", meals=["breakfast", "lunch", "dinner"])
    assert write(client, meal="lunch", text="Ramen").status_code == 201
    assert write(client, meal="snack", text="Cookie").status_code == 422
    assert client.get("/api/entries").json()[0]["meal"] == "lunch"
