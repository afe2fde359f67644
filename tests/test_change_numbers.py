"""Changes that set numbers, read by kind in five languages (issue 51, item 4): a timer's work
and break minutes in the order said, sums with scale words, a monthly deposit beside a target,
a unit or a currency switched, a goal with its period. Each app is made as an offline make makes
it; each change is read by the change rules and rendered as `macaron change --offline` writes it:
the settings the page runs on are what a person sees."""

from __future__ import annotations

import pytest

from bench.change_corpus import made  # macaron.json and config/app.json as an offline make writes them


def changed(idea: str, language: str, request: str):
    """The app's settings after the change, and the change as read."""
    from macaron_cli.maker.change_plan import rendered
    from macaron_cli.manifest import Manifest
    from macaron_cli.reading.change_rules import understand
    from macaron_cli.spec import spec_of

    manifest, config = made(idea, language)
    spec = spec_of(manifest)
    assert spec is not None
    change = understand(request, spec, config, Manifest.from_json(manifest))
    _, after = rendered(change)
    return after, change


# ── a pair in order: work, then break ────────────────────────────────────────────────────
@pytest.mark.parametrize(
    ("idea", "language", "request_", "work", "rest"),
    [
        ("pomodoro timer", "en", "make it 50 on 10 off", 50, 10),
        ("ポモドーロタイマー", "ja", "集中40分、休み10分にして", 40, 10),
        ("뽀모도로 타이머", "ko", "30분 공부하고 10분 쉬는 걸로 바꿔줘", 30, 10),
        ("番茄钟", "zh", "专注改成50分钟，休息改成10分钟", 50, 10),
        ("pomodoro timer", "tl", "gawin mong 45 minuto na trabaho at 15 minuto na pahinga", 45, 15),
    ],
)
def test_work_and_break_minutes_are_set_in_the_order_said(idea, language, request_, work, rest):
    config, change = changed(idea, language, request_)
    assert (config["work_minutes"], config["break_minutes"]) == (work, rest), change.missing
    assert not change.missing


@pytest.mark.parametrize(
    ("request_", "work", "rest"),
    [("make the break 10 minutes", 25, 10), ("休憩は15分にして", 25, 15), ("집중 시간 50분으로", 50, 5)],
)
def test_one_of_the_two_named_sets_that_one_and_keeps_the_other(request_, work, rest):
    config, _ = changed("pomodoro timer", "en", request_)
    assert (config["work_minutes"], config["break_minutes"]) == (work, rest)


# ── a sum with its scale word: a target or a budget ──────────────────────────────────────
@pytest.mark.parametrize(
    ("idea", "language", "request_", "setting", "value"),
    [
        ("save for a trip, target 5k", "en", "make the target 12k", "savings_goal", 12_000),
        ("目標50万円の貯金", "ja", "目標を120万円にして", "savings_goal", 1_200_000),
        ("한 달 예산 가계부", "ko", "예산 180만원으로 바꿔줘", "monthly_budget", 1_800_000),
        ("存钱计划，目标一万", "zh", "目标改成两万五", "savings_goal", 25_000),
        ("ipon tracker", "tl", "gawin nating 75k ang target ko", "savings_goal", 75_000),
    ],
)
def test_a_sum_said_with_its_scale_word_sets_the_target_or_the_budget(idea, language, request_, setting, value):
    config, change = changed(idea, language, request_)
    assert config[setting] == value, (change.done, change.missing)


# ── a rate beside a target: what is put by each month ────────────────────────────────────
@pytest.mark.parametrize(
    ("idea", "language", "request_", "deposit", "target"),
    [
        ("save 5000 for a trip", "en", "I'll put in 300 a month", 300, 5000),
        ("旅行の積立", "ja", "毎月3万ずつにして", 30_000, 0),
        ("결혼 자금 모으기", "ko", "매달 40만원씩 넣을게", 400_000, 0),
        ("存钱买车，目标十万", "zh", "每个月存3000", 3000, 100_000),
        ("ipon para sa bahay", "tl", "magtatabi ako ng 5k kada buwan", 5000, 0),
    ],
)
def test_a_sum_put_by_each_month_is_the_deposit_and_the_target_stays(idea, language, request_, deposit, target):
    config, change = changed(idea, language, request_)
    assert (config["monthly_deposit"], config["savings_goal"]) == (deposit, target), (change.done, change.missing)
    assert config["monthly_budget"] == 0  # never taken for a budget to overspend


@pytest.mark.parametrize(
    ("idea", "language", "deposit", "target"),
    [
        ("save 5000 for a trip, putting in 400 a month", "en", 400, 5000),
        ("毎月3万円ずつ貯金して100万円", "ja", 30_000, 1_000_000),
        ("magtatabi ako ng 4k kada buwan", "tl", 4000, 0),
    ],
)
def test_a_make_keeps_the_monthly_deposit_beside_the_target(idea, language, deposit, target):
    _, config = made(idea, language)
    assert (config["monthly_deposit"], config["savings_goal"]) == (deposit, target)


# ── a unit or a currency switched: what the page shows, its names included ───────────────
@pytest.mark.parametrize(
    ("idea", "language", "request_", "old_word"),
    [
        ("running log in miles", "en", "actually use km", "mile"),
        ("ランニングをマイルで記録", "ja", "キロで表示して", "マイル"),
        ("달리기 기록, 마일로", "ko", "킬로미터로 바꿔줘", "마일"),
        ("跑步记录，用英里", "zh", "改用公里", "英里"),
        ("talaan ng takbo ko sa milya", "tl", "gawing kilometro", "milya"),
    ],
)
def test_a_unit_switched_is_the_one_the_title_and_the_measure_say(idea, language, request_, old_word):
    config, change = changed(idea, language, request_)
    (habit,) = config["habits"]
    assert habit["unit"] == "kilometer" and config["units"] == "metric", change.missing
    for shown in (config["title"], habit["name"]):
        assert "km" in shown and old_word not in shown.casefold()


@pytest.mark.parametrize(
    ("idea", "language", "request_", "currency", "old_word"),
    [
        ("track my monthly spending in yen", "en", "switch to dollars", "USD", "yen"),
        ("円で家計簿", "ja", "ウォンに変えて", "KRW", "円"),
        ("원화로 여행 경비 기록", "ko", "엔화로 바꿔줘", "JPY", "원화"),
        ("记账本，人民币", "zh", "改成美元", "USD", "人民币"),
        ("badyet sa piso", "tl", "gawing dolyar", "USD", "piso"),
    ],
)
def test_a_currency_switched_is_the_one_the_page_and_its_title_say(idea, language, request_, currency, old_word):
    config, change = changed(idea, language, request_)
    assert config["currency"] == currency, change.missing
    assert old_word not in config["title"].casefold() and currency in config["title"]


def test_a_unit_the_measure_already_is_in_is_said_so_not_left_unread():
    _, change = changed("喝水记录", "zh", "单位换成毫升")
    assert change.already and not change.unread and not change.done


# ── a goal and its period ────────────────────────────────────────────────────────────────
@pytest.mark.parametrize(
    ("idea", "language", "request_", "unit", "goal", "period"),
    [
        ("running log in km", "en", "change my goal to 20 km a week", "kilometer", 20, "weekly"),
        ("毎日の水分補給を記録したい", "ja", "目標を週に14リットルにして", "milliliter", 14_000, "weekly"),
        ("물 마시기 기록", "ko", "매일 말고 주 10잔으로 목표 바꿔", "cups", 10, "weekly"),
        ("记录每天的步数", "zh", "目标改成每周五万步", "steps", 50_000, "weekly"),
        ("talaan ng takbo ko sa kilometro", "tl", "gawing 40 km kada buwan ang goal", "kilometer", 40, "monthly"),
    ],
)
def test_a_goal_is_kept_with_the_period_said(idea, language, request_, unit, goal, period):
    config, change = changed(idea, language, request_)
    (habit,) = config["habits"]
    assert (habit["unit"], habit["goal"], habit.get("period")) == (unit, goal, period), change.missing
    assert not change.missing


@pytest.mark.parametrize(
    ("idea", "language", "request_", "unit", "goal", "period"),
    [
        ("workout tracker", "en", "make the goal 3 workouts a week instead of daily", "times", 3, "weekly"),
        ("ジョギングの記録", "ja", "目標を週3回にして", "times", 3, "weekly"),
        ("운동 기록", "ko", "목표를 주 4회로 바꿔줘", "times", 4, "weekly"),
        ("跑步记录", "zh", "目标改成每月80公里", "kilometer", 80, "monthly"),
        ("workout tracker", "tl", "gawing 3 beses isang linggo ang goal", "times", 3, "weekly"),
    ],
)
def test_a_goal_in_another_unit_is_a_measure_of_its_own_and_the_first_is_kept(
    idea, language, request_, unit, goal, period
):
    """ "3 workouts a week" where workouts are kept in minutes: never 3 minutes; a count of its
    own with the week's goal, the minutes (and what was logged in them) kept as they were."""
    _, before = made(idea, language)
    config, change = changed(idea, language, request_)
    kept, own = config["habits"]
    assert kept == before["habits"][0] and not change.missing
    assert (own["unit"], own["goal"], own["period"]) == (unit, goal, period)


def test_a_goal_said_for_the_day_is_set_in_the_unit_said():
    config, change = changed("물 마시기 기록", "ko", "하루 8잔으로 목표 바꿔")
    (water,) = config["habits"]
    assert (water["unit"], water["goal"], water["period"]) == ("cups", 8, "daily") and not change.missing


@pytest.mark.parametrize(
    ("idea", "language", "goal", "period"),
    [
        ("run 15 miles a week", "en", 15, "weekly"),
        ("週に14リットル水を飲みたい", "ja", 14_000, "weekly"),
        ("매주 물 10리터", "ko", 10_000, "weekly"),
        ("每周跑步20公里", "zh", 20, "weekly"),
        ("takbo ko, 40 km kada buwan", "tl", 40, "monthly"),
    ],
)
def test_a_make_keeps_the_goal_with_its_period(idea, language, goal, period):
    """ "15 miles a week" is never a goal of 15 miles a day."""
    _, config = made(idea, language)
    (habit,) = config["habits"]
    assert (habit["goal"], habit.get("period")) == (goal, period)
