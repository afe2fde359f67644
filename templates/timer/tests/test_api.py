"""The timer's API: finished sessions kept with their minutes, the latest first."""


def add(client, minutes=25, day="2027-04-01"):
    return client.post("/api/sessions", json={"minutes": minutes, "day": day})


def test_sessions_are_kept_latest_first(client):
    add(client, 25, "2027-04-01")
    add(client, 50, "2027-04-02")
    assert [(s["day"], s["minutes"]) for s in client.get("/api/sessions").json()] == [
        ("2027-04-02", 50),
        ("2027-04-01", 25),
    ]
    assert [s["minutes"] for s in client.get("/api/sessions?since=2027-04-02").json()] == [50]


def test_a_session_that_is_not_one_is_refused(client):
    assert add(client, minutes=0).status_code == 422
    assert add(client, day="tomorrow").status_code == 422
    assert client.get("/api/sessions").json() == []


def test_deleting_a_session(client):
    session = add(client).json()
    assert client.delete(f"/api/sessions/{session['id']}").status_code == 204
    assert client.delete(f"/api/sessions/{session['id']}").status_code == 404
