"""A change to what an app keeps, by kind, in five languages (reading/change_lists.py,
change_people.py): things added to the list the page shows (habits, spending categories,
meals), "X instead of Y" and "no more X", a person added where the app keeps its people, an
event added beside the one kept under its own name. Each app is made as an offline make
makes it; the request is applied as `macaron change --offline` applies it."""

from __future__ import annotations

import pytest

from tests.support.bench_module import bench_module

CORPUS = bench_module("change_corpus")


def changed(app: str, lang: str, request: str) -> tuple[dict, dict, tuple[str, ...]]:
    """The spec and settings after the request, and what the rules said they could not do."""
    from macaron_cli.maker.change_plan import rendered
    from macaron_cli.manifest import Manifest
    from macaron_cli.reading.change_rules import understand
    from macaron_cli.spec import spec_of

    manifest, config = CORPUS.made(app, lang)
    change = understand(request, spec_of(manifest), config, Manifest.from_json(manifest))
    assert change.done, (request, change.missing)
    after, cfg = rendered(change)
    return dict(after.spec or {}), cfg, change.missing


def habits(spec: dict) -> list[str]:
    return [m["name"] for m in spec.get("measures", [])]


# ── several things at once, and one after its verb ───────────────────────────────────────
@pytest.mark.parametrize(
    ("app", "lang", "request_", "added", "kept"),
    [
        ("habit tracker for water and reading", "en", "add yoga and swimming to my habits", ["yoga", "swimming"], []),
        ("読書と散歩の習慣トラッカー", "ja", "習慣にヨガと筋トレを追加して", ["ヨガ", "筋トレ"], []),
        ("早起和喝水的习惯打卡", "zh", "加上健身和阅读两个习惯", ["健身", "阅读"], []),
        ("habit tracker para sa pagbabasa", "tl", "pakidagdag ang jogging at yoga sa habits", ["jogging", "yoga"], []),
        ("habit tracker for water and reading", "en", "add flossing", ["flossing"], ["water", "reading"]),
    ],
)
def test_habits_said_are_added_as_said_beside_those_kept(app, lang, request_, added, kept):
    spec, _, _ = changed(app, lang, request_)
    shown = habits(spec)
    assert all(name in shown for name in added + kept), shown


@pytest.mark.parametrize(
    ("app", "lang", "request_", "added"),
    [
        ("track my monthly spending in dollars", "en", "add a category for coffee", ["coffee"]),
        ("食費と日用品の家計簿", "ja", "カテゴリに医療費と交通費も入れて", ["医療費", "交通費"]),
        ("식비랑 교통비 가계부", "ko", "카테고리에 술값 추가", ["술값"]),
        ("记账本", "zh", "分类里加上房租、水电和话费", ["房租", "水电", "话费"]),
        ("budget para sa pagkain at pamasahe", "tl", "dagdag category na load", ["load"]),
    ],
)
def test_categories_said_are_added_to_the_budget(app, lang, request_, added):
    spec, cfg, _ = changed(app, lang, request_)
    assert all(c in spec["money"]["categories"] and c in cfg["categories"] for c in added), spec


@pytest.mark.parametrize(
    ("lang", "app", "request_"),
    [
        ("en", "meal plan for the week", "add a snack row"),
        ("ja", "一週間の献立", "おやつも追加して"),
        ("ko", "일주일 식단표", "간식도 넣어줘"),
        ("zh", "一周的菜单计划", "加个夜宵"),
        ("tl", "meal plan para sa isang linggo", "dagdag merienda"),
    ],
)
def test_a_snack_becomes_a_row_of_the_meal_plan(lang, app, request_):
    spec, cfg, _ = changed(app, lang, request_)
    assert spec["plan"]["meals"][-1] == "snack" and "snack" in cfg["meals"]
    assert {"breakfast", "lunch", "dinner"} <= set(spec["plan"]["meals"])


# ── swaps: X instead of Y, no more X ─────────────────────────────────────────────────────
@pytest.mark.parametrize(
    ("app", "lang", "request_", "gone", "new", "kept"),
    [
        ("habit tracker for water, reading and meditation", "en", "no more meditation, do yoga instead",
         "meditation", "yoga", ["water", "reading"]),
        ("食費・日用品・趣味の家計簿", "ja", "趣味はもういらない", "趣味", None, ["食費", "日用品"]),
        ("가계부: 식비, 교통비, 쇼핑", "ko", "쇼핑 빼줘", "쇼핑", None, ["식비", "교통비"]),
        ("餐饮、交通、购物的记账本", "zh", "不要购物了，换成房租", "购物", "房租", ["餐饮", "交通"]),
        ("budget para sa pagkain, pamasahe at load", "tl", "tanggalin mo na yung load", "load", None,
         ["pagkain", "pamasahe"]),
    ],
)  # fmt: skip
def test_a_thing_taken_off_leaves_the_list_and_its_swap_takes_its_place(app, lang, request_, gone, new, kept):
    spec, _, _ = changed(app, lang, request_)
    shown = habits(spec) or spec["money"]["categories"]
    assert gone not in shown and all(k in shown for k in kept), shown
    assert new is None or new in shown, shown


def test_no_more_of_every_habit_is_refused_never_an_empty_tracker():
    from macaron_cli.manifest import Manifest
    from macaron_cli.reading.change_rules import understand
    from macaron_cli.spec import spec_of

    manifest, config = CORPUS.made("habit tracker for meditation", "en")
    change = understand("no more meditation", spec_of(manifest), config, Manifest.from_json(manifest))
    assert not change.done and change.missing and change.after == change.before


# ── people: added where the app keeps its people ─────────────────────────────────────────
@pytest.mark.parametrize(
    ("app", "lang", "request_", "person", "kept"),
    [
        ("chore chart for me and sam", "en", "add mia to the chores", "Mia", ["me", "Sam"]),
        ("私と夫の家事当番", "ja", "娘のはるかも入れて", "はるか", ["me", "夫"]),
        ("나랑 언니 집안일 당번표", "ko", "민수도 당번에 넣어줘", "민수", ["언니", "me"]),
        ("나랑 언니 집안일 당번표", "ko", "지호 추가해줘", "지호", ["언니", "me"]),
        ("toka sa bahay nina Ana at Ben", "tl", "idagdag si carlo sa toka", "Carlo", ["Ana", "Ben"]),
    ],
)
def test_a_person_added_is_one_of_those_who_do_the_chores(app, lang, request_, person, kept):
    spec, cfg, _ = changed(app, lang, request_)
    assert spec["tasks"]["assignees"] == [*kept, person] and cfg["people"] == [*kept, person]
    assert person not in spec["tasks"].get("categories", [])  # a person, never a chore


def test_a_chore_said_to_a_chore_chart_is_a_chore_not_a_person():
    spec, _, _ = changed("chore chart for me and sam", "en", "add vacuuming")
    assert spec["tasks"]["assignees"] == ["me", "Sam"] and "vacuuming" in spec["tasks"]["categories"]


# ── dates: an event added beside the one kept, under its own name ─────────────────────────
@pytest.mark.parametrize(
    ("app", "lang", "request_", "event", "kept"),
    [
        ("countdown to my exam on march 3", "en", "add Aiko's wedding on june 3", "Aiko's wedding", "exam"),
        ("countdown to my exam on march 3", "en", "add our outing on aug 3", "outing", "exam"),
        ("3月5日の試験までのカウントダウン", "ja", "6月3日の兄の結婚式も追加", "兄の結婚式", "試験"),
        ("3月8日考试倒计时", "zh", "再加一个6月3日姐姐的婚礼", "姐姐的婚礼", "考试"),
        ("countdown sa graduation ko sa april 8", "tl", "idagdag ang birthday ni kuya sa july 7", "birthday ni kuya",
         "graduation"),
    ],
)  # fmt: skip
def test_an_event_added_keeps_its_own_name_and_the_one_before(app, lang, request_, event, kept):
    spec, cfg, _ = changed(app, lang, request_)
    assert spec["tasks"]["event"] == event and cfg["event"] == event
    assert any(kept in str(name) for name, _ in cfg["said_events"]), cfg["said_events"]


@pytest.mark.parametrize(
    ("app", "lang", "request_", "people"),
    [
        ("todo list", "en", "share it with tom and mia", ["Tom", "Mia"]),
        ("할일 목록", "ko", "수진이랑 민호 담당으로 넣어줘", ["수진", "민호"]),
        ("待办清单", "zh", "可以分给小张和小刘", ["小张", "小刘"]),
        ("to do list", "tl", "hati kami ni carlo at bea", ["Carlo", "Bea"]),
    ],
)
def test_people_said_to_share_a_to_do_list_are_whom_it_is_shared_with(app, lang, request_, people):
    spec, cfg, _ = changed(app, lang, request_)
    assert spec["tasks"]["assignees"] == people and cfg["people"] == people
    assert not set(people) & set(spec["tasks"].get("categories", []))


def test_categories_said_to_a_to_do_list_are_its_categories():
    spec, cfg, _ = changed("todo list", "en", "add categories school and gym")
    assert spec["tasks"]["categories"] == ["school", "gym"] and cfg["categories"][:2] == ["school", "gym"]


def test_a_field_each_item_records_already_is_said_so_never_refused_as_unknown():
    from macaron_cli.manifest import Manifest
    from macaron_cli.reading.change_rules import understand
    from macaron_cli.spec import spec_of

    manifest, config = CORPUS.made("a list of books I've read with a rating", "en")
    change = understand("add the author", spec_of(manifest), config, Manifest.from_json(manifest))
    assert not change.done and not change.unread and not change.missing
    assert change.already == ("each book already records author",)


# ── a tracker of habits listed is made of each, as said (the list a change then edits) ───
@pytest.mark.parametrize(
    ("idea", "lang", "habits_said"),
    [
        ("habit tracker for running, reading and meditation", "en", ["running", "reading", "meditation"]),
        ("運動・読書・日記の習慣トラッカー", "ja", ["運動", "読書", "日記"]),
        ("운동, 독서, 일기 습관 트래커", "ko", ["운동", "독서", "일기"]),
        ("跑步、背单词、早睡的习惯打卡", "zh", ["跑步", "背单词", "早睡"]),
        ("habit tracker para sa jogging, pagbabasa at yoga", "tl", ["jogging", "pagbabasa", "yoga"]),
    ],
)
def test_habits_listed_are_made_each_as_said_whatever_else_they_name(idea, lang, habits_said):
    manifest, config = CORPUS.made(idea, lang)
    assert manifest["template"] == "habit-tracker"  # 일기 is no diary here, 背单词 no deck
    assert habits(manifest["spec"]) == habits_said
    assert [h["name"] for h in config["habits"]] == habits_said


@pytest.mark.parametrize(
    ("idea", "lang", "request_", "gone", "kept"),
    [
        ("chore chart: dishes, laundry, trash", "en", "remove trash", "trash", ["dishes", "laundry"]),
        ("家事当番：洗い物、洗濯、掃除", "ja", "掃除はもういらない", "掃除", ["洗い物", "洗濯"]),
        (
            "chore chart: hugas pinggan, walis, luto",
            "tl",
            "tanggalin mo na yung walis",
            "walis",
            ["hugas pinggan", "luto"],
        ),
    ],
)
def test_chores_listed_are_the_charts_chores_and_one_taken_off_leaves_it(idea, lang, request_, gone, kept):
    manifest, _ = CORPUS.made(idea, lang)
    assert gone in manifest["spec"]["tasks"]["categories"]  # made with the chores listed
    spec, cfg, _ = changed(idea, lang, request_)
    assert gone not in spec["tasks"]["categories"] and gone not in cfg["categories"]
    assert all(k in spec["tasks"]["categories"] for k in kept)


def test_split_bills_take_a_word_in_letters_as_spending_and_a_name_as_a_person():
    spec, _, _ = changed("split bills with Tom and Mia", "en", "add coffee")
    assert "coffee" in spec["money"]["categories"] and spec["money"]["people"] == ["me", "Tom", "Mia"]
    spec, _, _ = changed("ルームメイトの健太と私で家賃を割り勘", "ja", "ゆいも追加して")
    assert spec["money"]["people"][-1] == "ゆい" and "ゆい" not in spec["money"].get("categories", [])
