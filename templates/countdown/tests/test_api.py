"""The countdown's API: dates kept, the soonest first, deleted; the date the idea or a
change named is an event, added once."""

import pytest


@pytest.fixture(autouse=True)
def no_date_named(settings):
    """The app as the template is, before an idea named a date (one named is an event)."""
    settings(event="", day="", said_events=[])


def add(client, name="Trip to Osaka", day="2027-04-01"):
    return client.post("/api/events", json={"name": name, "day": day})


def test_dates_come_soonest_first(client):
    add(client, "Wedding", "2027-06-12")
    add(client, "Exam", "2027-01-20")
    assert [e["name"] for e in client.get("/api/events").json()] == ["Exam", "Wedding"]


def test_a_date_that_is_not_one_is_refused(client):
    assert add(client, day="next friday").status_code == 422
    assert add(client, name="").status_code == 422
    assert client.get("/api/events").json() == []


def test_deleting_a_date(client):
    event = add(client).json()
    assert client.delete(f"/api/events/{event['id']}").status_code == 204
    assert client.delete(f"/api/events/{event['id']}").status_code == 404


def test_the_date_the_settings_name_is_an_event_once_moved_added_and_kept_deleted(client, settings):
    settings(event="wedding", day="2027-05-16")
    assert [(e["name"], e["day"]) for e in client.get("/api/events").json()] == [("wedding", "2027-05-16")]
    assert len(client.get("/api/events").json()) == 1  # added once
    settings(event="wedding", day="2027-05-23")  # its day changed: moved, not doubled
    assert [(e["name"], e["day"]) for e in client.get("/api/events").json()] == [("wedding", "2027-05-23")]
    settings(event="exam", day="2027-06-03")  # a second one named: added beside it
    assert [e["name"] for e in client.get("/api/events").json()] == ["wedding", "exam"]
    exam = client.get("/api/events").json()[1]
    client.delete(f"/api/events/{exam['id']}")
    assert [e["name"] for e in client.get("/api/events").json()] == ["wedding"]  # deleted stays deleted


def test_every_date_the_settings_named_is_an_event_the_first_kept(client, settings):
    settings(event="exam", day="2027-06-03", said_events=[["wedding", "2027-05-16"]])  # two changes, page closed
    assert [e["name"] for e in client.get("/api/events").json()] == ["wedding", "exam"]
