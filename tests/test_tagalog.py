"""Tagalog in keyword search: the forms of one verb find each other; English is left alone."""

from __future__ import annotations

import pytest

from macaron_cli.memory import MemoryStore
from macaron_cli.memory.tagalog import root
from macaron_cli.memory.text import query_form, search_form
from macaron_cli.reading.text import detect_language
from tests.support.older_stores import as_before

ROOTS = [
    ("nagsasayaw", "sayaw"),  # nag- + reduplication
    ("sumasayaw", "sayaw"),  # -um- + reduplication
    ("sasayaw", "sayaw"),  # reduplication alone (will dance)
    ("kumakain", "kain"),
    ("kinain", "kain"),  # -in-
    ("kakain", "kain"),
    ("pagkain", "kain"),
    ("nagtatrabaho", "trabaho"),  # the reduplicated syllable of a cluster: ta-trabaho
    ("nagbabayad", "bayad"),
    ("nakatira", "tira"),
    ("nagbasa", "basa"),
    ("basahin", "basa"),  # -hin after a vowel
    ("pinuntahan", "punta"),  # -in- and -han
    ("binabayaran", "bayad"),  # -in-, reduplication, -an, and d turned r before it
    ("umuwi", "uwi"),  # um- before a vowel
    ("uuwi", "uwi"),
    ("nag-aaral", "aral"),  # hyphen before a vowel-initial root
    ("natulog", "tulog"),
    ("ibinigay", "bigay"),
    ("niluto", "luto"),
    ("nakakatuwa", "tuwa"),
    ("panggabi", "gabi"),
]
# Words that only look affixed keep their letters: loanwords, plain roots, small words.
KEPT = [
    "magnet",
    "summer",
    "finish",  # f is no Tagalog consonant: not f-in-ish
    "paborito",
    "pamilya",
    "lalaki",
    "pangalan",
    "magulang",
    "isda",
    "hangin",
    "hardin",
    "minsan",
    "linggo",
    "nanay",
    "mahal",
    "inom",
    "umaga",
    "pangako",  # not ako
    "magkano",  # not kano
    "kain",
]


@pytest.mark.parametrize("word, expected", ROOTS)
def test_a_conjugated_word_gives_its_root(word, expected):
    assert root(word) == expected
    assert root(word.capitalize()) == expected


@pytest.mark.parametrize("word", KEPT)
def test_a_word_that_only_looks_affixed_is_kept(word):
    assert root(word) == word


TAGALOG = [
    "Anong araw ako nagsasayaw?",
    "Saan nakatira si Lola?",
    "Kailan ako nagbabayad ng credit card?",
    "Ano ang paborito kong ulam?",
    "Saan ako nagtatrabaho bilang engineer?",
    "Kumain ka na ba?",
    "Sumasayaw ako ng Zumba tuwing Miyerkules.",
    "Nurse ako sa isang ospital sa Maynila, panggabi ang shift ko.",
]
ENGLISH = [
    "May I ask Ka Na about it?",
    "I met Ito and Ang at the Mo bar in May.",
    "Ako Ito is my friend from Tokyo.",
    "We climbed Kinabalu in the summer and I lost a magnet.",
    "Kung fu class may be on Tuesday, said Lang.",
    "Sino is a name, not a word.",
    "Is shrimp OK for me?",
    "The cat sat on the mat.",
]


@pytest.mark.parametrize("text", TAGALOG)
def test_tagalog_is_detected_from_one_or_two_small_words(text):
    assert detect_language(text) == "tl"


@pytest.mark.parametrize("text", ENGLISH)
def test_english_with_tagalog_looking_names_stays_english_and_unstemmed(text):
    assert detect_language(text) == "en"
    assert search_form(text) == text
    assert query_form(text) == text


def test_tagalog_text_keeps_each_word_and_adds_its_root_and_english():
    assert search_form("Sumasayaw ako ng Zumba tuwing Miyerkules.") == (
        "Sumasayaw sayaw dance ako ng Zumba tuwing every Miyerkules Wednesday."
    )
    # A question leaves out the small words (anong, ako): they would only favour Tagalog memories.
    assert query_form("Anong araw ako nagsasayaw?") == "araw day sun nagsasayaw sayaw dance?"
    # A memory the person marked Tagalog is stemmed even where its words say little.
    assert search_form("Nagbasa ng Harry Potter", "tl") == "Nagbasa basa read ng Harry Potter"


TOLD = {
    "dance": "Sumasayaw ako ng tango tuwing Sabado.",
    "rent": "Nagbabayad ako ng upa tuwing katapusan ng buwan.",
    "dinner": "Kumain kami ng lechon kagabi.",
    "grandma": "Ang lola ko ay nakatira sa Iloilo.",
    "note": "Bumili ako ng tinapay pauwi.",
    "english": "I dance salsa with my sister on Fridays.",
}
# Each question shares no word with its memory but the verb, in another form.
ASKED = [
    ("Kailan ka nagsasayaw?", "dance"),  # nag-sa-sayaw asks about s-um-a-sayaw
    ("Magkano binabayaran mo?", "rent"),  # b-in-a-bayad-an asks about nag-ba-bayad
    ("Ano ang kinain ninyo?", "dinner"),  # k-in-ain asks about k-um-ain
]


@pytest.mark.parametrize("question, expected", ASKED)
def test_a_tagalog_question_finds_the_memory_told_with_another_form_of_its_verb(tmp_path, question, expected):
    store = MemoryStore.open(tmp_path / "memory")
    store.add_many({"id": key, "text": text} for key, text in TOLD.items())
    found = [h.memory.id for h in store.search(question, k=3)]
    assert expected in found, found


def test_a_store_indexed_before_the_roots_finds_by_them_once_reopened(tmp_path):
    """A store written before Tagalog roots were indexed is re-indexed when it is opened."""
    path = tmp_path / "memory"
    store = MemoryStore.open(path)
    store.add_many({"id": key, "text": text} for key, text in TOLD.items())
    # Make it what an older macaron wrote: words without roots, the last migration not run.
    as_before(store, "dance", TOLD["dance"], "004_tagalog_roots")
    assert "dance" not in [h.memory.id for h in store.search("Kailan ka nagsasayaw?", k=3)]

    reopened = MemoryStore.open(path)
    assert [h.memory.id for h in reopened.search("Kailan ka nagsasayaw?", k=3)][:1] == ["dance"]
