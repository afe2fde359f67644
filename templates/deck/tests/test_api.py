"""The deck's API: cards kept, due when new, and a simple spaced schedule."""

DAY = "2027-04-01"


def add(client, front="gato", back="cat", day=DAY):
    return client.post("/api/cards", json={"front": front, "back": back, "day": day})


def review(client, card, grade, day=DAY):
    return client.post(f"/api/cards/{card['id']}/review", json={"grade": grade, "day": day})


def due(client, day=DAY):
    return [c["front"] for c in client.get(f"/api/due?day={day}").json()]


def test_a_new_card_is_due_at_once(client):
    add(client, "gato", "cat")
    add(client, "perro", "dog")
    assert due(client) == ["gato", "perro"]


def test_good_sends_a_card_further_off_each_time_and_again_brings_it_back(client):
    card = add(client).json()
    assert review(client, card, "good").json()["due"] == "2027-04-02"
    assert due(client) == [] and due(client, "2027-04-02") == ["gato"]
    assert review(client, card, "good", "2027-04-02").json()["due"] == "2027-04-04"
    assert review(client, card, "good", "2027-04-04").json()["due"] == "2027-04-08"
    forgotten = review(client, card, "again", "2027-04-08").json()
    assert forgotten["due"] == "2027-04-08" and forgotten["box"] == 0
    assert due(client, "2027-04-08") == ["gato"]


def test_what_is_not_a_card_or_an_answer_is_refused(client):
    assert add(client, front="").status_code == 422
    card = add(client).json()
    assert review(client, card, "maybe").status_code == 422
    assert client.post("/api/cards/999/review", json={"grade": "good", "day": DAY}).status_code == 404
    assert len(client.get("/api/cards").json()) == 1


def test_deleting_a_card_deletes_its_reviews(client):
    card = add(client).json()
    review(client, card, "good")
    assert client.delete(f"/api/cards/{card['id']}").status_code == 204
    assert client.delete(f"/api/cards/{card['id']}").status_code == 404
    assert client.get("/api/cards").json() == []
