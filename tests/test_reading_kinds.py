"""What people say is read by kind, not by phrase (issue 51): a list in any of five languages,
numbers with their scale words, two lengths of time in the order said, a rate beside a target,
a period on a goal, several dates each with its name, and names in a list never taken for
things. Each sentence here is typed as people type it; none is in the bench's corpus."""

from __future__ import annotations

from datetime import date

import pytest

from macaron_cli.reading.idea import read_idea
from macaron_cli.reading.slots import Slots, number

TODAY = date(2026, 1, 10)


def said(text: str) -> Slots:
    return read_idea(text, TODAY).said


@pytest.mark.parametrize(
    ("text", "things"),
    [
        ("habit tracker stretching, reading and flossing", ["stretching", "reading", "flossing"]),
        ("買い物リスト：牛乳・卵・パン", ["牛乳", "卵", "パン"]),
        ("運動と読書と瞑想の習慣記録", ["運動", "読書", "瞑想"]),
        ("记录扫地、洗衣服和买菜的值日表", ["扫地", "洗衣服", "买菜"]),
        ("아침, 점심, 저녁 먹은 거 기록", ["아침", "점심", "저녁"]),
        ("habit tracker ko stretching, pagbasa at pagdarasal", ["stretching", "pagbasa", "pagdarasal"]),
    ],
)
def test_a_list_is_read_whole_in_each_language(text, things):
    assert list(said(text).listed) == things


@pytest.mark.parametrize(("written", "value"), [("两千五", 2500), ("一万五", 15000), ("천만", 10_000_000)])
def test_numbers_with_scale_words(written, value):
    assert number(written) == value


def test_a_scale_after_tens_multiplies_them_once():
    assert (number("三千五百"), number("一百零五"), number("3만"), number("二十万")) == (3500, 105, 30000, 200_000)


@pytest.mark.parametrize(
    ("text", "pair"),
    [
        ("focus timer 40 on 5 off", (40, 5)),
        ("read 30 minutes then rest 10", (30, 10)),
        ("勉強45分→休憩15分", (45, 15)),
        ("工作40分钟 休息10分钟", (40, 10)),
        ("aral ng 30 mins tapos pahinga ng 5", (30, 5)),
    ],
)
def test_work_and_break_are_read_in_the_order_said(text, pair):
    reading = said(text)
    assert tuple(a.value for a in reading.pair) == pair
    assert {a.unit for a in reading.pair} == {"minute"}


def test_two_dates_are_no_pair_of_minutes():
    assert said("exams on may 20 and graduation on june 15").pair == ()


@pytest.mark.parametrize(
    ("text", "target", "rate", "period"),
    [
        ("save 8000 for a car putting in 350 a month", 8000, 350, "monthly"),
        ("目標80万円、月4万円積み立て", 800_000, 40_000, "monthly"),
        ("매주 5만원씩 모아서 100만원 만들기", 1_000_000, 50_000, "weekly"),
        ("每周存300块攒一万五去旅游", 15000, 300, "weekly"),
        ("ipon ng 40k, 1k bawat buwan", 40000, 1000, "monthly"),
    ],
)
def test_a_rate_beside_a_target_is_not_the_target(text, target, rate, period):
    reading = said(text)
    assert reading.target is not None and reading.target.value == target
    assert reading.rate is not None and reading.rate.value == rate
    assert reading.period == period


@pytest.mark.parametrize(
    ("text", "goal", "unit", "period"),
    [
        ("한 달에 영화 4편 보기", 4, "", "monthly"),
        ("watch 2 movies a month max", 2, "", "monthly"),
        ("주 3회 수영", 3, "times", "weekly"),
        ("每个月看三本书", 3, "", "monthly"),
        ("2 beses lang mag-kape bawat linggo", 2, "times", "weekly"),
    ],
)
def test_a_goal_keeps_its_period(text, goal, unit, period):
    reading = said(text)
    assert reading.goal is not None and (reading.goal.value, reading.goal.unit) == (goal, unit)
    assert reading.period == period


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        (
            "countdown to dads birthday april 9 and our trip july 1",
            [("birthday", "2026-04-09"), ("trip", "2026-07-01")],
        ),
        ("試験2月10日、旅行3月20日", [("試験", "2026-02-10"), ("旅行", "2026-03-20")]),
        ("4월 1일 이사랑 5월 9일 결혼식", [("이사", "2026-04-01"), ("결혼식", "2026-05-09")]),
    ],
)
def test_several_dates_each_keep_their_name(text, dates):
    reading = said(text)
    assert [(name.casefold(), day) for name, day in reading.dates] == dates
    assert reading.date == dates[0][1]


@pytest.mark.parametrize(
    ("text", "people", "things"),
    [
        ("ako, carlo at mia sa linis ng bahay", ["me", "Carlo", "Mia"], ["linis ng bahay"]),
        ("私とあやとりょうの当番表", ["me", "あや", "りょう"], []),
        ("준호랑 나랑 청소 당번", ["준호", "me"], []),
        ("料理は山田さん、洗濯は鈴木さん", ["山田", "鈴木"], []),
    ],
)
def test_names_in_a_list_are_people_never_things(text, people, things):
    reading = said(text)
    assert sorted(reading.people) == sorted(people)
    assert not {p.casefold() for p in reading.people} & {t.casefold() for t in reading.listed}


# ── what the app is made from them ───────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("idea", "minutes"), [("pomodoro timer 50 on 10 off", (50, 10)), ("番茄钟 专注40 休息10", (40, 10))]
)
def test_a_timer_runs_the_work_and_break_as_said(idea, minutes):
    from macaron_cli.reading.spec_rules import write_spec

    timer = write_spec(read_idea(idea), {}, "Timer").timer
    assert timer is not None and (timer.work, timer.rest) == minutes


def test_a_countdown_names_each_day_it_does_not_count_down_to():
    from macaron_cli.maker.choose import choose_template

    template = choose_template("countdown to my exam march 3 and graduation june 12")
    assert template.fit != "good"
    assert any("06-12" in line and "graduation" in line for line in template.missing)


def test_a_sum_each_period_is_in_the_currency_named_apart():
    reading = said("tracking spending in yen, roughly 3000 a week on lunch")
    assert [(a.value, a.unit) for a in reading.money] == [(3000, "JPY")]
    assert reading.period == "weekly"


@pytest.mark.parametrize(
    "idea",
    [
        "ugh I keep forgetting to drink water, help me keep count",  # a comma between clauses is no list
        "水をもっと飲みたいので記録したい",  # もっと is no "and"
        "朝と夜の血圧をメモしておきたい",  # times of day listed are kept as the times logged at
        "presyon ng dugo ko umaga at gabi",
    ],
)
def test_what_is_no_list_or_is_kept_otherwise_is_not_named_left_out(idea):
    from macaron_cli.maker.choose import choose_template

    template = choose_template(idea)
    assert (template.fit, template.missing) == ("good", [])
