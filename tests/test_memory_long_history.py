"""A long history searched by a turn of the talk: the person's earlier facts come back, whoever
the turn thanks and however many turns of one session share its words."""

from __future__ import annotations

import contextlib
import io
import json
from datetime import UTC, datetime

import pytest

from macaron_cli.memory import MemoryStore
from macaron_cli.memory.records import CHAT

pytestmark = pytest.mark.embeddings

FACT = "s1-necklace"


def history() -> list[dict]:
    """Caroline tells of her grandma's necklace in the first session; the later sessions are
    Melanie's, full of the same words about other things."""
    turns = [
        (FACT, "2023-05-01T10:00:00+00:00", "Caroline: My grandma gave me this necklace in Sweden when I was a kid."),
        ("s1-reply", "2023-05-01T10:00:00+00:00", "Melanie: That's lovely! You must miss her a lot."),
    ]
    for session, day in ((2, "2023-06-03"), (3, "2023-07-09")):
        for n, said in enumerate(
            (
                "Melanie: Thanks for asking! The kids made me a necklace of beads this morning.",
                "Melanie: My grandma's garden is full of roses this time of year.",
                "Melanie: It means a lot to me that the kids think of me.",
                "Melanie: We took the kids to see grandma last weekend, so special.",
                "Melanie: I painted a lake at sunrise, it means so much to me.",
                "Melanie: Thanks, the support from my family means a lot.",
            )
        ):
            turns.append((f"s{session}-{n}", f"{day}T10:00:00+00:00", said))
    return [{"id": i, "created_at": at, "text": text, "kind": "episode", "source": "import"} for i, at, text in turns]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    # Set up before the autouse fixture of the first test that uses it, perhaps while the test
    # before (of another module, keywords only) still has the model off: it asks for it itself.
    with pytest.MonkeyPatch.context() as env:
        env.delenv("MACARON_EMBEDDINGS", raising=False)
        store = MemoryStore.open(tmp_path_factory.mktemp("history") / "memory")
        store.add_many(history())
    assert store.vectors
    return store


def test_a_turn_that_thanks_someone_still_finds_the_persons_own_earlier_fact(store):
    turn = "Thanks, Melanie! This necklace from my grandma means so much to me, she gave it to me in Sweden."
    found = [h.memory.id for h in store.search(turn, k=5, purpose=CHAT)]
    assert found[0] == FACT  # Melanie is thanked, not asked about: Caroline's own turn counts whole


def test_a_turn_finds_its_fact_among_sessions_that_share_its_words(store):
    found = [
        h.memory.id for h in store.search("Wow, Melanie! My grandma's necklace means a lot to me.", k=3, purpose=CHAT)
    ]
    assert FACT in found
    sessions = {memory_id.split("-")[0] for memory_id in found}
    assert len(sessions) == 3  # one hit of each session, not the last session's turns first


def test_a_turn_that_tells_of_today_shares_no_word_with_memories_of_other_days(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    store.add("Bought a new desk lamp", id="lamp", created_at="2024-06-07T20:00:00+00:00")
    store.add("今天路上有点堵", id="traffic", created_at="2024-08-07T20:00:00+00:00")
    store.add("我在准备考日语N2，报了十二月的考试", id="exam", created_at="2024-07-19T20:00:00+00:00")
    now = datetime(2026, 12, 7, 12, tzinfo=UTC)
    for turn in ("Today I finally ran the whole marathon", "今天背了一百个单词，感觉还是不够"):
        for hit in store.search(turn, k=3, purpose=CHAT, now=now):
            # "today" narrates the turn's day: written as the index writes days ("7 December"),
            # it matched every memory said on a 7th, and in words every one said "today" then.
            assert "bm25" not in hit.parts, (turn, hit.memory.text)
    asked = store.search("what did I buy on June 7?", k=3, now=now)
    assert asked and asked[0].memory.id == "lamp"  # a question about a day still searches it


# Caroline's race and Melanie's, each said with a turn of the other's beside it.
RACES = {
    "own": ("2023-05-01", "Caroline: I ran my first 5K race last spring, slow but so happy."),
    "reply": ("2023-05-01", "Melanie: Wow, that's great!"),
    "theirs": ("2023-06-03", "Melanie: I ran a 5K race with the kids this morning, so much fun!"),
    "thanks": ("2023-06-03", "Caroline: That's awesome, Mel!"),
}


def test_a_turn_that_speaks_to_someone_recalls_its_tellers_own_words_first(tmp_path):
    store = told(tmp_path, RACES)
    turn = "Thanks, Mel! I ran another 5K race this morning, so much fun."
    found = store.search(turn, k=2, purpose=CHAT)
    # Said to Melanie, so not hers: Caroline's own earlier race first, Melanie's kept, after it.
    assert [h.memory.id for h in found] == ["own", "theirs"]
    assert found[1].parts["addressed"] < 1
    asked = store.search("Mel, how was the 5K race with the kids?", k=1, purpose=CHAT)
    assert asked[0].memory.id == "theirs"  # a question to her still finds her own turn


def test_a_turn_that_tells_is_searched_by_all_it_means(tmp_path):
    """Its days are no days asked about, yet part of what it says: "today I learnt a hundred
    words" is nearer the exam being prepared for than "learnt a hundred words" is."""
    said = {
        "migraine": ("2024-01-01", "User: 我有偏头痛，一熬夜第二天就疼得不行"),
        "migraine-reply": ("2024-01-04", "Assistant: 偏头痛真难受，尽量别熬夜。"),
        "mortgage": ("2024-02-19", "User: 每个月房贷八千，压力挺大的"),
        "guitar": ("2024-03-07", "User: 我在学吉他，已经练了三个月，F和弦还是按不响"),
        "running": ("2024-04-16", "User: 我每天早上跑五公里，跑完再去上班"),
        "knee": ("2024-06-07", "User: 我膝盖以前受过伤，不能爬楼梯太多"),
        "grandma": ("2024-06-13", "User: 我奶奶今年九十岁了，耳朵不太好"),
        "exam": ("2024-07-19", "User: 我在准备考日语N2，报了十二月的考试"),
        "coriander": ("2024-07-22", "User: 我不吃香菜，闻到味道都受不了"),
        "dinner": ("2024-07-25", "User: 今天晚饭吃了番茄炒蛋"),
        "chat": ("2024-08-07", "Assistant: 有什么想聊的吗？"),
        "traffic": ("2024-09-16", "User: 今天路上有点堵"),
    }
    store = told(tmp_path, said)
    found = [h.memory.id for h in store.search("今天背了一百个单词，感觉还是不够", k=5, purpose=CHAT)]
    assert "exam" in found


def told(tmp_path, said: dict[str, tuple[str, str]]) -> MemoryStore:
    """A store of a conversation's turns, each {id: (the day it was said, "Speaker: text")}."""
    store = MemoryStore.open(tmp_path / "memory")
    store.add_many(
        {"id": i, "created_at": f"{day}T10:00:00+00:00", "text": text, "kind": "episode", "source": "import"}
        for i, (day, text) in said.items()
    )
    return store


def _chatgpt_export(path, conversations: list[tuple[str, list[str]]]) -> None:
    """A ChatGPT export (conversations.json, its mapping tree): each (day, turns), the person's
    turns and the assistant's in turn, the person's first."""
    exported = []
    for number, (day, turns) in enumerate(conversations):
        start = int(datetime.fromisoformat(f"{day}T10:00:00+00:00").timestamp())
        mapping = {"root": {"id": "root", "message": None, "parent": None, "children": []}}
        parent = "root"
        for n, said in enumerate(turns):
            node = f"c{number}-{n}"
            role = "assistant" if n % 2 else "user"
            content = {"content_type": "text", "parts": [said]}
            message = {"id": node, "author": {"role": role}, "create_time": start + 30 * n, "content": content}
            mapping[node] = {"id": node, "message": message, "parent": parent, "children": []}
            mapping[parent]["children"].append(node)
            parent = node
        exported.append({"id": f"c{number}", "title": f"Chat {number}", "create_time": start, "mapping": mapping})
    path.write_text(json.dumps(exported), encoding="utf-8")


def test_a_turn_recalls_the_persons_own_words_above_the_assistants_replies_that_repeat_them(macaron_home, tmp_path):
    from macaron_cli.memory import commands

    export = tmp_path / "conversations.json"
    _chatgpt_export(
        export,
        [
            (
                "2024-03-02",
                [
                    "We adopted a grey kitten from the shelter last weekend, we named her Miso.",
                    "Congratulations on adopting Miso! A grey kitten from the shelter is a lovely addition. "
                    "Kittens need play, a scratching post for the sofa and a vet visit. Enjoy Miso!",
                ],
            ),
            (
                "2024-04-11",
                [
                    "Can you give me a quick recipe for miso soup?",
                    "Sure: warm the dashi, stir in the miso paste, add tofu and spring onions, never let it boil.",
                ],
            ),
            (
                "2024-05-20",
                [
                    "My sister is visiting next month and I need ideas for the weekend.",
                    "How lovely! A market in the morning, a walk by the river, dinner somewhere new.",
                ],
            ),
        ],
    )
    with contextlib.redirect_stdout(io.StringIO()):
        commands.import_file(export)
    store = MemoryStore.open(macaron_home / "memory")
    turn = "Miso scratched the sofa again this morning, the little grey monster"
    found = store.search(turn, k=3, purpose=CHAT)
    # The person tells it: what they said of Miso comes back first, not the reply that repeats it
    # with more of the turn's words (the reply stays, said to them).
    assert found[0].memory.meta["speaker"] == "me", [h.memory.text for h in found]
    assert "adopted a grey kitten" in found[0].memory.text
    reply = next(h for h in found if h.memory.meta["speaker"] != "me")
    assert reply.parts["addressed"] < 1


def test_a_turn_told_by_one_speaker_of_a_transcript_recalls_their_own_turns_first(tmp_path):
    other_things = {
        "painting": ("2023-05-01", "Caroline: I'm painting a sunset over the lake this week."),
        "school": ("2023-06-03", "Melanie: The kids started at a new school today."),
    }
    store = told(tmp_path, {**RACES, **other_things})
    turn = "I ran another 5K race this morning, so much fun."
    # Each speaker may be the person (bench/long_history.py): Caroline's turn recalls her race.
    assert [h.memory.id for h in store.search(turn, k=2, purpose=CHAT, teller="Caroline")] == ["own", "theirs"]
    assert [h.memory.id for h in store.search(turn, k=2, purpose=CHAT, teller="Melanie")] == ["theirs", "own"]
