"""Apps that fit the idea (issue 19): the template chosen for it, its title and first screen
from the idea, defaults from the person (currency magnitude, cups, saved language), the
hand-off from chat, fonts in verification, and what a local model's fix round sees."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from macaron_cli import config
from macaron_cli.config import Settings
from macaron_cli.maker.brief import build_brief
from macaron_cli.maker.choose import choose_template
from macaron_cli.maker.scaffold import make_slug, scaffold
from macaron_cli.reading.personal import personal_settings

WATER, RECIPES, KRW_BUDGET, COOKING, KAKEIBO = (
    "a water tracker for my day",
    "家族のレシピを評価するアプリ",
    "한 달 예산 계획표",
    "a unit converter for cooking",
    "家計簿",
)


def made(idea, tmp_path, settings=None, store=None):
    """An offline make's scaffold, without verification: template, brief, config/app.json."""
    template, app = made_app(idea, tmp_path, settings, store)
    return template, json.loads((app / "config" / "app.json").read_text(encoding="utf-8"))


def made_app(idea, tmp_path, settings=None, store=None):
    template = choose_template(idea)
    brief = build_brief(idea, store, settings or Settings(), None)
    return template, scaffold(template, brief, make_slug(idea, template.name, tmp_path / "apps"), tmp_path / "apps")


def test_a_water_tracker_shows_water_and_is_called_after_it(tmp_path, macaron_home):
    template, config = made(WATER, tmp_path)
    assert template.name == "habit-tracker" and template.fit == "good"
    assert [h["key"] for h in config["habits"]] == ["water"]
    assert "water" in config["title"].lower() and config["title"] != "Daily habits"


def test_family_recipes_to_rate_get_a_collection_of_recipes_with_stars(tmp_path, macaron_home):
    template, config = made(RECIPES, tmp_path)
    assert template.name == "collection" and template.fit == "good"
    assert config["item"] == "recipe" and config["rating"] is True
    assert config["language"] == "ja" and config["title"] != "毎日の習慣"
    assert "レシピ" in config["title"]


def test_a_korean_monthly_budget_is_in_the_wons_magnitude(tmp_path, macaron_home):
    template, config = made(KRW_BUDGET, tmp_path)
    assert template.name == "budget" and config["currency"] == "KRW" and config["language"] == "ko"
    assert config["monthly_budget"] >= 500_000  # not ₩1,500: about a month's spending in won


def test_a_converter_for_cooking_opens_on_cups_and_grams(tmp_path, macaron_home):
    template, app = made_app(COOKING, tmp_path)
    config = json.loads((app / "config" / "app.json").read_text(encoding="utf-8"))
    assert template.name == "converter"
    assert config["categories"][0] == "cooking" and config["pairs"]["cooking"][0] == "cup"
    # The app's own unit table, as its server serves it (run in the app, as the app runs).
    served = subprocess.run(
        [sys.executable, "-c", _OPENING, json.dumps(config["units"]), json.dumps(config["pairs"])],
        cwd=app, capture_output=True, text=True, check=True,
    )  # fmt: skip
    opening, cup_in_tablespoons = json.loads(served.stdout)
    assert {u["id"] for u in opening["units"]} >= {"cup", "tablespoon", "gram"} and opening["from"] == "cup"
    assert cup_in_tablespoons == pytest.approx(16)


_OPENING = """
import json, sys
from server.units import catalogue, convert
opening = catalogue(json.loads(sys.argv[1]), json.loads(sys.argv[2]))["cooking"]
print(json.dumps([opening, convert(1, "cup", "tablespoon")]))
"""


def test_kanji_only_idea_uses_the_persons_saved_language(tmp_path, macaron_home):
    template, config = made(KAKEIBO, tmp_path, Settings(language="ja"))
    assert template.name == "budget" and config["language"] == "ja" and config["currency"] == "JPY"
    assert config["monthly_budget"] == 0  # no budget was asked for: none shown (never a dollar figure)


def test_a_budget_appears_only_when_asked_for(tmp_path, macaron_home):
    _, spending = made("track my spending in KRW", tmp_path / "spending")
    assert spending["monthly_budget"] == 0
    _, planner = made(KRW_BUDGET, tmp_path / "planner")  # "a monthly budget planner": the usual one, in won
    assert planner["monthly_budget"] >= 500_000


def test_kanji_only_idea_follows_japanese_memories_without_a_saved_language(macaron_home):
    from macaron_cli.memory import MemoryStore

    store = MemoryStore.open()
    store.add("家計簿は毎月つけていて、食費が一番多い")  # what the person told macaron, in Japanese
    assert build_brief(KAKEIBO, store, Settings(), None).language == "ja"


def test_a_cups_preference_in_memory_gives_cups(tmp_path, macaron_home):
    from macaron_cli.memory import MemoryStore

    store = MemoryStore.open()
    store.add("I prefer cups to ml when I measure things")
    _, water = made(WATER, tmp_path, store=store)
    assert water["habits"][0]["unit"] == "cups" and water["habits"][0]["goal"] == 8
    _, converter = made("a converter for my kitchen scale and jugs", tmp_path, store=store)
    assert converter["pairs"]["volume"] == ["cup", "milliliter"]
    # and without that memory, millilitres
    assert made(WATER, tmp_path / "other")[1]["habits"][0]["unit"] == "milliliter"
    assert "volume_unit" not in personal_settings("en", ["I drink three cups of coffee a day"])
    assert "volume_unit" not in personal_settings("en", ["I prefer ml to cups"])


def test_an_idea_nothing_fits_is_marked_weak_and_still_gets_the_closest():
    template = choose_template("zq xv plorb")
    assert template.fit == "weak" and template.path.is_dir()


@pytest.mark.slow
def test_make_says_when_nothing_fits_well(macaron, macaron_home):
    run = macaron("make", "zq xv plorb", "--offline", "--json", "--yes", timeout=600)
    out = json.loads(run.stdout)
    assert out["fit"] == "weak" and out["template"] and Path(out["path"]).is_dir()


@pytest.mark.slow
@pytest.mark.parametrize(
    "idea,settings,template",
    [
        (WATER, "", "habit-tracker"),
        (RECIPES, "", "collection"),
        (KRW_BUDGET, "", "budget"),
        (COOKING, "", "converter"),
        (KAKEIBO, 'language = "ja"\n', "budget"),
    ],
)
def test_the_issues_ideas_make_verified_apps_offline(idea, settings, template, macaron, macaron_home):
    macaron_home.mkdir(parents=True, exist_ok=True)
    (macaron_home / "config.toml").write_text(settings, encoding="utf-8")
    run = macaron("make", idea, "--offline", "--yes", timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"from the {template} template" in run.stdout
    assert "tests passed; opens in a browser: yes" in run.stdout


# ── the hand-off from chat ─────────────────────────────────────────────────────────────
@pytest.mark.parametrize(
    "request_text,idea",
    [
        ("Can you make me an app to track my daily water intake?", "track my daily water intake"),
        ("hey, could you build me a tracker for my runs", "tracker for my runs"),
        ("毎日の水分補給を記録するアプリを作ってください", "毎日の水分補給を記録する"),
        ("물 마시기 기록 앱 만들어 줘", "물 마시기 기록"),
        ("帮我做一个记账的应用", "记账"),
        ("Gawan mo ako ng app para sa gastusin ko", "gastusin ko"),
    ],
)
def test_chat_hands_the_idea_itself_to_the_maker(request_text, idea, tmp_path, macaron_home):
    from macaron_cli.friend.router import idea_from

    assert idea_from(request_text) == idea
    if request_text.startswith("Can you"):
        assert make_slug(idea, "habit-tracker", tmp_path) == "water-intake"


# ── fonts ──────────────────────────────────────────────────────────────────────────────
def _open_page(tmp_path, body: str, around: str = "") -> dict:
    """The page `<div id="app">body</div>` (after `around`, what the page has outside it)."""
    from macaron_cli.sandbox import open_check

    site = tmp_path / "site"
    site.mkdir()
    app = '<div id="app" style="max-width:640px;margin:0 auto">' if around else '<div id="app">'
    if around:  # a page with macaron's look (its cards are what the layout check knows)
        around = '<link rel="stylesheet" href="macaron-tokens.css">' + around
    (site / "index.html").write_text(
        f'<!doctype html><meta charset="utf-8"><body>{around}{app}{body}</div>', encoding="utf-8"
    )
    config = {
        "run": ["{python}", "-m", "http.server", "{port}", "--bind", "127.0.0.1"],
        "cwd": str(site),
        "main_selector": "#app",
        "chromium": shutil.which("chromium") or "/usr/bin/chromium",
        "screenshot": None,
        "report": str(tmp_path / "report.json"),
        "startup_timeout": 30,
    }
    return open_check.check(config)


def _fonts_for(pattern: str) -> bool:
    return bool(shutil.which("fc-list")) and bool(
        subprocess.run(["fc-list", pattern, "family"], capture_output=True, text=True, check=False).stdout.strip()
    )


@pytest.mark.slow
def test_text_no_font_can_draw_is_found_in_the_page(tmp_path):
    # U+E000 is private use: no font a machine installs for people draws it.
    report = _open_page(tmp_path, "Water \ue000 tracker")
    assert report["main_rendered"] and report["missing_glyphs"] == ["U+E000 \ue000"]


@pytest.mark.slow
@pytest.mark.skipif(
    not (_fonts_for(":lang=ja") and _fonts_for(":charset=1f4a7:color=true")),
    reason="needs fonts-noto-cjk and fonts-noto-color-emoji (installed by .ci/run)",
)
def test_cjk_and_emoji_draw_with_the_fonts_installed(tmp_path):
    report = _open_page(tmp_path, "水分 물 喝水 tubig 💧 ₩1,000,000")
    assert report["main_rendered"] and report["missing_glyphs"] == []


def test_missing_glyphs_fail_verification_with_the_fix():
    from macaron_cli.sandbox.report import VerifyReport
    from macaron_cli.sandbox.verify import _read_open

    report = VerifyReport(tests_ok=True)
    _read_open(
        report,
        {
            "started": True,
            "http_status": 200,
            "main_rendered": True,
            "main_state": "rendered",
            "missing_glyphs": ["U+3042 あ", "U+1F4A7 💧"],
        },
    )
    assert report.missing_glyphs and any(
        "empty boxes" in p and "apt-get install fonts-noto-cjk fonts-noto-color-emoji" in p for p in report.problems
    )
    assert "apt-get install fonts-noto-cjk" in report.feedback()


def test_doctor_checks_fonts_for_the_persons_language(macaron_home, monkeypatch, tmp_path):
    from macaron_cli import doctor

    macaron_home.mkdir(parents=True, exist_ok=True)
    (macaron_home / "config.toml").write_text('language = "ko"\n', encoding="utf-8")
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "fc-list").write_text('#!/bin/sh\ncase "$1" in *lang=ko*) exit 0;; *) echo Font;; esac\n')
    (fake / "fc-list").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}:/usr/bin:/bin")
    check = doctor.check_fonts(config.load_settings())
    assert not check.ok and "ko" in check.detail and "fonts-noto-cjk" in check.fix


def test_doctor_checks_fonts_for_the_languages_of_apps_and_memories(macaron_home, monkeypatch, tmp_path):
    from macaron_cli import doctor
    from macaron_cli.apps import register
    from macaron_cli.memory import MemoryStore

    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "fc-list").write_text('#!/bin/sh\ncase "$1" in *lang=ja*|*lang=zh*) exit 0;; *) echo Font;; esac\n')
    (fake / "fc-list").chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake}:/usr/bin:/bin")
    assert doctor.check_fonts(
        config.load_settings()
    ).ok  # English alone: Japanese and Chinese fonts are missing, unused

    app = tmp_path / "apps" / "suibun"
    (app / "config").mkdir(parents=True)
    (app / "config" / "app.json").write_text('{"language": "ja"}', encoding="utf-8")
    register("suibun", path=str(app))
    check = doctor.check_fonts(config.load_settings())
    assert not check.ok and "ja: your language, apps or memories use it" in check.detail

    (app / "config" / "app.json").write_text('{"language": "en"}', encoding="utf-8")
    MemoryStore.open().add("我对花生过敏", language="zh")
    check = doctor.check_fonts(config.load_settings())
    assert not check.ok and "(zh:" in check.detail


# ── draft fix rounds ───────────────────────────────────────────────────────────────────
def test_a_fix_round_always_shows_the_entry_files_however_little_fits(tmp_path):
    from macaron_cli.maker.local_model import app_files

    template = choose_template(WATER)
    app = scaffold(template, build_brief(WATER, None, Settings(), None), "app", tmp_path)
    (app / "static" / "aaa-big.js").write_text("// padding\n" * 2000, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(app)], check=True)
    subprocess.run(["git", "-C", str(app), "add", "-A"], check=True)
    shown, omitted = app_files(app, budget_chars=4_000)
    names = [rel for rel, _ in shown]
    assert set(names[:2]) == {"static/index.html", "server/main.py"}
    assert "static/aaa-big.js" in omitted


# ── choice by meaning ──────────────────────────────────────────────────────────────────
@pytest.mark.embeddings
def test_meaning_chooses_what_no_keyword_names_and_caches_vectors_per_model(macaron_home):
    from macaron_cli.memory import embeddings

    template = choose_template("a journal for my pregnancy")
    assert template.name == "diary" and template.fit == "good" and template.similarity is not None
    assert choose_template("packing checklist for the trip").name == "planner"
    assert choose_template("zq xv plorb").fit == "weak"
    cached = list((macaron_home / "cache").glob("template-vectors-*.json"))
    assert [p.name for p in cached] == [f"template-vectors-{embeddings.MODEL_NAME}.json"]
    assert (macaron_home / "cache").stat().st_mode & 0o777 == 0o700  # what it says of the person's ideas is theirs


@pytest.mark.embeddings
def test_a_larger_embedding_model_gets_template_vectors_of_its_own(macaron_home, monkeypatch):
    """Vectors of the bundled model are never compared with an idea the larger model embedded."""
    import numpy as np

    from macaron_cli.maker.choose import _template_vectors, load_templates
    from macaron_cli.memory import embeddings

    templates = load_templates()
    bundled = _template_vectors(templates)
    # The larger model is not installed here: a stand-in that answers in its own space.
    monkeypatch.setattr(embeddings, "embed", lambda texts: np.ones((len(texts), 8), dtype=np.float32))
    monkeypatch.setattr(embeddings, "_chosen", None)
    embeddings.choose("intfloat/multilingual-e5-large")
    larger = _template_vectors(templates)
    cached = sorted(p.name for p in (macaron_home / "cache").glob("template-vectors-*.json"))
    assert cached == sorted(
        [f"template-vectors-{embeddings.MODEL_NAME}.json", "template-vectors-intfloat_multilingual-e5-large.json"]
    )
    assert larger[0][0].shape == (8,) and bundled[0][0].shape != (8,)


# ── layout ─────────────────────────────────────────────────────────────────────────────
@pytest.mark.slow
def test_text_outside_the_cards_or_the_column_is_found_in_the_page(tmp_path):
    report = _open_page(
        tmp_path,
        '<section class="mc-card">inside</section><p class="mc-empty">nothing yet</p>',
        around='<p class="macaron-notice">a notice as wide as the window</p><p>a loose line</p>',
    )
    assert report["main_rendered"]
    assert report["layout"] == [
        '"a notice as wide as the window" is outside the page\'s column',
        '"a loose line" is outside the cards and unstyled',
    ]


def test_a_layout_problem_fails_verification_with_the_fix():
    from macaron_cli.sandbox.report import VerifyReport
    from macaron_cli.sandbox.verify import _read_open

    report = VerifyReport(tests_ok=True)
    found = {"started": True, "http_status": 200, "main_rendered": True, "main_state": "rendered"}
    _read_open(report, {**found, "layout": ['"a loose line" is outside the cards and unstyled']})
    assert any("a loose line" in p and "class mc-card" in p for p in report.problems)
    assert "a loose line" in report.feedback()
