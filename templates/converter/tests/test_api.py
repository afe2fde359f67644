"""The converter's API: exact conversions, a calculator that only does arithmetic, the saved list."""

import pytest


# The template's own tabs and pairs: make may open the person's app on another category
# (a converter for cooking), and these tests are about converting, not about which tab is first.
@pytest.fixture(autouse=True)
def starter_tabs(settings):
    settings(categories=["length", "weight", "volume", "temperature", "area"], pairs={})


@pytest.mark.parametrize(
    ("value", "source", "target", "expected"),
    [
        (5, "kilometer", "mile", 3.10686),
        (1, "pound", "gram", 453.59237),
        (100, "celsius", "fahrenheit", 212),
        (-40, "fahrenheit", "celsius", -40),
        (1, "cup", "milliliter", 236.5882),
        (10, "tsubo", "square-meter", 33.0579),
        (2, "cup", "gram", 473.1765),  # the cooking tab: grams of water
        (3, "teaspoon", "tablespoon", 1),
    ],
)
def test_conversions_are_right(client, value, source, target, expected):
    answer = client.get("/api/convert", params={"value": value, "from_unit": source, "to_unit": target}).json()
    assert answer["result"] == pytest.approx(expected, rel=1e-4)


def test_units_that_measure_different_things_do_not_convert(client):
    answer = client.get("/api/convert", params={"value": 1, "from_unit": "meter", "to_unit": "kilogram"})
    assert answer.status_code == 422 and "different" in answer.json()["detail"]


def test_the_catalogue_follows_the_persons_settings(client, settings):
    assert client.get("/api/units").json()["length"]["from"] == "kilometer"
    settings(units="imperial", categories=["temperature", "length"])
    catalogue = client.get("/api/units").json()
    assert list(catalogue) == ["temperature", "length"]
    assert catalogue["temperature"]["from"] == "fahrenheit"


@pytest.mark.parametrize(
    ("expression", "result"), [("12 × (3 + 4)", 84), ("7 ÷ 2", 3.5), ("2^10", 1024), ("-3 + 1", -2)]
)
def test_the_calculator_does_arithmetic(client, expression, result):
    assert client.post("/api/calculations", json={"expression": expression}).json()["result"] == result


@pytest.mark.parametrize("expression", ["__import__('os')", "1/0", "9**9**9", "", "abc"])
def test_the_calculator_refuses_anything_else(client, expression):
    assert client.post("/api/calculations", json={"expression": expression}).status_code == 422


def test_saved_results_stay_newest_first_until_deleted(client):
    first = client.post("/api/conversions", json={"value": 5, "from_unit": "kilometer", "to_unit": "mile"}).json()
    client.post("/api/calculations", json={"expression": "1 + 1"})
    saved = client.get("/api/saved").json()
    assert [s["kind"] for s in saved] == ["calculate", "convert"]
    assert saved[1]["from_symbol"] == "km" and saved[1]["to_symbol"] == "mi"
    assert client.delete(f"/api/saved/{first['id']}").status_code == 204
    assert len(client.get("/api/saved").json()) == 1


def test_a_runners_pace_converts_between_minutes_per_km_and_per_mile(client, settings):
    settings(categories=["pace", "length"])
    catalogue = client.get("/api/units").json()
    assert next(iter(catalogue)) == "pace" and catalogue["pace"]["from"] == "minute-per-kilometer"
    from server import units

    assert round(units.convert(5, "minute-per-kilometer", "minute-per-mile"), 2) == 8.05
    assert round(units.convert(10, "mile-per-hour", "kilometer-per-hour"), 2) == 16.09
