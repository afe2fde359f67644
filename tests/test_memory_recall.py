"""Recall as people ask: dates in five languages, the answer before the question beside it."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime

import pytest

from macaron_cli.memory import MemoryStore
from macaron_cli.memory.chatter import without_chatter
from macaron_cli.memory.turns import asking_share, asks
from macaron_cli.reading.when import time_spans

NOW = datetime(2026, 6, 10, 20, 0, tzinfo=UTC)  # a Wednesday


@pytest.mark.parametrize(
    "question, day",
    [
        ("What did I eat on May 1st?", date(2026, 5, 1)),
        ("what happened on the 1st of May, 2023", date(2023, 5, 1)),
        ("What was dinner on the 20th?", date(2026, 5, 20)),  # June 20 has not come yet
        ("What did I have last Tuesday?", date(2026, 6, 2)),  # Tuesday of last week
        ("Who did I see on Friday?", date(2026, 6, 5)),  # the latest Friday
        ("What did I do yesterday?", date(2026, 6, 9)),
        ("3 days ago", date(2026, 6, 7)),
        ("two days ago", date(2026, 6, 8)),  # a number in words is that number, not one more
        ("one day ago", date(2026, 6, 9)),
        ("5月1日の夕飯は？", date(2026, 5, 1)),
        ("五月二十日は何を食べた？", date(2026, 5, 20)),
        ("先週の金曜の夜は？", date(2026, 6, 5)),
        ("5월 1일 저녁에 뭐 먹었지?", date(2026, 5, 1)),
        ("지난주 화요일 저녁은?", date(2026, 6, 2)),
        ("5月1号晚饭吃了什么？", date(2026, 5, 1)),
        ("上周二晚上吃了什么？", date(2026, 6, 2)),
        ("Ano ang kinain ko noong Mayo 1?", date(2026, 5, 1)),
        ("noong ika-20 ng Mayo", date(2026, 5, 20)),
        ("Ano ang kinain ko noong nakaraang Martes?", date(2026, 6, 2)),
    ],
)
def test_a_date_as_people_write_it_becomes_that_day(question, day):
    when = time_spans(question, NOW)
    assert [(s.start, (s.end - s.start).days) for s in when.spans] == [(day, 1)]
    assert when.spans[0].said not in when.rest


@pytest.mark.parametrize(
    "question, days",
    [
        # Year first is always year, month, day; the month comes first in ja/ko/zh/tl.
        ("What did I eat on 2024/1/10?", [date(2024, 1, 10)]),
        ("2024.01.10에 뭐 먹었어?", [date(2024, 1, 10)]),
        ("1/10に何を食べた？", [date(2026, 1, 10)]),
        ("1/10我吃了什么？", [date(2026, 1, 10)]),
        ("Ano ang kinain ko noong 1/10/2024?", [date(2024, 1, 10)]),
        # English is written both ways: both days, the one nearer to now first.
        ("what did we do on 10.01.2024", [date(2024, 10, 1), date(2024, 1, 10)]),
        ("dinner on 10-01-24?", [date(2024, 10, 1), date(2024, 1, 10)]),
        ("what happened 1/10", [date(2026, 1, 10), date(2025, 10, 1)]),
        ("the party on 13/01/2024", [date(2024, 1, 13)]),  # no 13th month: one reading
        ("12/25/2025 gifts", [date(2025, 12, 25)]),
    ],
)
def test_a_date_in_numbers_is_read_in_the_languages_order(question, days):
    when = time_spans(question, NOW)
    assert [(s.start, (s.end - s.start).days) for s in when.spans] == [(day, 1) for day in days]
    assert not any(ch.isdigit() for ch in when.rest)


@pytest.mark.parametrize("question", ["Add 1/2 cup of milk", "rated it 8/10 stars", "open 24/7", "v1.2.3 at 10.30"])
def test_numbers_that_are_no_date_stay_as_they_are(question):
    assert time_spans(question, NOW).spans == ()


@pytest.mark.parametrize("question", ["what do I do on Saturdays?", "I work remotely on Mondays and Fridays now"])
def test_a_weekday_in_the_plural_is_a_habit_not_a_day(question):
    """Read as the latest Saturday, "what do I do on Saturdays?" found nothing at all."""
    when = time_spans(question, NOW)
    assert when.spans == () and when.rest == question


DINNERS = [
    ("05-01", "Me", "Dinner was grilled salmon at home.", "salmon"),
    ("06-02", "Me", "Dinner was dumplings.", "dumplings"),
]


def test_a_question_with_a_date_in_numbers_finds_what_was_said_that_day(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    _history(store, DINNERS)
    assert store.search("What was dinner on 2/6/2026?", k=2, now=NOW)[0].memory.id == "dumplings"
    assert store.search("5/1の夕飯は？ dinner", k=2, now=NOW)[0].memory.id == "salmon"


@pytest.mark.parametrize("question", ["May I ask you something?", "How tall is my sister?", "magkano ang linggo"])
def test_no_date_is_read_into_a_question_without_one(question):
    when = time_spans(question, NOW)
    assert when.spans == () and when.rest == question


def test_last_week_and_last_month_are_ranges():
    assert [(s.start, s.end) for s in time_spans("what did I cook last week", NOW).spans] == [
        (date(2026, 6, 1), date(2026, 6, 8))
    ]
    assert [(s.start, s.end) for s in time_spans("지난달", NOW).spans] == [(date(2026, 5, 1), date(2026, 6, 1))]


def test_a_turn_that_only_asks_is_told_from_one_that_states():
    assert asks("Macaron: How tall is your sister?") and asks("マカロン: 今日の夕飯は何だった？")
    assert asks("Caroline: Wow, that's awesome! What pet do you have?")
    assert not asks("Me: Mina is 152cm. How tall are you?")
    assert not asks("Me: Mina is 152cm, the shortest in our family.")


def test_the_share_of_a_turn_that_asks_is_measured_in_any_script():
    assert asking_share("Me: Mina is 152cm, the shortest in our family.") == 0.0
    assert asking_share("Macaron: How tall is your sister?") == 1.0
    assert 0.3 < asking_share("Me: Mina is 152cm. How tall are you?") < 0.7
    assert 0.3 < asking_share("マカロン: いい一週間でよかったね！何で元気が出る？") < 0.7
    assert 0.3 < asking_share("마카롱: 좋은 한 주였네! 뭐가 힘이 돼?") < 0.7
    # A request that tells something first asks only in its last clause.
    assert 0.3 < asking_share("Me: I just adopted a beagle puppy, what food should I buy for him?") < 0.6
    assert 0.3 < asking_share("我: 我刚搬到上海，周末有什么好玩的地方吗？") < 0.7


def _history(store, turns):
    """Turns of a chat, one session per day: (day, speaker, text, id)."""
    store.add_many(
        {
            "id": memory_id,
            "text": f"{speaker}: {text}",
            "kind": "episode",
            "created_at": f"2026-{day}T19:30:00+00:00",
            "meta": {"session": day},
        }
        for day, speaker, text, memory_id in turns
    )


def test_a_dated_question_finds_what_was_said_that_day_first(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    _history(
        store,
        [
            (day, speaker, text, f"{day}-{n}")
            for day, dinner in [("04-28", "pad thai"), ("05-01", "grilled salmon"), ("06-02", "dumplings")]
            for n, (speaker, text) in enumerate(
                [("Macaron", "What did you have for dinner?"), ("Me", f"Dinner was {dinner} at home.")]
            )
        ],
    )
    first = store.search("What did I eat for dinner on May 1st?", k=3, now=NOW)[0]
    assert first.memory.id == "05-01-1" and first.parts["date"] > 1.0
    that_day = store.search("What did I do last Tuesday?", k=3, now=NOW)  # no word matches: the day does
    assert {h.memory.id for h in that_day} == {"06-02-0", "06-02-1"}
    undated = store.search("What did I have for dinner?", k=3, now=NOW)
    assert all("date" not in h.parts for h in undated)


def test_the_answer_comes_before_the_question_beside_it(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    _history(
        store,
        [
            ("05-01", "Macaron", "How tall is your sister?", "asked"),
            ("05-01", "Me", "Mina is 152cm, the shortest in our family.", "told"),
            ("05-02", "Me", "My sister moved to Osaka for work.", "moved"),
        ],
    )
    hits = store.search("how tall is my sister?", k=3, now=NOW)
    assert [h.memory.id for h in hits][:2] == ["told", "asked"]
    assert "answer" in hits[0].parts and hits[1].parts["question"] < 1.0


@pytest.mark.parametrize(
    "turns, question, answer",
    [
        (  # the asker goes on before the reply
            [
                ("Macaron", "How tall is your sister?", "asked"),
                ("Macaron", "I remember she plays basketball at school.", "between"),
                ("Me", "Mina is 152cm, the shortest in our family.", "told"),
            ],
            "how tall is my sister?",
            "told",
        ),
        (  # crossed questions, and an aside before the reply
            [
                ("Macaron", "How was the trip to Rome?", "trip"),
                ("Me", "What are you reading lately?", "reading"),
                ("Macaron", "A novel about lighthouses.", "novel"),
                ("Me", "Oh nice!", "nice"),
                ("Me", "Rome was wonderful, we walked everywhere.", "rome"),
            ],
            "How was the trip to Rome?",
            "rome",
        ),
    ],
)
def test_a_reply_answers_its_question_with_other_messages_between(tmp_path, turns, question, answer):
    store = MemoryStore.open(tmp_path / "memory")
    _history(store, [("05-01", speaker, text, memory_id) for speaker, text, memory_id in turns])
    hits = store.search(question, k=3, now=NOW)
    assert hits[0].memory.id == answer and "answer" in hits[0].parts


@pytest.mark.parametrize(
    "question",
    ["6월 14일에 뭐 했다고 했지?", "6月14号我做了什么？", "6月14日に何をしたって言った？", "What did I do on June 14?"],
)
def test_a_date_is_searched_for_as_a_day_not_as_its_digits(tmp_path, question):
    # The birthday's text shares "6월", "일" and a 1 with the question; the glasses were got that day.
    store = MemoryStore.open(tmp_path / "memory")
    _history(
        store,
        [
            ("06-02", "Me", "엄마 생신이 6월 15일이야. 6月15号是妈妈的生日。", "birthday"),
            ("06-02", "Me", "일주일에 두 번 필라테스 가.", "pilates"),
            ("06-08", "Me", "카페인 때문에 잠을 못 자.", "coffee"),
            ("06-14", "Me", "안경을 새로 맞췄어. 新眼镜。", "glasses"),
        ],
    )
    assert store.search(question, k=3, now=NOW)[0].memory.id == "glasses"


def test_turns_stamped_a_minute_apart_are_still_one_exchange(tmp_path):
    # A chat export stamps every message: the reply still answers the question before it.
    store = MemoryStore.open(tmp_path / "memory")
    turns = [
        ("asked", "09:00", "Macaron: 제주도 좋다! 어디 가보고 싶어?"),
        ("told", "09:01", "Me: 성산일출봉이랑 우도에 꼭 가보고 싶어."),
        ("later", "11:30", "Me: 판교 쪽으로 이사 가고 싶어."),
    ]
    store.add_many(
        {"id": i, "text": t, "kind": "episode", "created_at": f"2026-05-10T{at}:00+00:00"} for i, at, t in turns
    )
    hits = store.search("제주도에서 가고 싶은 곳이 어디라고 했지?", k=3, now=NOW)
    assert [h.memory.id for h in hits][:2] == ["told", "asked"]
    later = [h for h in hits if h.memory.id == "later"]  # hours after: an exchange of its own
    assert hits[0].parts["neighbour"] > 0 and all("neighbour" not in h.parts for h in later)


@pytest.mark.embeddings
def test_a_fact_comes_before_a_remark_that_asks_about_it(tmp_path):
    # The companion's remark shares every word with the question, but what it says about
    # them is a question; the person's own turn, days before, is what answers it.
    store = MemoryStore.open(tmp_path / "memory")
    _history(
        store,
        [
            ("05-01", "Me", "My turtles always cheer me up when work gets stressful.", "told"),
            ("05-03", "Macaron", "Glad the week went well! What cheers you up when work gets stressful?", "asked"),
            ("05-05", "Me", "I booked the dentist for Friday.", "dentist"),
        ],
    )
    hits = store.search("What cheers me up when work is stressful?", k=3, now=NOW)
    assert [h.memory.id for h in hits][:2] == ["told", "asked"]
    assert "asking" not in hits[0].parts and hits[1].parts["asking"] > 0.5


@pytest.mark.parametrize(
    "chatty, question",
    [
        ("Hey! Lovely sunny day today, huh... anyway, um, how tall is my sister again?", "how tall is my sister"),
        ("いやー、今日はいい天気ですね。ところで、えーと、妹の身長っていくつだっけ？", "妹の身長っていくつだっけ？"),
        ("아 오늘 날씨 진짜 좋다~ 그런데 있잖아, 여동생 키가 몇이었지?", "여동생 키가 몇이었지?"),
        ("哎呀，今天天气真好…那个身高是152cm的人，工作地是什么？", "身高是152cm的人，工作地是什么？"),
        ("Uy, ang init ngayon ha! Teka, gaano katangkad ang kapatid ko?", "gaano katangkad ang kapatid ko?"),
    ],
)
def test_small_talk_is_not_searched_for(chatty, question):
    assert without_chatter(chatty).startswith(question)


@pytest.mark.parametrize(
    "plain", ["Hello", "What is the weather app I use?", "아빠 생신", "In Osaka, where did I stay?"]
)
def test_a_question_without_small_talk_is_searched_as_asked(plain):
    assert without_chatter(plain) == plain


def test_a_chatty_question_finds_its_answer_and_not_today(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    _history(
        store,
        [
            ("05-01", "Macaron", "How tall is your sister?", "asked"),
            ("05-01", "Me", "Mina is 152cm, the shortest in our family.", "told"),
            ("06-10", "Me", "What a lovely sunny day today, the weather is great.", "weather"),
        ],
    )
    hits = store.search("Hey! Lovely sunny day today, huh... anyway, um, how tall is my sister again?", k=3, now=NOW)
    assert hits[0].memory.id == "told" and "weather" not in [h.memory.id for h in hits]


@pytest.mark.embeddings
def test_a_search_for_one_word_narrows_to_the_memory_holding_it(macaron):
    for text in (
        "Quokkabrew is the coffee shop I like near the office",
        "My sister Mina lives in Osaka",
        "I prefer tea over coffee in the evening",
        "私はカフェインが苦手",
        "Gusto ko ang adobo ng lola ko",
        "My landlord raised the rent",
    ):
        assert macaron("memory", "add", text).returncode == 0
    found = macaron("memory", "search", "Quokkabrew", "--json")
    assert [h["text"] for h in json.loads(found.stdout)] == ["Quokkabrew is the coffee shop I like near the office"]
    nothing = macaron("memory", "search", "Zyxwvquor")
    assert nothing.returncode == 0, nothing.stderr
    assert nothing.stdout.startswith("No memory holds a word of “Zyxwvquor”"), nothing.stdout
    # A question that shares no word with its answer still finds it by meaning.
    paraphrase = json.loads(macaron("memory", "search", "Who is my sibling?", "--json").stdout)
    assert paraphrase and paraphrase[0]["text"] == "My sister Mina lives in Osaka"


@pytest.mark.parametrize(
    "written, asked",
    [
        ("Mina is 152cm, the shortest in our family.", "Who is 152 centimeters tall?"),
        ("我妹妹身高152厘米，是家里最矮的。", "谁身高152cm？"),
        ("川沿いを5キロ走った。", "5km走ったのはいつ？"),
        ("I ran a 5k along the river before work.", "When did I run 5 km?"),
        ("A fountain pen, it was $40.", "What cost 40 dollars?"),
        ("My landlord raised the rent to 1,200 dollars.", "What is $1200 a month?"),
        ("만년필 샀어, 40000원.", "4만 원짜리 선물이 뭐였지?"),
        ("Bumili ako ng pluma, ₱2,000 ang presyo.", "Ano ang binili ko na 2000 piso?"),
    ],
)
def test_a_number_asked_in_one_form_finds_it_written_in_another(tmp_path, written, asked):
    store = MemoryStore.open(tmp_path / "memory")
    store.add_many([{"id": "it", "text": written}] + [{"text": f"errand {i}: 3 stamps, 2 apples"} for i in range(20)])
    assert [h.memory.id for h in store.search(asked, k=1)] == ["it"]


@pytest.mark.parametrize(
    "written, asked",
    [
        ("시장에서 떡 한 상자 샀어.", "떡을 어디서 샀지?"),
        ("요즘 술 완전히 끊었어.", "술을 아직 마셔?"),
        ("猫を飼い始めた。名前はモチ。", "猫の名前は？"),
    ],
)
def test_a_short_noun_is_found_with_a_particle_attached(tmp_path, written, asked):
    store = MemoryStore.open(tmp_path / "memory")
    store.add_many([{"id": "it", "text": written}] + [{"text": f"errand {i}: post office"} for i in range(20)])
    assert [h.memory.id for h in store.search(asked, k=1)] == ["it"]


def test_a_store_indexed_before_units_is_reindexed_with_them(tmp_path):
    from macaron_cli.memory.schema import MIGRATIONS_TABLE

    store = MemoryStore.open(tmp_path / "memory")
    store.add("My sister is 152厘米 tall", id="it")
    store._db.open_table(MIGRATIONS_TABLE).delete("name = '006_numbers_with_units'")
    store.table.update(where="id = 'it'", values={"search_text": "My sister is 152 厘米 厘 米 tall"})
    assert MemoryStore.open(tmp_path / "memory").search("152cm", k=1)[0].memory.id == "it"


WORRIES = [
    ("exam", "I have my driving test next Friday and I'm nervous about parallel parking"),
    ("sister", "My sister Mina lives in Osaka"),
    ("tea", "I prefer tea over coffee in the evening"),
    ("boss", "My boss said my last report was sloppy and I felt awful all week"),
    ("dog", "Our dog Pepper loves the beach"),
    ("rent", "My landlord raised the rent"),
]


@pytest.mark.embeddings
def test_a_chat_turn_with_no_rare_word_still_gets_the_nearest_memories(tmp_path):
    """A person's turn in a chat is no keyword search: the friend (and an agent) always gets
    the nearest memories by meaning, up to k, below any that shares a word with it; a person's
    search of a word no memory holds still finds nothing."""
    from macaron_cli import privacy
    from macaron_cli.config import load_settings
    from macaron_cli.friend.recall import RecallRecord, recall, why_sentences

    store = MemoryStore.open(tmp_path / "memory")
    store.add_many({"id": i, "text": t} for i, t in WORRIES)
    turn = "do you really think so? I'm still worried about it"

    destination = privacy.claude(load_settings())
    cleared = recall(store, turn, destination, k=4)
    recalled = list(cleared)
    assert len(recalled) == 4
    assert all(h.parts["floor"] == 0 for h in recalled if "nearest" in h.parts)
    _lead, details = why_sentences(RecallRecord(turn, destination, cleared))  # /why says which rule let them in
    nearest = sum(h.parts["floor"] == 0 for h in recalled)
    assert f"≈ {nearest} nearest in meaning: chat and the browser" in " ".join(details)
    assert store.search("Zyxwvquor", k=4) == []
    # Anything that shares a word ranks above what is only near in meaning.
    shared = list(recall(store, "is the beach still worrying me", destination, k=4))
    assert shared[0].memory.id == "dog" and shared[0].parts["floor"] == 1
    assert len(shared) == 4 and all(h.parts["floor"] == 0 for h in shared[1:] if "nearest" in h.parts)


BROADER = [
    ("chores1", "Me: I did the washing up after dinner and then hoovered the living room."),
    ("pet", "Me: Pepper, our beagle, chewed my slippers again."),
    ("sister", "Me: My sister Mina called from Osaka last night."),
    ("garden", "Me: I grew tomatoes, courgettes and spinach on the balcony this year."),
    ("cello", "Me: I've been practising the cello every evening."),
    ("bike", "Me: My bike got a flat tyre on the way to the office."),
    ("fever", "Me: I had a fever and a sore throat all weekend."),
    ("sofa", "Me: We bought a new sofa and a bookshelf at IKEA."),
    ("rain", "Me: It poured all day and the garden flooded."),
    ("tea", "Me: I've switched from coffee to green tea in the mornings."),
    ("novel", "Me: I finished 'The Remains of the Day' on the train."),
    ("d1", "Me: Work was busy, lots of meetings about the budget."),
    ("d2", "Me: I watched a documentary about volcanoes."),
    ("d3", "Me: The train was late again this morning."),
]


@pytest.mark.embeddings
def test_a_general_word_finds_the_specific_thing_the_history_names(tmp_path, macaron_home):
    """ "relative" is in no memory ("sister" is), while "lives" matches the living room: the
    question's words no memory holds are searched by meaning on their own."""
    store = MemoryStore.open(tmp_path / "memory")
    store.add_many({"id": i, "text": t, "kind": "episode"} for i, t in BROADER)
    assert store.search("Which relative lives in Japan?", k=5)[0].memory.id == "sister"
