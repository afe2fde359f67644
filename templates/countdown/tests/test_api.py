"""The countdown's API: dates kept, the soonest first, deleted."""


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
