"""The collection's API: adding with details, rating, best first, deleting."""


def add(client, name="Dune", **fields):
    return client.post("/api/items", json={"name": name, **fields})


def test_the_best_rated_come_first_then_the_newest(client, settings):
    settings(attributes=["author", "lent to"])
    add(client, "Dune", rating=4, details={"author": "Herbert", "lent to": "Mia"})
    add(client, "Emma")
    add(client, "Kindred", rating=5)
    items = client.get("/api/items").json()
    assert [i["name"] for i in items] == ["Kindred", "Dune", "Emma"]
    assert items[1]["details"] == {"author": "Herbert", "lent to": "Mia"}


def test_a_rating_can_change_and_be_taken_back(client):
    item = add(client).json()
    assert client.patch(f"/api/items/{item['id']}", json={"rating": 2}).json()["rating"] == 2
    assert client.patch(f"/api/items/{item['id']}", json={"rating": None}).json()["rating"] is None
    assert client.patch(f"/api/items/{item['id']}", json={"rating": 6}).status_code == 422


def test_a_detail_the_collection_does_not_keep_is_refused(client, settings):
    settings(attributes=["author"])
    assert add(client, details={"colour": "blue"}).status_code == 422
    assert client.get("/api/items").json() == []


def test_deleting_an_item(client):
    item = add(client).json()
    assert client.delete(f"/api/items/{item['id']}").status_code == 204
    assert client.delete(f"/api/items/{item['id']}").status_code == 404


def test_care_every_few_days_says_when_it_is_next_due(client):
    import datetime as dt

    fern = client.post("/api/items", json={"name": "Fern", "every_days": 3}).json()
    assert fern["last_done"] is None and fern["next_due"] == dt.date.today().isoformat()  # never watered: due now
    watered = client.post(f"/api/items/{fern['id']}/done").json()
    assert watered["last_done"] == dt.date.today().isoformat()
    assert watered["next_due"] == (dt.date.today() + dt.timedelta(days=3)).isoformat()
    assert client.post("/api/items", json={"name": "Cactus", "every_days": 0}).status_code == 422
    assert client.post("/api/items/999/done").status_code == 404
