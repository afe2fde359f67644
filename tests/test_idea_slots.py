"""Apps that do what was said (issue 43): the idea read as slots (people, money in its
currency, units said and refused, goals, targets, times of day, dates), an app that never
shows the opposite of what was said, and make naming what the app leaves out."""

from __future__ import annotations

import json
from datetime import date

import pytest

from macaron_cli.maker.choose import choose_template
from macaron_cli.reading.slots import Amount, read
from tests.test_make_fit import made


@pytest.mark.parametrize(
    "idea,people",
    [
        ("who cleans the bathroom this week, me or Dana or Felix", ["me", "Dana", "Felix"]),
        ("同居人の翔太と私で掃除当番を決めたい", ["翔太", "me"]),
        ("친구 지민이한테 2만원 빌렸어", ["지민"]),
        ("我和室友小刘轮流倒垃圾", ["me", "小刘"]),
        ("hatian sa upa nila Rico at Mae", ["Rico", "Mae"]),
    ],
)
def test_the_people_an_idea_names_are_read_in_each_language(idea, people):
    assert set(read(idea).people) == set(people)


def test_money_numbers_and_dates_are_read_with_their_units():
    assert read("putting aside ₱2,500 every payday, aiming for 40k pesos").target == Amount(40000, "PHP")
    assert read("한 달 식비 50만원 안에서").budget == Amount(500000, "KRW")
    assert read("每天至少走六千步").goal == Amount(6000, "steps")
    assert read("blood sugar in mmol/L, definitely not mg/dL").refused == ("mg/dL",)
    day = read("how long until the concert on 9 October 2031").date
    assert day == "2031-10-09" and date.fromisoformat(day) > date.today()


def test_weight_in_kilos_not_pounds_is_a_kilogram_log_not_a_converter(tmp_path, macaron_home):
    template, config = made("my weight in kilos not pounds, plus my body fat, each morning", tmp_path)
    assert template.name == "habit-tracker"
    units = {h["key"]: h["unit"] for h in config["habits"]}
    assert units["body_weight"] == "kilogram" and units["body_fat"] == "percent"
    assert "pound" not in units.values()


def test_blood_sugar_in_mmol_is_kept_in_mmol_before_and_after_meals(tmp_path, macaron_home):
    template, config = made("记一下血糖，单位mmol/L，饭前和饭后", tmp_path)
    (sugar,) = config["habits"]
    assert template.name == "habit-tracker" and sugar["unit"] == "mmol/L"


def test_blood_pressure_beside_its_pulse_keeps_both(tmp_path, macaron_home):
    _, config = made("혈압하고 심박수 같이 기록", tmp_path)
    assert [h["key"] for h in config["habits"]] == ["blood_pressure", "pulse"]


def test_a_savings_target_is_never_a_budget_that_deposits_overspend(tmp_path, macaron_home):
    template, config = made("모으고 싶은 돈 500만원, 여행 가려고", tmp_path)
    assert template.fit == "good" and config["currency"] == "KRW"
    assert config["savings_goal"] == 5_000_000 and config["categories"][0] == "savings"


def test_a_rota_between_named_people_lets_a_task_go_to_each_of_them(tmp_path, macaron_home):
    template, config = made("weekly cleaning rota for Hana, Omar and me", tmp_path)
    assert template.name == "planner" and {"Hana", "Omar", "me"} <= set(config["people"])


@pytest.mark.parametrize(
    "idea,shifts",
    [
        ("bakery rota: Jo, Sam and Kim, morning and afternoon shifts", ["morning", "afternoon"]),
        ("母と私で猫の世話当番、朝と夕方", ["morning", "evening"]),
        ("超市排班：小王、小赵，早班和晚班", ["morning", "evening"]),
    ],
)
def test_a_rota_by_time_of_day_opens_with_its_shifts(idea, shifts, tmp_path, macaron_home):
    template, config = made(idea, tmp_path)
    assert template.name == "planner" and config["shifts"] == shifts and len(config["people"]) >= 2
    assert template.fit == "good" and not template.missing


def test_a_countdown_comes_filled_in_with_the_event_and_its_day(tmp_path, macaron_home):
    template, config = made("days until my sister's wedding on 20 May 2031", tmp_path)
    # whose day it is kept with it, as said (reading/slots._whose): not any wedding
    assert template.name == "countdown" and config["day"] == "2031-05-20" and config["event"] == "sister's wedding"


@pytest.mark.parametrize(
    "idea,family,said",
    [
        ("a 50 minute focus timer with 10 minute breaks", "timer", {"work_minutes": 50, "break_minutes": 10}),
        ("ポモドーロタイマーがほしい", "timer", {"work_minutes": 25, "break_minutes": 5}),
        ("番茄钟 专注45分钟 休息15分钟 记录完成几个", "timer", {"work_minutes": 45, "break_minutes": 15}),
        ("flashcards to learn German words", "deck", {"sides": ["de", "en"]}),
        ("韓国語の単語帳、ハングルと日本語で", "deck", {"sides": ["ko", "ja"]}),
        ("reviewer cards, tanong sa harap, sagot sa likod", "deck", {"sides": ["question", "answer"]}),
        ("plan my lunches for the week", "meal-plan", {"meals": ["lunch"]}),
        ("今週の献立を朝と晩だけ決めたい", "meal-plan", {"meals": ["breakfast", "dinner"]}),
        ("meal plan para sa pamilya", "meal-plan", {"meals": ["breakfast", "lunch", "dinner"]}),
    ],
)
def test_a_timer_a_deck_and_a_meal_plan_open_with_what_was_said(idea, family, said, tmp_path, macaron_home):
    template, config = made(idea, tmp_path)
    assert template.name == family and template.fit == "good" and not template.missing
    assert {key: config[key] for key in said} == said


@pytest.mark.parametrize(
    "idea",
    [
        "log my weight, goal 60 kg, and my waist in cm",  # a second measure no rule reads
        "recipe is for 2, scale the ingredients for 6 people",  # scaling: nothing serves it yet
    ],
)
def test_what_the_app_leaves_out_is_named_and_the_fit_is_not_good(idea):
    template = choose_template(idea)
    assert template.fit != "good" and template.missing


@pytest.mark.parametrize(
    "idea,left_out",
    [
        ("bp and pulse at oxygen ko tuwing umaga", "oxygen"),  # a thing beside one the app logs
        ("my daughter's naps, she should get like 3 a day", "3"),  # a number no rule read
        ("一周早餐计划，周一到周五", "none of it was read"),  # nothing read: the template's own app
        ("counting down to the 5th of May, 2031", "its name"),  # a day, but not what it is
    ],
)
def test_every_thing_said_is_shown_or_named_as_left_out(idea, left_out):
    template = choose_template(idea)
    assert template.fit != "good" and left_out in " ".join(template.missing)


@pytest.mark.parametrize(
    "idea",
    [
        "Tom owes me 40 bucks, Sara owes me 25",  # what is owed: the person's records
        "하루 물 2리터 마시기",  # 2 litres shown as 2000 ml
        "2031年3月15日に引っ越し。あと何日か知りたい",  # the day's numbers are the day
        "혈당 공복이랑 식후 2시간 재는 거 기록",  # two hours after a meal: when, not a goal
        "my weight and body fat % each morning",  # body fat is a measure of its own
    ],
)
def test_an_app_with_everything_said_stays_a_good_fit(idea):
    template = choose_template(idea)
    assert (template.fit, template.missing) == ("good", [])


@pytest.mark.parametrize(
    "idea", ["did I stretch today? just want a tick", "毎朝ストレッチしたかだけチェック", "每天拉伸了没有，打卡就行"]
)
def test_a_stretching_tick_shows_stretching_done_or_not(idea, tmp_path, macaron_home):
    _, config = made(idea, tmp_path)
    (habit,) = config["habits"]
    assert (habit["key"], habit["unit"], habit["goal"]) == ("stretching", "times", 1)
    (app,) = (tmp_path / "apps").iterdir()
    labels = json.loads((app / "static" / "i18n" / "app.json").read_text(encoding="utf-8"))
    assert all(words["habit.stretching"] for words in labels.values())  # shown by its name, never "Exercise"


def test_a_name_after_a_tagalog_kin_word_is_the_person_and_the_title_no_list_cut():
    from macaron_cli.reading.fit import idea_title

    idea = "utang ko kay Ate Rose 2,000 at kay Paolo 500"
    assert read(idea).people == ("Rose", "Paolo")
    assert idea_title(idea) == "Utang ko"  # not "Utang ko kay Ate Rose 2" (cut inside a sum)


@pytest.mark.parametrize(
    "idea,title",
    [
        ("pomodoro timer 25 min work 5 min break", "Pomodoro timer"),
        ("ポモドーロタイマー、25分集中と5分休憩", "ポモドーロタイマー"),
        ("뽀모도로 타이머 25분 공부 5분 휴식", "뽀모도로 타이머"),
        ("番茄钟，学习25分钟休息5分钟", "番茄钟"),
        ("meal plan for the week: breakfast, lunch and dinner", "Meal plan for the week"),  # never cut mid-list
        ("英単語の暗記カード作って！表が英語で裏が日本語", "英単語の暗記カード"),
        ("rent, electric and internet split three ways between me, Marco and Lena", "Rent, electric and internet"),
        ("ルームメイトの美咲と光熱費を半分ずつ払ってる", "ルームメイトの美咲と光熱費"),
        ("sino may utang sa akin: si Carlo 1,500, si Bea 800", "Sino may utang sa akin"),
        ("バイトのシフト表、田中さん・佐藤さん・私で回してる", "バイトのシフト表"),  # the people are the app's list
        ("편의점 알바 근무표, 나, 은지, 태호 오전 오후", "편의점 알바 근무표"),
        ("餐厅排班表：小李、小张、小陈，早班晚班", "餐厅排班表"),
        ("我和室友小王、阿杰平摊水电费", "我和室友小王、阿杰平摊水电费"),  # never cut inside the list
        ("countdown to our wedding on June 12 2027!!", "Countdown to our wedding"),  # the day is filled in
        ("娘の誕生日7月20日までのカウントダウン", "娘の誕生日カウントダウン"),
        ("女朋友生日11月2日倒计时", "女朋友生日倒计时"),
    ],
)
def test_a_title_names_what_the_app_is_not_its_settings_or_half_a_list(idea, title):
    from macaron_cli.reading.fit import idea_title

    assert idea_title(idea) == title


def test_money_shared_or_lent_gets_no_budget_nobody_asked_for(tmp_path, macaron_home):
    _, config = made("rent and internet split between me, Marco and Lena", tmp_path)
    assert config["split"] and not config.get("monthly_budget")


def test_kilos_said_win_over_a_person_who_thinks_in_pounds(tmp_path, macaron_home):
    from macaron_cli.maker.brief import Brief
    from macaron_cli.maker.scaffold import make_slug, scaffold

    idea = "weigh-in every Monday, kilos not pounds"
    brief = Brief(idea=idea, language="en", accent="#FF9AA2", app_settings={"units": "imperial", "currency": "USD"})
    template = choose_template(idea)
    app = scaffold(template, brief, make_slug(idea, template.name, tmp_path), tmp_path)
    config = json.loads((app / "config" / "app.json").read_text(encoding="utf-8"))
    assert config["units"] == "metric" and config["habits"][0]["unit"] == "kilogram"


@pytest.mark.parametrize(
    "idea,people",
    [
        ("who takes the trash out this week - me, nina or tom", ["me", "Nina", "Tom"]),
        ("splitting the wifi bill with my flatmates ria and ben", ["Ria", "Ben", "me"]),
        ("utang sa akin ni carlo at si mika", ["Carlo", "Mika"]),
        ("salitan kami ni ate sa paglalaba", ["ate"]),
        ("설거지 당번: 나, 아빠, 누나", ["me", "아빠", "누나"]),
        ("me and him walk the dog on weekends", []),  # a pronoun is nobody's name
    ],
)
def test_names_typed_in_lower_case_are_people_too(idea, people):
    assert set(read(idea).people) == set(people)


def test_a_split_with_roommates_typed_in_lower_case_opens_with_each_of_them(tmp_path, macaron_home):
    template, config = made("share the electric bill with my housemates kat and leo", tmp_path)
    assert template.name == "budget" and template.fit == "good"
    assert {"Kat", "Leo", "me"} <= set(config["people"])


def test_a_run_with_its_distance_said_logs_the_distance_and_the_time(tmp_path, macaron_home):
    _, config = made("gonna start logging every run i do, distance + time", tmp_path)
    units = {h["key"]: h["unit"] for h in config["habits"]}
    assert units == {"running": "kilometer", "run_time": "minute"}


def test_a_goal_said_for_a_thing_no_rule_names_is_its_goal(tmp_path, macaron_home):
    template, config = made("매일 스쿼트 몇 개 했는지, 목표 40개", tmp_path)
    (habit,) = config["habits"]
    assert habit["goal"] == 40 and (template.fit, template.missing) == ("good", [])


@pytest.mark.parametrize(
    "idea,title",
    [
        ("gonna track my swims, laps and time", "Swims, laps and time"),  # the wish left out
        ("whose turn to feed the cat - me, ava or max", "Feed the cat"),  # the people are the app's list
        ("something to see whose turn it is to water the plants - me and jo", "Water the plants"),
        ("keep track of what i read this year, i have like 40 books", "What I read this year"),  # no half clause
        ("i keep forgetting to take my iron pills lol", "Take my iron pills"),
    ],
)
def test_a_title_typed_as_people_type_names_the_thing_not_the_wish(idea, title):
    from macaron_cli.reading.fit import idea_title

    assert idea_title(idea) == title


def test_plants_watered_are_a_collection_with_when_each_was_last_watered(tmp_path, macaron_home):
    template, config = made("which of my plants did i water and when? got a monstera and some ferns", tmp_path)
    assert (template.name, template.fit) == ("collection", "good")
    assert config["item"] == "plant" and config["every"] is True


@pytest.mark.parametrize(
    "idea,people",
    [
        ("아빠랑 나랑 분리수거 당번", ["아빠", "me"]),  # kin beside me is who is meant
        ("我跟老公的做饭轮值表", ["老公", "me"]),
        ("キャンプ代の割り勘：ゆうた、はな、私", ["ゆうた", "はな", "me"]),  # a list after a colon, with me
        ("cooking rota, ollie and me", ["Ollie", "me"]),
        ("who cooks dinner, ollie and me", ["Ollie", "me"]),  # "dinner" begins no list of names
    ],
)
def test_kin_beside_me_and_a_list_with_me_are_the_people(idea, people):
    assert set(read(idea).people) == set(people)


def test_a_limit_said_in_words_is_the_goal():
    assert read("每天喝几杯奶茶，最多两杯").goal == Amount(2, "")


@pytest.mark.parametrize(
    "idea,left_out",
    [
        ("每天喝的咖啡，记下豆子和评分", "a rating"),  # a tracker of cups keeps no score
        ("log my coffee with the beans and a rating", "beans"),  # a detail a list names, shown nowhere
    ],
)
def test_what_a_tracker_cannot_keep_is_named_not_claimed_good(idea, left_out):
    template = choose_template(idea)
    assert template.fit != "good" and left_out in " ".join(template.missing)


@pytest.mark.parametrize("idea", ["i would like to track my water, 2 liters", "我喜欢喝水，每天记录喝了多少"])
def test_liking_something_is_no_rating_left_out(idea):
    assert (choose_template(idea).fit, choose_template(idea).missing) == ("good", [])


def test_names_before_their_sums_after_a_colon_are_the_people():
    assert set(read("빌린 돈 정리: 수아 2만원, 현우 1만원").people) == {"수아", "현우"}
    assert read("毎日の歩数：目標8000歩").people == ()  # one sum after a colon: a goal, nobody's name


@pytest.mark.parametrize(
    "idea,title",
    [
        ("血圧と脈拍を毎朝つける", "血圧と脈拍"),  # how often and the verb in kana: not the name
        ("家計簿を毎月つけたい", "家計簿"),
        ("読んだ本に星をつけて", "読んだ本に星をつけて"),  # giving stars is what the app is for
    ],
)
def test_a_japanese_title_leaves_out_how_often_it_is_kept(idea, title):
    from macaron_cli.reading.fit import idea_title

    assert idea_title(idea) == title


@pytest.mark.parametrize(
    ("text", "currency"),
    [
        ("track my spending in won", "KRW"),
        ("switch to Korean won", "KRW"),
        ("a budget of 500,000 won a month", "KRW"),
        ("가계부 통화를 원으로 바꿔줘", "KRW"),
        ("커피값 5000원 기록", "KRW"),
        ("I won the lottery, track my spending", None),  # the verb, not the currency
        ("공원 산책 기록", None),  # 원 inside a word
    ],
)
def test_won_is_the_currency_beside_an_amount_or_asked_never_the_verb(text, currency):
    from macaron_cli.reading.personal import personal_settings

    assert read(text).currency == currency
    assert (personal_settings("en", [text])["currency"] == "KRW") == (currency == "KRW")
