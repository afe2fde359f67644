"""The parts of one life, each on its own: rolling digest memories, the app's privacy,
opening an app by name, greeting nudges said once, settings that follow the memories."""

from __future__ import annotations

import json

import pytest

from macaron_cli import config
from macaron_cli.config import Settings
from macaron_cli.friend.apps import app_to_open, nudge, set_nudges
from macaron_cli.lifelog.memories import current_memory, default_privacy, remember
from macaron_cli.lifelog.refresh import refresh_app, wanted_app_settings
from macaron_cli.memory import MemoryStore
from macaron_cli.sandbox.digest import Digest, period_start


def water_digest(total: str = "750 mL", today: str = "2026-12-03", notices=()) -> Digest:
    return Digest(
        app="water",
        title="Daily habits",
        language="en",
        since="2026-11-30",
        today=today,
        period="week",
        summary=f"Today: Water {total}",
        lines=[f"Water: today {total} of 2,000 mL; this week {total} on 1 days."],
        count=3,
        last_record_at=f"{today}T08:00:00",
        notices=list(notices),
    )


def test_a_new_digest_in_the_same_week_supersedes_the_last_one(macaron_home):
    store = MemoryStore.open()
    first = remember(store, water_digest("500 mL"), "private", "health")
    second = remember(store, water_digest("750 mL"), "private", "health")
    assert second.supersedes == first.id and second.kind == "app" and second.source == "app:water"
    assert current_memory(store, "water", "2026-11-30").id == second.id
    hits = store.search("water this week", k=5)
    assert [h.memory.id for h in hits if h.memory.kind == "app"] == [second.id], "one rolling memory, not a pile"
    assert remember(store, water_digest("750 mL"), "private", "health").id == second.id  # nothing new: no new version
    next_week = water_digest("250 mL", today="2026-12-07")
    next_week.since = "2026-12-07"
    assert remember(store, next_week, "private", "health").supersedes is None  # a new week, a new memory


def test_health_and_money_apps_are_private_unless_the_person_says_otherwise():
    assert default_privacy("health") == "private" and default_privacy("finance") == "private"
    assert default_privacy("work") == "personal"
    assert default_privacy("general", "a dosage calculator for my pills") == "private"


def test_weeks_start_on_monday_and_months_on_the_first():
    import datetime as dt

    thursday = dt.date(2026, 12, 3)
    assert period_start("week", thursday) == dt.date(2026, 11, 30)
    assert period_start("month", thursday) == dt.date(2026, 12, 1)


APPS = {"water": {"path": "/nowhere", "idea": "track how much water I drink", "template": "habit-tracker"}}


@pytest.mark.parametrize(
    "line", ["open my water tracker", "水分アプリを開いて", "물 앱 열어줘", "打开喝水应用", "buksan mo ang water app"]
)
def test_asking_to_open_an_app_names_it_in_every_language(line):
    assert app_to_open(line, APPS) == "water"


@pytest.mark.parametrize("line", ["how much water did I drink?", "I start my day with water", "open to new ideas"])
def test_talking_about_what_an_app_tracks_does_not_open_it(line):
    assert app_to_open(line, APPS) is None


def test_a_nudge_is_said_once_and_can_be_turned_off(macaron_home):
    streak = {"kind": "celebrate", "key": "water:streak:5", "text": "Water: goal met 5 days running!"}
    missed = {
        "kind": "missed",
        "key": "steps:missed:2026-12-02",
        "text": "Steps: goal missed yesterday and the day before.",
    }
    digests = [water_digest(notices=[missed, streak])]
    assert nudge(digests) == "Water: goal met 5 days running! (Daily habits)"  # a celebration first
    assert nudge(digests).startswith("Steps: goal missed")
    assert nudge(digests) is None, "never the same nudge twice"
    settings = set_nudges(False)
    assert not config.load_settings().app_nudges
    other = water_digest(notices=[{"kind": "celebrate", "key": "water:streak:6", "text": "6 days!"}])
    assert nudge([other], on=settings.app_nudges) is None


class Said:
    def __init__(self, text):
        self.text = text


def test_the_newest_memory_about_units_wins():
    current = {"units": "metric", "currency": "USD", "language": "en"}
    newest_first = [Said("I switched to ounces"), Said("I use ml for water"), Said("I get paid in pesos")]
    assert wanted_app_settings(newest_first, current, None) == {"units": "imperial", "currency": "PHP"}
    assert wanted_app_settings([Said("back to metric, ounces were confusing")], current) == {"units": "metric"}


def test_an_app_keeps_its_language_and_takes_the_persons_colour():
    current = {"units": "metric", "language": "ja", "accent": "#FF9AA2"}
    assert wanted_app_settings([Said("I love matcha")], current, "pistachio") == {"accent": "#B5EAD7"}
    assert wanted_app_settings([Said("I speak English at work")], current, "#123456") == {"accent": "#123456"}


def test_refresh_changes_settings_only_and_a_private_memory_never_shapes_them(macaron_home, tmp_path):
    from macaron_cli.checkpoints import AppRepo
    from tests.support.app_records import make_template_app

    app = make_template_app("habit-tracker", tmp_path / "apps" / "water")
    AppRepo.init(app)
    store = MemoryStore.open()
    store.add("I think in ounces", kind="preference", privacy="private")
    assert refresh_app(app, store.settings, store=store).changes == {}, "a private memory stays out of a tracked file"
    store.add("I switched to ounces", kind="preference")
    done = refresh_app(app, store.settings, store=store)
    assert done.changes == {"units": ("metric", "imperial")} and done.checkpoint is not None
    assert json.loads((app / "config" / "app.json").read_text(encoding="utf-8"))["units"] == "imperial"
    assert refresh_app(app, store.settings, store=store).changes == {}


def test_a_goal_told_to_the_friend_becomes_the_apps_goal_in_its_own_unit(macaron_home, tmp_path):
    from macaron_cli.checkpoints import AppRepo
    from tests.support.app_records import make_template_app

    app = make_template_app("habit-tracker", tmp_path / "apps" / "water")
    AppRepo.init(app)
    store = MemoryStore.open()
    store.add("My daily water goal is 2.5 litres now", kind="preference")
    store.add("I walk to work every day", kind="fact")
    done = refresh_app(app, store.settings, store=store)
    habits = {h["key"]: h for h in json.loads((app / "config" / "app.json").read_text(encoding="utf-8"))["habits"]}
    assert habits["water"]["goal"] == 2500 and habits["steps"]["goal"] == 8000
    from macaron_cli.lifelog.refresh import describe

    assert describe("habits", *done.changes["habits"]) == "water goal 2000 → 2500"


def test_a_goal_in_litres_never_becomes_a_count_of_glasses_and_refresh_says_why(macaron, macaron_home, tmp_path):
    from macaron_cli.checkpoints import AppRepo
    from tests.support.app_records import make_template_app

    app = make_template_app("habit-tracker", tmp_path / "apps" / "water")
    config_path = app / "config" / "app.json"
    app_json = json.loads(config_path.read_text(encoding="utf-8"))
    for habit in app_json["habits"]:
        if habit["key"] == "water":
            habit.update(unit="glasses", goal=8, step=1)
    config_path.write_text(json.dumps(app_json), encoding="utf-8")
    AppRepo.init(app)
    store = MemoryStore.open()
    store.add("my water goal is 2.5 litres", kind="preference")
    done = macaron("apps", "refresh", str(app))
    assert done.returncode == 0, done.stderr
    water = next(h for h in json.loads(config_path.read_text(encoding="utf-8"))["habits"] if h["key"] == "water")
    assert water["goal"] == 8, "2.5 litres is not 2.5 glasses"
    assert "water goal left as it is: you said 2.5 l, and the app keeps it in glasses" in done.stdout


@pytest.mark.parametrize(
    ("said", "unit", "goal"),
    [
        ("my water goal is 2000 ml a day", "liter", 2),
        ("my water goal is 64 oz a day", "milliliter", 1892.71),  # 64 US fl oz, static/units.json
        ("water goal: 10 glasses a day", "glasses", 10),
        ("my steps goal is 10k steps a day", "steps", 10000),
        ("meditation goal: 1 hour a day", "minute", 60),
    ],
)
def test_a_goal_is_read_in_the_habits_own_unit(said, unit, goal):
    from macaron_cli.lifelog.refresh import goals_said

    key = said.split()[1] if said.startswith("my") else said.split()[0]
    current = {"habits": [{"key": key, "unit": unit, "goal": 1}]}
    assert goals_said([Said(said)], current)["habits"][0]["goal"] == goal


def test_the_friend_mentions_a_streak_at_a_greeting_once(macaron_home, tmp_path):
    import datetime as dt

    from macaron_cli.apps import register
    from macaron_cli.friend.conversation import Conversation
    from macaron_cli.friend.persona import Persona
    from macaron_cli.models.registry import open_model
    from tests.support.app_records import make_template_app, post

    app = make_template_app("habit-tracker", tmp_path / "apps" / "water")
    days = [(dt.date.today() - dt.timedelta(days=n)).isoformat() for n in range(4)]
    post(app, *[("/api/entries", {"habit": "water", "amount": 2000, "day": d}) for d in days])
    register("water", path=str(app), idea="drink more water", template="habit-tracker")
    store = MemoryStore.open()
    first = Conversation(store, open_model("none", Settings()), Persona()).opening()
    assert any("goal met 4 days running" in line for line in first), first
    again = Conversation(store, open_model("none", Settings()), Persona()).opening()
    assert not any("days running" in line for line in again), "said once, never nagging"
    assert not any(line.startswith("Coming up") for line in again), "what was recorded is not coming up"


def test_a_broken_digest_is_not_run_again_before_every_answer(macaron_home, tmp_path):
    from macaron_cli.apps import register
    from macaron_cli.lifelog.memories import AppDigests
    from tests.support.app_records import make_template_app

    app = make_template_app("habit-tracker", tmp_path / "apps" / "water")
    (app / "server" / "digest.py").write_text("raise SystemExit(3)\n", encoding="utf-8")
    register("water", path=str(app), idea="drink more water", template="habit-tracker")
    digests = AppDigests(MemoryStore.open())
    assert digests.refresh() == [] and "failed" in digests.problems["water"]
    runs = app / "server" / "digest.py"
    before = runs.stat().st_mtime_ns
    digests.problems.clear()
    assert digests.refresh() == [] and "water" not in digests.problems, "not run again while nothing changed"
    runs.write_text("from server.macaron_life import *\ndef digest(**kw):\n    return {}\n", encoding="utf-8")
    assert runs.stat().st_mtime_ns != before
    assert [d.app for d in digests.refresh()] == ["water"], "a fix is picked up"


def test_refresh_keeps_a_japanese_app_japanese_and_brings_the_quiz_colour(macaron_home, tmp_path):
    import dataclasses

    from macaron_cli.checkpoints import AppRepo
    from tests.support.app_records import make_template_app

    app = make_template_app("habit-tracker", tmp_path / "apps" / "mizu")
    config_path = app / "config" / "app.json"
    made = json.loads(config_path.read_text(encoding="utf-8"))
    config_path.write_text(json.dumps({**made, "language": "ja"}), encoding="utf-8")
    AppRepo.init(app)
    store = MemoryStore.open()
    friend_speaks_english = dataclasses.replace(store.settings, language="en", color="pistachio")
    done = refresh_app(app, friend_speaks_english, store=store)
    after = json.loads(config_path.read_text(encoding="utf-8"))
    assert after["language"] == "ja" and "language" not in done.changes
    assert after["accent"] == "#B5EAD7" and done.changes["accent"] == (made["accent"], "#B5EAD7")


def test_apps_lists_each_apps_privacy_and_its_latest_digest(macaron, macaron_home, tmp_path):
    from types import SimpleNamespace

    from macaron_cli.apps import register
    from macaron_cli.lifelog.memories import remember
    from tests.support.app_records import make_template_app

    app = make_template_app("habit-tracker", tmp_path / "apps" / "water")
    register("water", path=str(app), idea="track my water", created_at="2026-12-01T08:00:00")
    store = MemoryStore.open()
    for today, lines in (("2026-12-05", ["water 1,000 mL today"]), ("2026-12-06", ["water 1,300 mL today"])):
        digest = SimpleNamespace(
            app="water", period="day", since=today, today=today, count=2, title="Water", lines=lines,
            language="en", last_record_at=f"{today}T09:00:00",
        )  # fmt: skip
        remember(store, digest, "private", "health")
    listed = macaron("apps")
    assert listed.returncode == 0, listed.stderr
    said = " ".join(listed.stdout.split())
    assert "private" in said and "water 1,300 mL today" in said and "1,000 mL" not in said
    (row,) = json.loads(macaron("apps", "--json").stdout)
    assert row["privacy"] == "private" and "1,300 mL" in row["digest"]
