"""Who said it: a question about one person finds what that person said, not what was said to them."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from macaron_cli.memory import MemoryStore
from macaron_cli.memory.speakers import addressed_in, named_speaker, speaker_of, without_name


@pytest.mark.parametrize(
    "line, speaker",
    [
        ("Caroline: I went to the support group yesterday.", "Caroline"),
        ("Mary Ann: we should meet up", "Mary Ann"),
        ("김민수: 오늘 수영 갔어", "김민수"),
        ("  Jon: hey", "Jon"),
        ("the plan: buy milk", None),  # not a name
        ("10:30 dentist", None),
        ("See https://example.org for the recipe", None),
        ("Caroline:no space after the colon", None),
        ("I told Caroline: never again", None),
        ("A Very Long Name With Many Words: hi", None),
    ],
)
def test_the_speaker_of_a_transcript_line(line, speaker):
    assert speaker_of(line) == speaker


@pytest.mark.parametrize(
    "question, named",
    [
        ("What did Caroline paint?", "Caroline"),
        ("What do Melanie's kids like?", "Melanie"),
        ("When did Caroline and Melanie go to the festival?", None),  # both: favour neither
        ("What did we paint?", None),
        ("what did caroline paint?", "Caroline"),  # typed without capitals
        ("What did Mel paint?", "Melanie"),  # a nickname
        ("Did Carol paint?", "Caroline"),
        ("What did Melaine paint?", "Melanie"),  # misspelt by two letters swapped
        ("What did Carolien paint?", "Caroline"),
        ("What did Caroline and mel paint?", "Caroline"),  # "mel" is no name in a capitalised question
    ],
)
def test_the_speaker_a_question_names(question, named):
    assert named_speaker(question, {"Caroline", "Melanie"}) == named


@pytest.mark.parametrize(
    "question, speakers",
    [
        ("Can you paint?", {"Candice"}),  # the first word is capitalised anyway
        ("What did Jo paint?", {"Joanna"}),  # too short to be her nickname
        ("What did Alex paint?", {"Alan"}),  # one letter off only counts for names of five or more
        ("What did Jenny paint?", {"Jennifer", "Jenna"}),  # either of them
    ],
)
def test_a_word_that_only_looks_like_a_name_names_nobody(question, speakers):
    assert named_speaker(question, speakers) is None


def test_a_common_word_is_no_name_in_a_question_that_writes_names_with_capitals():
    assert named_speaker("What will Mark paint?", {"Will", "Mark"}) == "Mark"


def test_a_nickname_with_its_ending_names_the_speaker():
    assert named_speaker("What did Jenny say?", {"Jennifer W", "Mark"}) == "Jennifer W"
    assert named_speaker("What did Katie bake?", {"Katherine", "Mark"}) == "Katherine"


def test_a_line_of_a_conversation_file_names_its_speaker_in_any_case():
    assert speaker_of("caroline: hi") is None  # in a memory's text alone, it may be a note
    assert speaker_of("caroline: hi", any_case=True) == "caroline"
    assert speaker_of("mom: dinner at 7?", any_case=True) == "mom"
    assert speaker_of("10:30 dentist", any_case=True) is None


def test_the_name_is_left_out_of_the_question_searched_by_meaning():
    assert without_name("What did Caroline paint?", "Caroline") == "What did paint?"
    assert without_name("What do Melanie's kids like?", "Melanie") == "What do kids like?"
    assert without_name("When did Mary Ann move?", "Mary Ann") == "When did move?"
    assert without_name("Caroline?", "Caroline") == "Caroline?"  # nothing else to search by


CONVERSATION = [
    ("t1", "Caroline: Melanie, I painted the lake at sunrise this morning, look at the colours!"),
    ("t2", "Melanie: Lovely! Mine was a painting of the lake last year, at sunrise too."),
    ("t3", "Caroline: We should paint together at the lake some day, Melanie."),
    ("t4", "Melanie: Yes! The kids would love to come along."),
]


@pytest.mark.parametrize("embeddings", [False, pytest.param(True, marks=pytest.mark.embeddings)])
def test_a_question_about_one_speaker_finds_what_they_said_first(tmp_path, embeddings):
    store = MemoryStore.open(tmp_path / "memory")
    store.add_many({"id": i, "text": text, "kind": "episode", "source": "import"} for i, text in CONVERSATION)

    hits = store.search("What did Melanie paint at the lake?", k=3)

    assert hits[0].memory.id == "t2"
    others = [h for h in hits if h.memory.text.startswith("Caroline:")]
    assert others and all(h.parts["speaker"] < 1 for h in others)  # `why` says why they count less


def test_a_chat_exported_with_lower_case_names_finds_what_each_said(macaron, macaron_home, tmp_path):
    chat = tmp_path / "chat.txt"
    chat.write_text("\n".join(text.lower() for _, text in CONVERSATION) + "\n")
    assert macaron("memory", "import", chat).returncode == 0

    found = macaron("memory", "search", "What did Melanie paint at the lake?", "--json")
    hits = json.loads(found.stdout)
    assert hits[0]["text"].startswith("melanie: lovely! mine was a painting")
    assert all(h["parts"]["speaker"] < 1 for h in hits if h["text"].startswith("caroline:"))


def test_a_speaker_is_found_by_the_name_they_sign_with(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    store.add_many(
        {"id": i, "text": text, "kind": "episode", "source": "import", "meta": {"speaker": text.split(":")[0]}}
        for i, text in [
            ("m1", "mom: I planted tomatoes in the garden today - Linda"),
            ("s1", "Sam: I planted roses in the garden, mom."),
            ("m2", "mom: The garden needs rain. Love, Linda"),
        ]
    )
    hits = store.search("What did Linda plant in the garden?", k=3)
    assert hits[0].memory.id == "m1"
    assert next(h for h in hits if h.memory.id == "s1").parts["speaker"] < 1


def test_memories_that_are_not_turns_are_never_held_back(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    store.add_many(
        [
            {"id": "fact", "text": "Melanie paints the lake every summer.", "kind": "fact"},
            {"id": "turn", "text": "Caroline: I painted the lake, Melanie!", "kind": "episode"},
            {"id": "hers", "text": "Melanie: thanks!", "kind": "episode"},
        ]
    )

    hits = {h.memory.id: h for h in store.search("What does Melanie paint?", k=3)}

    assert "speaker" not in hits["fact"].parts
    assert hits["turn"].parts["speaker"] < 1


@given(st.text(max_size=80), st.text(max_size=80))
def test_any_line_and_question_are_taken_in_stride(line, question):
    speaker = speaker_of(line + ": " + question)
    if speaker is not None:
        assert (line + ": ").lstrip().startswith(speaker + ":")
        rest = without_name(question + " " + speaker, speaker)
        assert isinstance(rest, str) and rest.strip()
    assert named_speaker(question, {speaker} if speaker else set()) in (speaker, None)


@pytest.mark.parametrize(
    "turn",
    [
        "Thanks, Melanie! My grandma gave me this necklace.",
        "Wow Caroline, that's a gorgeous painting!",
        "Caroline, so glad you got the support!",
        "I appreciate our friendship too, Caroline.",
    ],
)
def test_a_name_that_addresses_someone_names_nobody_the_turn_is_about(turn):
    assert named_speaker(turn, {"Caroline", "Melanie"}) is None
    assert len(addressed_in(turn, {"Caroline", "Melanie"})) == 1


def test_a_question_about_someone_still_names_them():
    assert named_speaker("What did Caroline paint, and when?", {"Caroline", "Melanie"}) == "Caroline"
    assert addressed_in("What did Caroline paint?", {"Caroline", "Melanie"}) == []
