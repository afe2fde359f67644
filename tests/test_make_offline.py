"""`macaron make --offline`: a corpus of ideas in five languages each gets a fitting
template and an app whose UI speaks the idea's language; a subset goes all the way
through the real CLI (scaffold, verification in the sandbox and browser, checkpoint)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from macaron_cli.config import Settings
from macaron_cli.maker.brief import build_brief
from macaron_cli.maker.choose import choose_template, load_templates
from macaron_cli.maker.scaffold import scaffold
from macaron_cli.reading.fit import idea_title

# (idea, language, kind of app). Kinds name the template that should serve them.
CORPUS = [
    ("a water tracker that reminds me of my daily goal", "en", "habits"),
    ("track my morning routine habits", "en", "habits"),
    ("a mood diary for how I feel each evening", "en", "diary"),
    ("a food diary of what I ate today", "en", "diary"),
    ("a weekly planner for my study schedule", "en", "planner"),
    ("track my monthly expenses against a budget", "en", "budget"),
    ("a tip calculator for restaurant bills", "en", "calculator"),
    ("毎日の水分補給を記録したい", "ja", "habits"),
    ("睡眠時間を毎日記録するアプリ", "ja", "habits"),
    ("気分を書き留める日記", "ja", "diary"),
    ("毎日の食事記録をつけたい", "ja", "diary"),
    ("来週の予定を立てるプランナー", "ja", "planner"),
    ("家計簿で支出を管理したい", "ja", "budget"),
    ("割り勘の計算機がほしい", "ja", "calculator"),
    ("매일 물 마시는 양을 기록하고 싶어요", "ko", "habits"),
    ("운동 습관 체크", "ko", "habits"),
    ("오늘 기분을 적는 일기장", "ko", "diary"),
    ("식단 기록 앱", "ko", "diary"),
    ("주간 일정 계획표", "ko", "planner"),
    ("가계부 지출 관리", "ko", "budget"),
    ("단위 변환 계산기", "ko", "calculator"),
    ("每日喝水打卡", "zh", "habits"),
    ("记录每天的步数", "zh", "habits"),
    ("心情日记", "zh", "diary"),
    ("饮食日记，记录三餐", "zh", "diary"),
    ("每周学习计划表", "zh", "planner"),
    ("记账本，管理每月支出", "zh", "budget"),
    ("汇率换算计算器", "zh", "calculator"),
    ("Gusto ko ng talaan ng pag-inom ko ng tubig araw-araw", "tl", "habits"),
    ("Gusto ko ng talaarawan para sa aking pakiramdam", "tl", "diary"),
    ("Gusto ko ng talaarawan ng mga kinain ko sa isang araw", "tl", "diary"),
    ("Gusto ko ng iskedyul ng mga gawain ko sa linggo", "tl", "planner"),
    ("Gusto ko ng badyet para sa gastos ko buwan-buwan", "tl", "budget"),
    ("Gusto ko ng calculator para sa hatian ng bayarin", "tl", "calculator"),
    ("the board games on our shelf with a score for each", "en", "collection"),
    ("読んだマンガの一覧に星をつける", "ja", "collection"),
    ("크리스마스까지 며칠 남았는지 세기", "ko", "countdown"),
    ("vocab flashcards for my French class", "en", "deck"),
    ("Gusto ko ng pomodoro timer para sa thesis ko", "tl", "timer"),
    ("来週の献立を晩ごはんだけ決めたい", "ja", "meal-plan"),
]
TEMPLATE_FOR = {
    "habits": "habit-tracker",
    "diary": "diary",
    "planner": "planner",
    "budget": "budget",
    "calculator": "converter",
    "collection": "collection",
    "countdown": "countdown",
    "deck": "deck",
    "timer": "timer",
    "meal-plan": "meal-plan",
}
INSTALLED = {t.name for t in load_templates()}
COVERED = [c for c in CORPUS if TEMPLATE_FOR[c[2]] in INSTALLED]


def test_the_corpus_is_large_and_covers_every_language_and_template():
    assert len(CORPUS) >= 30
    assert {lang for _, lang, _ in CORPUS} == {"en", "ja", "ko", "zh", "tl"}
    assert {TEMPLATE_FOR[kind] for *_, kind in COVERED} == INSTALLED


@pytest.mark.parametrize("idea,language,kind", COVERED)
def test_idea_gets_a_fitting_template_and_an_app_in_its_language(idea, language, kind, tmp_path, macaron_home):
    template = choose_template(idea)
    assert template.name == TEMPLATE_FOR[kind]
    brief = build_brief(idea, None, Settings(), None)
    assert brief.language == language
    app = scaffold(template, brief, "app", tmp_path)
    config = json.loads((app / "config" / "app.json").read_text(encoding="utf-8"))
    words = json.loads((app / "static" / "i18n" / "app.json").read_text(encoding="utf-8"))
    assert config["language"] == language
    # The header shows the idea's own words, not the template's generic name.
    assert config["title"] and config["title"] in idea_title(idea) and config["title"] != words[language]["app.title"]
    assert "@.macaron/brief.md" in (app / "CLAUDE.md").read_text(encoding="utf-8")


# A representative subset all the way through the CLI (each verifies in the sandbox and
# the browser, which takes seconds): Latin and CJK scripts, two templates.
THROUGH_CLI = [
    c
    for c in COVERED
    if c[0]
    in {
        "a food diary of what I ate today",
        "毎日の水分補給を記録したい",
        "오늘 기분을 적는 일기장",
    }
]


@pytest.mark.slow
@pytest.mark.parametrize("idea,language,kind", THROUGH_CLI)
def test_offline_make_yields_a_verified_app_in_the_ideas_language(idea, language, kind, macaron):
    run = macaron("make", idea, "--offline", "--json")
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout)
    assert set(out) == {
        "app",
        "path",
        "title",
        "template",
        "spec",
        "mode",
        "checkpoints",
        "tests",
        "opened",
        "screenshot",
        "cost_usd",
        "tokens",
        "phases",
        "fit",
        "missing",
        "notes",
        "status",
        "message",
    }
    assert out["template"] == TEMPLATE_FOR[kind] and out["mode"] == "offline" and out["cost_usd"] == 0
    assert out["status"] == "done" and out["notes"] == []  # nothing left unsaid
    assert out["tests"] == "passed" and out["opened"] is True and Path(out["screenshot"]).exists()
    assert [c["phase"] for c in out["checkpoints"]] == ["scaffold"]
    assert out["app"].isascii()
    config = json.loads((Path(out["path"]) / "config" / "app.json").read_text(encoding="utf-8"))
    assert config["language"] == language


@pytest.mark.slow
def test_no_model_configured_still_makes_the_template_and_says_so(macaron):
    run = macaron("make", "a habit tracker for my mornings", "--yes")
    assert "No model customised this app" in run.stdout
    assert "no model is connected; set ANTHROPIC_API_KEY" in " ".join(run.stdout.split())  # what is missing
    apps = json.loads(macaron("apps", "--json").stdout)
    assert apps[0]["mode"] == "offline"


def test_advice_app_needs_confirmation_and_nothing_is_written_without_it(macaron, macaron_home):
    run = macaron("make", "an insulin dose calculator", "--offline")
    assert run.returncode == 2 and "--yes" in run.stderr and "Traceback" not in run.stderr
    assert not (macaron_home.parent / "apps").exists() or not any((macaron_home.parent / "apps").iterdir())


def test_confirmed_advice_app_shows_a_not_professional_advice_note(tmp_path, macaron_home):
    idea = "a loan repayment helper"
    brief = build_brief(idea, None, Settings(), None)
    assert brief.advice == "financial"
    app = scaffold(choose_template(idea), brief, "loans", tmp_path)
    config = json.loads((app / "config" / "app.json").read_text(encoding="utf-8"))
    assert "not professional advice" in config["notice"].lower()
    assert "not professional advice" in (app / "static" / "index.html").read_text(encoding="utf-8").lower()
    assert "not professional advice" in (app / ".macaron" / "brief.md").read_text(encoding="utf-8").lower()
