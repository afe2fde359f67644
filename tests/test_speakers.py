"""Who said it: a question about one person finds what that person said, not what was said to them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from macaron_cli.memory import MemoryStore
from macaron_cli.memory.speakers import named_speaker, speaker_of, without_name


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
        ("what did caroline paint?", None),  # names are written as the transcript writes them
    ],
)
def test_the_speaker_a_question_names(question, named):
    assert named_speaker(question, {"Caroline", "Melanie"}) == named


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
