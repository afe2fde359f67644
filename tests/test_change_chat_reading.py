"""Which chat lines are changes to the person's apps (friend/changes.py), over the corpora of
bench/chat_changes.py: each change names its app, a change to an app the person does not
have is offered as a new one, and ordinary chat (with apps' words and changes' verbs in it)
stays chat. The rules behind a change: a unit change converts the goal; "already" is said."""

from __future__ import annotations

import pytest

from bench import chat_changes as BENCH


@pytest.fixture
def apps(macaron_home, tmp_path):
    return BENCH.person_with_apps(tmp_path)


@pytest.mark.parametrize(("line", "slug"), BENCH.CHANGES, ids=[c[0] for c in BENCH.CHANGES])
def test_a_change_asked_in_chat_names_its_app(apps, line, slug):
    assert BENCH.reading(line, apps) == f"change {slug}"


@pytest.mark.parametrize("line", BENCH.NEW_APPS)
def test_a_change_to_an_app_the_person_does_not_have_is_offered_as_a_new_app(apps, line):
    assert BENCH.reading(line, apps) == "make"


@pytest.mark.parametrize("line", BENCH.CHAT)
def test_ordinary_chat_is_not_taken_for_a_change(apps, line):
    assert BENCH.reading(line, apps) == "chat"


def test_a_water_unit_change_converts_the_goal_and_a_goal_already_set_is_said(macaron_home):
    from dataclasses import replace

    from bench.change_corpus import made
    from macaron_cli.manifest import Manifest
    from macaron_cli.reading.change_rules import understand
    from macaron_cli.spec import spec_of

    made_manifest, config = made("track my daily water intake", "en")
    spec, manifest = spec_of(made_manifest), Manifest.from_json(made_manifest)
    assert spec is not None
    (water,) = spec.measures
    three_liters = replace(spec, measures=(replace(water, goal=3000.0),))
    cups = understand("use cups, not ml", three_liters, config, manifest).after.measures[0]
    assert (cups.unit, cups.goal, cups.step) == ("cups", 12, 1)  # 3000 ml, not "3000 cups"
    back = understand("show the water in ml", replace(spec, measures=(cups,)), config, manifest).after.measures[0]
    assert (back.unit, back.goal) == ("milliliter", 3000)
    same = understand("set the water goal to 3 liters", three_liters, config, manifest)
    assert not same.done and not same.unread and "already 3,000 mL" in same.already[0]


@pytest.mark.parametrize(
    "line",
    [
        "can you make me something to track my water and coffee?",
        "I want a new tracker for my blood pressure and pulse",
        "水分とコーヒーの記録アプリを作って",
        "혈압이랑 맥박 기록 앱 만들어 줘",
    ],
)
def test_a_request_for_a_new_app_is_no_change_even_where_an_app_of_its_kind_exists(apps, line):
    from macaron_cli.friend.changes import change_asked

    assert change_asked(line, apps) is None
