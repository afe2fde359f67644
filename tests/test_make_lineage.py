"""Starting from one of the person's own apps, slugs, and the "did it fit you?" answer."""

from __future__ import annotations

import json
import re

from macaron_cli.apps import load_registry, register
from macaron_cli.checkpoints import AppRepo
from macaron_cli.config import Settings
from macaron_cli.maker.brief import build_brief
from macaron_cli.maker.choose import choose_template, from_app
from macaron_cli.maker.commands import record_verdict
from macaron_cli.maker.scaffold import make_slug, scaffold
from macaron_cli.memory import MemoryStore


def test_from_app_copies_code_not_data_or_brief_and_records_lineage(tmp_path, macaron_home):
    apps = tmp_path / "apps"
    first = scaffold(
        choose_template("a water tracker"), build_brief("a water tracker", None, Settings(), None), "water", apps
    )
    AppRepo.init(first).checkpoint("scaffold", "first app")
    (first / "data").mkdir(exist_ok=True)
    (first / "data" / "app.db").write_bytes(b"the person's water log")
    (first / "static" / "extra.js").write_text("// the person's own change\n")
    AppRepo.open(first).checkpoint("manual", "my change")

    idea = "a tea tracker like my water one"
    child = scaffold(from_app(str(first)), build_brief(idea, None, Settings(), None), "tea", apps)
    manifest = json.loads((child / "macaron.json").read_text())
    assert manifest["from"] == "water" and manifest["template"] == "habit-tracker" and manifest["idea"] == idea
    assert (child / "static" / "extra.js").exists()  # the person's own work came along
    assert not (child / "data" / "app.db").exists()  # their data did not
    assert idea in (child / ".macaron" / "brief.md").read_text()


def test_slugs_are_short_ascii_and_unique(tmp_path, macaron_home):
    assert make_slug("I want an app to track my daily water intake", "habit-tracker", tmp_path) == "water-intake"
    ideas = ["毎日の水分補給を記録したい", "매일 물 마시기", "每天喝水打卡", "今月の外食費をまとめたい"]
    slugs = [make_slug(idea, "habit-tracker", tmp_path) for idea in ideas]
    assert all(re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", slug) for slug in slugs), slugs
    assert len(set(slugs)) == len(slugs) and "habit-tracker" not in slugs  # told apart by name
    (tmp_path / slugs[0]).mkdir()
    register(f"{slugs[0]}-2", path="elsewhere")
    assert make_slug(ideas[0], "habit-tracker", tmp_path) == f"{slugs[0]}-3"


def test_did_it_fit_moves_the_reward_of_the_memories_used(macaron_home):
    store = MemoryStore.open()
    used = store.add("I drink from a 500 ml bottle")
    other = store.add("I like jazz")
    assert record_verdict("water", [used.id], liked=True, store=store) == 1
    assert store.get(used.id).reward > store.get(other.id).reward == 0
    record_verdict("water", [used.id], liked=False, store=store)
    record_verdict("water", [used.id], liked=False, store=store)
    assert store.get(used.id).reward < 0
    assert load_registry()["water"]["fit"] is False
