"""The page is the judge (issue 52): what a request asks, held against what a page shows, in
five languages; numbers however they are written, units by their kin; a change is what the
page shows differently."""

from __future__ import annotations

import pytest

from macaron_cli import lang
from macaron_cli.maker.page_judge import asked, difference, missing, said_missing
from macaron_cli.resources import templates_dir


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
    assert missing(request_, page("Aiko's wedding\n2027-05-16 · 160 days"), template="countdown") == []
    assert missing(request_, page("Nothing ahead yet"), template="countdown") == ["May 16", "Aiko's", "wedding"]
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


# Pages as the verification browser read them from apps the fresh-asks bench made (trimmed).
BUDGET_PAGE = page(
    "December 2026\nSpent this month\n$0.00\n$1,500.00 left of $1,500.00\nAmount\nAdd\n🍙 Food\n🚃 Transport\n"
    "🏠 Home\n🎈 Fun\n💊 Health\n🧾 Other\nNote\nDate\nNo expenses this month.",
    {"label": "Amount", "placeholder": "Amount (USD)", "value": ""},
)
TIMER_PAGE = page("Sessions today: 0\nFocus · 50 min\n50:00\nStart\nReset\nTake the break\nLast 7 days: 0 min")
DECK_PAGE_ZH = page(
    "今天要复习：0张\n复习（0）\n卡片（0）\n添加\n添加第一张卡片：正面和反面。",
    {"label": "英语", "placeholder": "英语", "value": ""},
    {"label": "中文", "placeholder": "中文", "value": ""},
)


@pytest.mark.parametrize(
    "request_, template, shown",
    [
        ("track my spending budget 1500 a month categories food", "budget", BUDGET_PAGE),
        ("家計簿 月の予算5万円 食費", "budget", page("今月の支出\n予算 ￥50,000 のうち残り ￥50,000\n🍙 食費")),
        ("가계부 한달 예산 100만원 식비", "budget", page("이번 달 지출\n예산 ₩1,000,000 중 ₩1,000,000 남음\n🍙 식비")),
        ("记账 每月预算3000 分类 交通", "budget", page("本月支出\n预算 ¥3,000.00，还剩 ¥3,000.00\n🚃 交通")),
        ("pomodoro 50 mins trabaho", "timer", TIMER_PAGE),
        ("뽀모도로 타이머 공부 50분", "timer", page("집중 · 50분\n50:00\n시작\n휴식하기")),
        ("背单词卡片 正面英文 背面中文", "deck", DECK_PAGE_ZH),
        ("英単語の暗記カード 表が英語 裏が日本語", "deck", page("復習 (0)\nカード (0)\n英語\n日本語")),
    ],
)
def test_the_kind_of_app_asked_is_met_by_the_template_made_not_by_a_word_on_its_page(request_, template, shown):
    assert missing(request_, shown, template=template) == []
    other = "habit-tracker"  # another kind of app does not meet it: the words are missing again
    assert missing(request_, shown, template=other) != []


def test_every_template_is_a_kind_of_app_the_judge_knows_by_name():
    kinds = {p.name for p in templates_dir().iterdir() if p.is_dir() and not p.name.startswith("_")}
    assert kinds == set(lang.APP_KINDS)
    assert all(lang.words(f"judge.kind.{kind}", code) for kind in kinds for code in ("en", "ja", "ko", "zh"))


def test_a_language_named_is_shown_by_any_of_its_names():
    assert missing("背面中文 正面英文", DECK_PAGE_ZH, template="deck") == []
    sides = page("English\nFilipino")
    assert missing("flashcards english on the front tagalog on the back", sides, template="deck") == []
    assert missing("flashcards english on the front korean on the back", sides, template="deck") == ["korean"]


def test_a_unit_is_not_read_into_the_first_letter_of_a_word_after_a_number():
    assert missing("记账 每月预算3000 分类", page("本月支出\n预算 ¥3,000.00"), template="budget") == []
    assert [a.said for a in asked("ポモドーロ 25分集中") if a.kind == "number"] == ["25分"]


def test_a_short_word_is_not_taken_for_a_plural():
    assert "gas" in missing("budget categories food rent gas", BUDGET_PAGE, template="budget")


def test_what_the_page_lacks_stays_missing_however_the_app_is_named():
    # a work/break pair's second number; categories the page does not show; a person named; a goal
    assert missing("pomodoro timer 50 min work 10 min break", TIMER_PAGE, template="timer") == ["10 min"]
    asked_budget = "track my spending budget 1500 a month categories food rent gas fun"
    assert missing(asked_budget, BUDGET_PAGE, template="budget") == ["rent", "gas"]
    won = page("이번 달 지출\n예산 ₩2,000,000\n🍙 식비")
    assert missing("가계부 한달 예산 100만원 카페", won, template="budget") == ["100만원", "카페"]


@pytest.mark.parametrize(
    "request_, template, shown",
    [
        # verbs of recording, checking and wanting name nothing a page shows
        ("물 하루 2리터 마시기 체크", "habit-tracker", page("오늘\n물\n0 ml / 2,000 ml")),
        ("每天喝水2升 打卡", "habit-tracker", page("今天\n喝水\n0 ml / 2,000 ml")),
        ("毎日の水2リットルをチェック", "habit-tracker", page("今日\n水分\n0 ml / 2,000 ml")),
        ("감정일기 쓰고싶어", "diary", page("오늘 기분은 어때요?\n😢\n🙂\n저장")),
        ("flashcards pang review english sa harap tagalog sa likod", "deck", page("Review (0)\nEnglish\nFilipino")),
        ("mood journal just a few words a day", "diary", page("How are you feeling today?\n🙂\nSave")),
    ],
)
def test_words_that_only_say_how_to_keep_things_name_nothing_the_page_must_show(request_, template, shown):
    assert missing(request_, shown, template=template) == []


@pytest.mark.parametrize(
    "request_, shown",
    [
        # a run said without spaces is read by its letters
        ("一週間の献立 朝昼晩", page("2026年12月7日からの週\n朝ごはん\t昼ごはん\t晩ごはん")),
        ("일주일 식단표 아침 점심 저녁", page("2026년 12월 7일 주\n아침\t점심\t저녁")),
        ("weekly meal plan breakfast lunch dinner", page("Week of December 7, 2026\nBreakfast\tLunch\tDinner")),
        ("가계부 교통비", page("🚃 교통")),  # a compound shown by its first word
    ],
)
def test_a_run_of_letters_and_a_period_are_read_against_the_page_as_it_says_them(request_, shown):
    assert missing(request_, shown, template="meal-plan" if "2026" in shown["text"] else "budget") == []


def test_ten_thousand_said_in_words_is_a_number():
    said = [(a.said, a.value, a.unit) for a in asked("每天走路一万步") if a.kind == "number"]
    assert said == [("一万步", 10000.0, "steps")]
    assert missing("걸음수 만보", page("걸음수\n0 걸음 / 8,000 걸음")) == ["만보"]
    assert missing("걸음수 만보", page("걸음수\n0 걸음 / 10,000 걸음")) == []


def test_a_run_of_letters_the_page_does_not_hold_is_still_missing():
    assert missing("每天提醒我妈吃药 发微信给她", page("今天\n吃药\n0 次 / 1 次")) == ["提醒", "妈吃药", "发微信给她"]
    assert missing("家計簿 食費 日用品", page("今月の支出\n🍙 食費\n🚃 交通費"), template="budget") == ["日用品"]
