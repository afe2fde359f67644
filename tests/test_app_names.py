"""An app's name: a short title in the idea's language, and a slug or title that finds it."""

from __future__ import annotations

import json

import pytest

from macaron_cli.apps import register, resolve_app
from macaron_cli.errors import UserError
from macaron_cli.reading.fit import idea_title


@pytest.mark.parametrize(
    "idea,title",
    [
        ("log my blood pressure every morning and evening", "Blood pressure every morning and evening"),
        ("Split the grocery bill with my two roommates this month", "Split the grocery bill"),
        ("今月の外食費をまとめたい", "今月の外食費"),
        ("毎朝の体重を記録したい", "毎朝の体重"),
        ("반려견 산책 기록하고 싶어", "반려견 산책"),
        ("记录每天喝了几杯咖啡", "每天喝了几杯咖啡"),
        ("우리 집 집안일 누가 할지 매주 정하기", "우리 집 집안일 누가 할지 매주 정하기"),
        ("旅行まであと何日か知りたい", "旅行まであと何日"),
    ],
)
def test_a_title_is_the_thing_asked_for_not_the_wish(idea, title):
    assert idea_title(idea) == title


@pytest.mark.parametrize(
    "idea,title",
    [
        ("omg I keep forgetting to water the basil 😅 can you help??", "Water the basil"),
        ("need a tracker app for my sourdough starter feedings lol", "Sourdough starter feedings"),
        ("honestly just something to count how many pushups I do, nothing fancy!!", "How many pushups I do"),
        ("an app where me, Priya, Tom and Lucas can split the cabin rental costs", "Split the cabin rental costs"),
        ("Laundry rota for the flat with my flatmates Jake, Mia and Sam", "Laundry rota for the flat"),
        ("chore chart for me, sam and lee", "Chore chart"),  # not "Chore chart for me"
        ("habit tracker for running, reading and meditation", "Habit tracker"),  # not "… for running"
        ("chores for me and my roommates jess and omar", "Chores"),  # not cut after "jess"
        ("ねこのごはんの時間を記録するアプリがほしい😺", "ねこのごはんの時間"),
        ("英単語を覚えるためのアプリを作ってほしいです！", "英単語"),
        ("家族（パパ、ママ、ゆうき）の家事当番表を作りたい", "家族の家事当番表"),
        ("고양이 밥 준 시간 기록하는 앱 만들어줘 🐱", "고양이 밥 준 시간"),
        ("帮我做一个记录宝宝喝奶量的小程序吧～", "宝宝喝奶量"),
        ("ugh I always forget my vitamins, can you remind me", "Vitamins"),
        ("ポンドをキロに換算したい", "ポンドをキロに換算したい"),  # converting is the app, not the pound
    ],
)
def test_a_title_is_a_noun_phrase_without_the_chat_the_people_or_the_word_app(idea, title):
    assert idea_title(idea) == title


def test_a_long_title_never_ends_inside_a_word_or_on_a_dangling_word():
    for idea in (
        "How many glasses of lemonade did the kids have today at the party",
        "convert my running pace between min/km and min/mile",
    ):
        title = idea_title(idea)
        assert len(title) <= 40 and idea.casefold().startswith(title.casefold() + " "), title
        assert title.split()[-1].casefold() not in {"the", "with", "of", "and", "did", "between"}, title
    idea = "家族みんなの今週の予定と買い物リストとやることを全部一つにまとめたい"
    title = idea_title(idea)
    assert len(title) <= 20 and idea.startswith(title) and idea[len(title)] in "のと、", title


def _app(tmp_path, slug, title):
    path = tmp_path / slug
    (path / ".git").mkdir(parents=True)
    (path / "macaron.json").write_text(json.dumps({"title": title}), encoding="utf-8")
    register(slug, path=str(path), created_at="2026-01-01T00:00:00")
    return path


def test_an_app_is_found_by_slug_title_or_the_start_of_either(tmp_path, macaron_home):
    dog = _app(tmp_path, "banlyeogyeon-sanchaeg", "반려견 산책")
    weight = _app(tmp_path, "meichao-tizhong", "毎朝の体重")
    _app(tmp_path, "meichao-pao", "毎朝のジョギング")
    assert resolve_app("반려견") == dog == resolve_app("banlyeo") == resolve_app("반려견 산책")
    assert resolve_app("毎朝の体重") == weight
    with pytest.raises(UserError, match="meichao-pao, meichao-tizhong"):
        resolve_app("毎朝")  # two apps start so: say which
    with pytest.raises(UserError, match="no app named"):
        resolve_app("zzz")


@pytest.mark.slow
def test_the_same_idea_twice_says_it_makes_a_second_app(macaron):
    first = macaron("make", "a water tracker for my day", "--offline", "--yes")
    second = macaron("make", "a water tracker for my day", "--offline", "--yes")
    assert first.returncode == 0 and second.returncode == 0, second.stdout + second.stderr
    said = " ".join((second.stdout + second.stderr).split())
    assert "this makes a second one, water-tracker-2" in said and "second one" not in first.stdout + first.stderr


# ── slugs ───────────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize(
    "idea,slug",
    [
        ("毎晩の腹筋の回数を記録したい", "maiban-fukkin-kaisuu"),
        ("ねこのごはんの時間をメモしたい", "neko-gohan-jikan"),
        ("赤ちゃんのミルクの量を残したい", "akachan-miruku-ryou"),
    ],
)
def test_a_japanese_slug_is_read_as_japanese_not_as_chinese(idea, slug, tmp_path, macaron_home):
    pytest.importorskip("sudachipy")
    from macaron_cli.maker.scaffold import make_slug

    assert make_slug(idea, "habit-tracker", tmp_path) == slug


def test_without_a_dictionary_a_japanese_slug_reads_the_kana_and_never_chinese(monkeypatch):
    from macaron_cli.maker.scaffold import slug_words
    from macaron_cli.reading import japanese

    monkeypatch.setattr(japanese, "readings", lambda text: None)
    assert slug_words("ジョギングの距離") == ["jogingu"]  # 距離 has no reading without one: left out
    assert "juli" not in slug_words("ジョギングの距離")
    assert slug_words("咖啡的数量")[0] == "kafei"  # Chinese stays pinyin


@pytest.mark.parametrize(
    "kana,romaji",
    [
        ("ジュニュウ", "junyuu"),
        ("ちょきん", "chokin"),
        ("ぜっけん", "zekken"),
        ("メーター", "meetaa"),
        ("フォーク", "fooku"),
    ],
)
def test_kana_is_romanised_as_people_type_it(kana, romaji):
    from macaron_cli.reading.japanese import romaji as read

    assert read(kana) == romaji


@pytest.mark.parametrize(
    "idea,title",
    [
        ("a water tracker, 2 liters a day", "Water tracker"),
        ("水分補給の記録、1日2リットル", "水分補給の記録"),
        ("1日3回の血圧記録", "血圧"),
        ("물 마시기 기록, 하루 2리터", "물 마시기 기록"),
        ("喝水记录，每天2升", "喝水记录"),
        ("steps ko araw-araw, goal 10,000", "Steps ko araw-araw"),
    ],
)
def test_a_title_leaves_out_the_amounts_a_change_would_move(idea, title):
    """The goal said is the app's setting: a title saying "2 liters" is wrong once it is 3."""
    assert idea_title(idea) == title


@pytest.mark.parametrize(
    "idea,slug",
    [
        ("i wanna log my runs, distance and time", "runs-distance-time"),
        ("ugh i keep forgetting to drink water lol", "drink-water"),
        ("write down what i ate today", "what-ate-today"),
    ],
)
def test_a_slug_is_the_app_s_name_not_the_wish_around_it(idea, slug, tmp_path, macaron_home):
    from macaron_cli.maker.scaffold import make_slug

    assert make_slug(idea, "habit-tracker", tmp_path) == slug
