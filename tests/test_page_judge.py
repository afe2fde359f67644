"""The page is the judge (issue 52): what a request asks, held against what a page shows, in
five languages; numbers however they are written, units by their kin; a change is what the
page shows differently."""

from __future__ import annotations

import pytest

from macaron_cli.maker.page_judge import asked, difference, missing, said_missing


def page(text: str, *fields: dict) -> dict:
    return {"text": text, "fields": list(fields), "lang": ""}


@pytest.mark.parametrize(
    "request_, shown, lacking",
    [
        # (the request, a page that shows all of it, what a page without one line lacks)
        ("water tracker, 2 liters a day", "Today\nWater\n0 mL / 2,000 mL", "Water"),
        ("血圧を朝と夜に記録、目標は130", "今日\n血圧\n朝 · 夜\n目標 130 mmHg", "朝 · 夜"),
        ("하루 물 2리터 기록 앱 만들어 줘", "오늘\n물\n0 mL / 2,000 mL", "0 mL / 2,000 mL"),
        ("每月预算3000元，记录餐饮和交通", "本月\n预算 ¥3,000\n餐饮\n交通", "交通"),
        ("Gawan mo ako ng app para sa ipon, 10,000 piso kada buwan", "Ipon\n₱10000 / buwan", "₱10000 / buwan"),
    ],
)
def test_a_page_that_shows_all_that_was_asked_lacks_nothing_and_one_line_less_is_named(request_, shown, lacking):
    assert missing(request_, page(shown)) == []
    without = "\n".join(line for line in shown.splitlines() if line != lacking)
    named = missing(request_, page(without))
    assert len(named) >= 1 and all(thing in request_ for thing in named), named


def test_what_no_template_does_is_missing_and_the_apps_name_shows_none_of_it():
    title = "Water tracker that texts my mom when"
    shown = page(f"{title}\nToday\nWater\n0 mL / 2,000 mL\n+ 250 mL")
    assert missing("water tracker that texts my mom when I forget", shown, title) == ["texts", "mom", "forget"]


@pytest.mark.parametrize(
    "request_, shown",
    [
        ("a budget of 10,000 yen a month", "This month · Budget ¥10000"),
        ("a budget of 10000 yen a month", "This month · Budget ¥10,000"),
        ("月の予算は1万円", "今月 予算 ¥10,000"),
        ("예산 5만원 매달", "이번 달 예산 ₩50,000"),
        ("ｗａｔｅｒ １２ cups", "water 12 cups"),  # widths folded
        ("sleep 8 hours a night", "Sleep · 480 min a night"),  # a unit's kin, in another size
    ],
)
def test_a_number_is_shown_however_the_page_writes_it(request_, shown):
    assert missing(request_, page(shown)) == []


def test_a_number_in_the_wrong_currency_or_unit_is_not_shown():
    assert missing("a budget of 500 dollars", page("Budget ₱500")) == ["500 dollars"]
    assert missing("2 liters of water", page("Water 2 kg")) == ["2 liters"]


def test_a_date_is_shown_by_its_month_and_day_in_any_writing():
    request_ = "Count down to Aiko's wedding on May 16"
    assert [a.said for a in asked(request_) if a.kind == "date"] == ["May 16"]
    assert missing(request_, page("Aiko's wedding\n2027-05-16 · 160 days")) == []
    assert missing(request_, page("Nothing ahead yet")) == ["May 16", "Aiko's", "wedding"]
    assert missing("5月16日のアイコの結婚式", page("アイコ 結婚式 5/16")) == []


def test_form_fields_count_as_shown_by_label_placeholder_option_and_value():
    field = {"label": "Mood", "placeholder": "How you felt after the run", "options": list("12345"), "value": ""}
    assert missing("how I felt after each run, 1 to 5", page("Runs", field)) == []
    assert missing("how I felt after each run, 1 to 5", page("Runs")) != []


def test_the_missing_line_is_one_line_in_the_persons_language():
    assert said_missing("ja", ["ママ", "メッセージ"]) == "画面に出ていないもの: ママ、メッセージ。"
    assert said_missing("ko", ["엄마"]).startswith("화면에") and "\n" not in said_missing("tl", ["nanay", "text"])


def test_a_change_is_what_the_page_shows_differently_not_what_a_form_holds():
    before = page("Water\n0 mL / 2,000 mL", {"label": "Day", "value": "2026-12-07"})
    assert difference(before, page("Water\n0 mL / 2,000 mL", {"label": "Day", "value": "2027-05-20"})) == []
    assert difference(before, page("Water\n0 mL / 3,000 mL", {"label": "Day", "value": "2026-12-07"})) == [
        "+ 0 mL / 3,000 mL",
        "− 0 mL / 2,000 mL",
    ]
