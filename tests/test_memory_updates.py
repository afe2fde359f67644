"""The current truth: a fact the person updated ("we moved to Kyoto") answers before the one it
replaced ("I live in Osaka"), which stays as history, marked with what replaced it."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.embeddings  # "where do I live" shares no word with "we moved to Kyoto"

HISTORIES = {
    "en": ("I live in Osaka, near the station", "we moved to Kyoto last month, still unpacking", "where do I live"),
    "ja": ("大阪に住んでいます、駅の近く", "先月京都に引っ越しました", "今どこに住んでる？"),
    "zh": ("我住在上海，浦东那边", "我们上个月搬到杭州了", "我现在住在哪里"),
}


def _import(macaron, tmp_path, records: list[dict]) -> None:
    src = tmp_path / "history.jsonl"
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\n", encoding="utf-8")
    assert macaron("memory", "import", src).returncode == 0


def _history(macaron, tmp_path, language: str) -> str:
    older, newer, query = HISTORIES[language]
    _import(
        macaron,
        tmp_path,
        [
            {"id": "m_old", "text": older, "created_at": "2024-03-01T09:00:00Z"},
            {"id": "m_tea", "text": "I like green tea in the morning", "created_at": "2024-03-02T09:00:00Z"},
            {"id": "m_new", "text": newer, "created_at": "2024-04-20T09:00:00Z"},
        ],
    )
    return query


@pytest.mark.parametrize("language", HISTORIES)
def test_the_newer_fact_answers_and_the_older_is_history(macaron, tmp_path, language):
    query = _history(macaron, tmp_path, language)
    found = macaron("memory", "search", query)
    assert found.returncode == 0, found.stderr
    lines = found.stdout.splitlines()
    assert lines[0].startswith("m_new "), found.stdout
    assert not any(line.startswith("m_old") for line in lines) and "--all shows it" in found.stdout

    history = macaron("memory", "search", query, "--all")
    ids = [line.split()[0] for line in history.stdout.splitlines() if line.startswith("m_")]
    assert ids[0] == "m_new" and "m_old" in ids, history.stdout
    assert f"replaced by m_new: {HISTORIES[language][1]}" in history.stdout

    why = macaron("why", "m_old")
    assert why.returncode == 0, why.stderr
    assert "replaced by m_new" in why.stdout and "kept as history" in why.stdout


# Each kind of update, found missed on bench/current_truth.py's tuned part: (older, newer, question).
KINDS = {
    # the newer stops a word of the older ("quit the hospital"), asked by the older's slot (work)
    "stops what the older named": (
        "I work as a nurse at St. Mary's hospital, night shifts mostly",
        "quit the hospital!! starting as a school nurse at Riverside Elementary on monday",
        "what's my job",
    ),
    # one slot in other words: "wake up" and "get up"
    "the same slot in other words": (
        "I wake up at 7am on weekdays",
        "new routine: I get up at 5:30 now to run before work",
        "what time do i wake up",
    ),
    # a value moved away from ("moved all my money from Chase")
    "moved from the older value": (
        "I bank with Chase, checking and savings",
        "moved all my money from Chase to a credit union, Chase fees were ridiculous",
        "which bank do i use",
    ),
    # a newer number of the same unit
    "a newer value of one measure": (
        "I weigh 82 kg right now, trying to get under 80",
        "I'm 76 kg now!! lost 6 kilos since the spring",
        "how much do i weigh",
    ),
    # a habit of a weekday, asked in the plural
    "a habit of one weekday": (
        "on saturdays I volunteer at the animal shelter",
        "I don't volunteer at the shelter anymore, saturdays are for my pottery class now",
        "what do i do on saturdays",
    ),
    # sold: what one had, one has no more
    "sold, in Chinese": ("我开的是一辆大众朗逸", "朗逸卖了，现在开比亚迪汉", "我开什么车"),
    # found missed on the second set's tuned part (bench/data/current-truth-second.json):
    # a partner one split up with
    "split up": (
        "my boyfriend Jake is a chef",
        "Jake and I split up in march. I'm with Priya now, she's a teacher",
        "what's my partner's name",
    ),
    # a job changed in Chinese (跳槽, 入职) and Korean (퇴사, 이직)
    "a job changed, in Chinese": ("我在阿里巴巴上班", "我跳槽到字节了，上周入职", "我在哪家公司"),
    "a job changed, in Korean": ("나 삼성에서 일해", "삼성 퇴사하고 네이버로 이직했어", "나 어디서 일해?"),
    # a price gone up, in Korean (올랐어)
    "a rent gone up, in Korean": ("월세 50만원이야", "월세가 60만원으로 올랐어", "월세 얼마야?"),
    # a rent, a diet, an address: slots of their own
    "a rent gone up, in Chinese": ("房租每月3000块", "房东涨价了，现在房租每月3500", "房租多少钱"),
    "a diet given up": (
        "I've been vegan for two years now",
        "went back to eating meat, the plant-based thing wasn't working for my energy",
        "am I still vegan?",
    ),
    # a trip booked, then cancelled
    "a trip cancelled": (
        "booked flights to Rome for June, so excited",
        "we cancelled Rome, my passport won't arrive in time",
        "is the Rome trip still on?",
    ),
    # the question's slot (a gym) said by the newer, of an older that named the gym alone
    "the asked slot, of an older of no slot": (
        "駅前のエニタイムに週3で通ってる",
        "エニタイム解約して、今はヨガスタジオに通ってる",
        "どこのジムに通ってる？",
    ),
    # found missed on the tuned parts of the three sets (bench/data/current-truth-third.json):
    # a relative named by relation and name, then by the name alone
    "a relative named, then by name alone": (
        "my sister jess lives in denver",
        "jess moved to portland last month for her new job",
        "where does my sister live",
    ),
    # a number said again without the older's unit
    "a number said again without its unit": (
        "weighed in at 190 lbs this morning",
        "down to 176 now!!",
        "how much do i weigh",
    ),
    "a number said again without its unit, in Chinese": ("现在体重70公斤", "减到63了！", "我体重多少"),
    # short words: a name of three letters, "gf"
    "a short name": ("si Bea ang girlfriend ko", "wala na kami ni Bea, si Carla na ngayon", "sino gf ko"),
    # a noun of one letter: 朝 (Japanese), 술 (Korean)
    "a one-letter noun, in Japanese": (
        "朝はいつもパン",
        "最近は朝ごはんをご飯と味噌汁に変えた",
        "朝ごはん何食べてる？",
    ),
    "a one-letter noun, in Korean": ("나 주말마다 술 마셔", "술 끊었어, 벌써 한 달째", "술 마셔?"),
    # a Tagalog verb made of the older's noun (nagkakape, of kape)
    "a Tagalog verb of the older's noun": (
        "tatlong kape ako araw-araw",
        "hindi na ako nagkakape, tsaa na lang",
        "nagkakape pa ba ako",
    ),
    # a question of a name (名前は holds 前は, "before", and still asks for now)
    "a question of a name, in Japanese": (
        "彼氏はたけし、付き合って半年",
        "たけしとは別れた。今はゆうとと付き合ってる",
        "彼氏の名前は？",
    ),
    # instead of, an account closed, a laptop died, hired
    "instead of, in Korean": ("주말마다 등산 가", "요즘 주말엔 등산 대신 수영 다녀", "주말에 뭐 해?"),
    "an account closed": (
        "i bank with chase",
        "closed my chase account, everything's at ally now",
        "which bank do i use",
    ),
    "a laptop that died": (
        "typing this on my old thinkpad",
        "thinkpad finally died, bought a macbook air",
        "what laptop do i have",
    ),
    "hired elsewhere": (
        "im a barista at blue bottle rn",
        "got hired as a dental assistant!! last day at the cafe was friday",
        "whats my job",
    ),
    # the verb stopped with nothing after it: all that it did
    "a habit stopped whole": (
        "I drink a beer every night",
        "I don't drink anymore, 3 months sober",
        "do I drink beer?",
    ),
}


def _said_weeks_apart(macaron, tmp_path, older: str, newer: str) -> None:
    """The person's older fact (m_old), a turn about something else, weeks later the newer (m_new)."""
    _import(
        macaron,
        tmp_path,
        [
            {"id": "m_old", "text": f"User: {older}", "created_at": "2024-03-01T09:00:00Z"},
            {"id": "m_tea", "text": "User: I like green tea in the morning", "created_at": "2024-03-02T09:00:00Z"},
            {"id": "m_new", "text": f"User: {newer}", "created_at": "2024-04-20T09:00:00Z"},
        ],
    )


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_update_answers_first(macaron, tmp_path, kind):
    older, newer, query = KINDS[kind]
    _said_weeks_apart(macaron, tmp_path, older, newer)
    found = macaron("memory", "search", query, "--all")
    assert found.returncode == 0, found.stderr
    ids = [line.split()[0] for line in found.stdout.splitlines() if line.startswith("m_")]
    assert ids[0] == "m_new" and "replaced by m_new" in found.stdout, found.stdout


def test_the_reply_to_an_update_is_no_update(macaron, tmp_path):
    """The assistant's "congrats on the new job!" echoes the person's update: the update answers
    first, not the echo lifted by the assistant's old reply it would replace."""
    turns = [
        ("m_old", "User: 我在阿里巴巴上班", "2024-03-01T09:00:00Z"),
        ("m_old_reply", "Assistant: 阿里巴巴的工作节奏应该挺快的。", "2024-03-01T09:01:00Z"),
        ("m_tea", "User: 今天中午吃了饺子", "2024-03-02T09:00:00Z"),
        ("m_new", "User: 我跳槽到字节了，上周入职", "2024-04-20T09:00:00Z"),
        ("m_new_reply", "Assistant: 恭喜入职！", "2024-04-20T09:01:00Z"),
    ]
    _import(
        macaron,
        tmp_path,
        [
            {"id": i, "text": t, "created_at": at, "kind": "episode", "meta": {"speaker": t.split(":")[0]}}
            for i, t, at in turns
        ],
    )
    found = macaron("memory", "search", "我在哪家公司", "--all")
    ids = [line.split()[0] for line in found.stdout.splitlines() if line.startswith("m_")]
    assert ids[0] == "m_new" and "replaced by m_new" in found.stdout, found.stdout


def test_someone_elses_move_replaces_nothing_of_mine(macaron, tmp_path):
    _import(
        macaron,
        tmp_path,
        [
            {"id": "m_mine", "text": "I live in Osaka, near the station", "created_at": "2024-03-01T09:00:00Z"},
            {"id": "m_sis", "text": "my sister moved to Austin last month", "created_at": "2024-04-20T09:00:00Z"},
        ],
    )
    found = macaron("memory", "search", "where do I live", "--all")
    assert "replaced by" not in found.stdout and "m_mine" in found.stdout, found.stdout
    assert "replaced by" not in macaron("why", "m_mine").stdout


# A later memory that says a change of something else replaces nothing: (older, newer, question).
NOT_UPDATES = {
    # a part or a side of the older's thing changed: the thing itself stays
    "a part changed, in Japanese": ("車はフィットに乗ってる", "フィットのタイヤ新しいのに変えた", "車なに乗ってる？"),
    "a part changed, in Chinese": ("我开的是一辆宝马", "宝马换了新轮胎", "我开什么车"),
    "a side changed": (
        "i go to planet fitness on elm st",
        "planet fitness changed their hours, open till 11 now",
        "whats my gym",
    ),
    # the same verb (飲む), of another thing: a verb's one-kanji stem is no thing
    "another thing of the same verb, in Japanese": ("毎晩ビール飲んでる", "もう牛乳は飲まない", "ビール飲む？"),
    "another thing of the same verb": ("I drink a beer every night", "I don't drink milk anymore", "do I drink beer?"),
    # a story of a long chat: its "new parks" and "joined a dog owners group" change nothing of
    # the dog (LoCoMo's turns were marked replaced so, and the friend, who hears only the
    # current truth, lost them)
    "a long message's new, of something else": (
        "My dog loves running around the park. But one thing he hates is snow. I took him out "
        "last winter and he refused to move.",
        "That's cool! I love checking out new parks with my four pups. Last weekend was so fun, they "
        "ran around all day. On top of that, I recently joined a dog owners group. Can't wait for the "
        "first meetup!",
        "what does my dog love?",
    ),
    # "any more" asked says no change
    "a question's any more": (
        "I make pancakes with butter every sunday",
        "that recipe you sent was perfect, the kids loved it. got any more pancake ideas?",
        "do I make pancakes?",
    ),
}


@pytest.mark.parametrize("kind", NOT_UPDATES)
def test_a_change_of_something_else_replaces_nothing(macaron, tmp_path, kind):
    older, newer, query = NOT_UPDATES[kind]
    _said_weeks_apart(macaron, tmp_path, older, newer)
    found = macaron("memory", "search", query)
    assert "m_old" in found.stdout and "--all shows it" not in found.stdout, found.stdout
    assert "replaced by" not in macaron("why", "m_old").stdout


def test_the_browser_says_what_replaced_an_older_fact(tmp_path):
    from macaron_cli.memory import MemoryStore
    from tests.test_tui import detail, drive, goto

    path = tmp_path / "memory"
    older, newer, _ = HISTORIES["en"]
    store = MemoryStore.open(path)
    store.add(older, id="m_old", created_at="2024-03-01T09:00:00+00:00")
    store.add(newer, id="m_new", created_at="2024-04-20T09:00:00+00:00")

    async def scenario(pilot, app):
        await goto(pilot, app, "m_old")
        assert "replaced by  m_new" in detail(app), detail(app)
        await goto(pilot, app, "m_new")
        assert "replaced by" not in detail(app)

    drive(path, scenario)


def test_the_browser_list_marks_the_fact_a_newer_one_replaced(tmp_path):
    from macaron_cli.memory import MemoryStore
    from macaron_cli.tui.app import REPLACED_MARK
    from tests.test_tui import drive, settle, type_text

    path = tmp_path / "memory"
    older, newer, query = HISTORIES["en"]
    store = MemoryStore.open(path)
    store.add(older, id="m_old", created_at="2024-03-01T09:00:00+00:00")
    store.add("I like green tea in the morning", id="m_tea", created_at="2024-03-02T09:00:00+00:00")
    store.add(newer, id="m_new", created_at="2024-04-20T09:00:00+00:00")

    def marked(app) -> dict[str, bool]:
        cells = (app.table.get_row_at(i)[1].plain for i in range(app.table.row_count))
        return {row.memory.id: cell.startswith(REPLACED_MARK) for row, cell in zip(app.page.rows, cells, strict=True)}

    async def scenario(pilot, app):
        assert marked(app) == {"m_new": False, "m_tea": False, "m_old": True}  # the list, newest first
        await pilot.press("slash")
        await type_text(pilot, query)
        await settle(pilot)
        shown = marked(app)
        assert shown["m_new"] is False and shown["m_old"] is True, shown  # found by a search: still history

    drive(path, scenario)


def test_the_friend_recalls_where_the_person_lives_now(macaron_home):
    from macaron_cli import privacy
    from macaron_cli.config import Settings
    from macaron_cli.friend.recall import recall
    from macaron_cli.memory import MemoryStore

    store = MemoryStore.open()
    older, newer, _ = HISTORIES["ja"]
    store.add(older, id="m_old", created_at="2024-03-01T09:00:00+00:00")
    store.add("Assistant: 大阪は食べ物が美味しいですよね。", id="m_reply", created_at="2024-03-01T09:01:00+00:00")
    store.add(newer, id="m_new", created_at="2024-04-20T09:00:00+00:00")
    found = [
        h.memory.id
        for h in recall(store, "今どこに住んでる？", privacy.claude(Settings(), "https://api.anthropic.com"))
    ]
    assert found[0] == "m_new" and "m_old" not in found, found
    assert store.get("m_old").text == older  # history, kept
