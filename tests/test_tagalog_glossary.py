"""The Tagalog glossary: a fact told in Tagalog is found by a question in English, and the reverse.

The multilingual model knows no Tagalog and English shares no words with it; the glossary
(memory/tagalog_glossary.tsv) bridges both, by words and by meaning. English is never glossed.
"""

from __future__ import annotations

import json

import pytest

from macaron_cli.memory import MemoryStore
from macaron_cli.memory.tagalog import glossary
from macaron_cli.memory.text import meaning_form, query_form, search_form
from macaron_cli.reading.text import detect_language
from tests.support.older_stores import as_before
from tests.test_tagalog import ENGLISH

TAGALOG = {
    "rent": "Nagbabayad ako ng upa ng bahay tuwing katapusan ng buwan.",
    "grandma": "Ang lola ko ay nakatira sa Iloilo.",
    "dinner": "Kumain kami ng lechon kagabi.",
    "cat": "May alaga akong pusa na si Muning.",
    "seafood": "Allergic ako sa hipon at alimango.",
}
ENGLISH_FACTS = {
    "parrot": "Our parrot Kiwi says good morning in three languages.",
    "job": "I started a new job as a nurse at the city hospital.",
    "shoes": "I bought new running shoes yesterday.",
    "weather": "The weather was cold and rainy all week.",
    "movie": "We watched a movie about space on Friday.",
    "meeting": "Our team meeting moved to Thursday.",
}
# English questions that share no word with the Tagalog facts, only with their glosses.
ASKED_IN_ENGLISH = [
    ("When do I pay the rent?", "rent"),
    ("Where does my grandmother live?", "grandma"),
    ("What did we eat last night?", "dinner"),
    ("Do I have a cat?", "cat"),
]
# Tagalog questions about facts told in English.
ASKED_IN_TAGALOG = [
    ("Ano ang pangalan ng loro namin?", "parrot"),  # What is our parrot's name?
    ("Saan ako nagtatrabaho?", "job"),  # Where do I work?
    ("Anong sapatos ang binili ko?", "shoes"),  # Which shoes did I buy?
]


def _store(path) -> MemoryStore:
    store = MemoryStore.open(path)
    store.add_many({"id": key, "text": text} for key, text in {**TAGALOG, **ENGLISH_FACTS}.items())
    return store


@pytest.mark.parametrize("question, expected", ASKED_IN_ENGLISH)
def test_a_tagalog_fact_is_found_by_an_english_question_by_words_alone(tmp_path, question, expected):
    store = _store(tmp_path / "memory")
    assert not store.vectors
    assert [h.memory.id for h in store.search(question, k=3)][:1] == [expected]


@pytest.mark.parametrize("question, expected", ASKED_IN_TAGALOG)
def test_an_english_fact_is_found_by_a_tagalog_question_by_words_alone(tmp_path, question, expected):
    found = [h.memory.id for h in _store(tmp_path / "memory").search(question, k=3)]
    assert found[:1] == [expected], found  # not a Tagalog memory that shares only ang, ng, ko


@pytest.mark.embeddings
def test_a_tagalog_fact_is_found_by_meaning_where_no_word_or_gloss_matches(tmp_path):
    store = _store(tmp_path / "memory")
    assert store.vectors
    question = "Which seafood can't I eat?"  # hipon (shrimp) and alimango (crab) are seafood
    assert "seafood" not in [h.memory.id for h in store.search(question, k=3, vectors=False)]
    assert "seafood" in [h.memory.id for h in store.search(question, k=3)]


@pytest.mark.embeddings
def test_a_tagalog_question_finds_an_english_fact_with_vectors(tmp_path):
    store = _store(tmp_path / "memory")
    for question, expected in ASKED_IN_TAGALOG:
        assert [h.memory.id for h in store.search(question, k=3)][:1] == [expected], question


@pytest.mark.parametrize("text", [*ENGLISH, *ENGLISH_FACTS.values()])
def test_english_is_never_glossed(text):
    assert detect_language(text) == "en"
    assert search_form(text) == text and query_form(text) == text
    assert meaning_form(text) == text


def test_the_model_reads_a_tagalog_text_with_its_english_after_it():
    told = TAGALOG["rent"]
    assert meaning_form(told) == f"{told} (pay rent house home every end month moon)"
    assert meaning_form("Hello Muning", "tl") == "Hello Muning"  # nothing to gloss: the text itself
    # Forms of one verb and a word before its linker get the gloss of the root.
    assert "eat" in meaning_form("Kumakain ako ng kanin.") and "rice" in meaning_form("Kumakain ako ng kanin.")
    assert "beautiful" in meaning_form("Ang magandang bahay ko.")


def test_the_glossary_leaves_out_the_small_words_and_keeps_glosses_short():
    table = glossary()
    assert len(table) >= 500
    assert not {"ang", "ng", "sa", "ay", "mga", "ako", "ko", "na", "si", "ni", "kita", "baka"} & table.keys()
    assert all(key == key.lower() and 1 <= len(english.split()) <= 2 for key, english in table.items())


def test_the_installed_macaron_finds_tagalog_by_an_english_question(macaron):
    """Through the CLI: in CI that is the installed package, so the glossary must ship in it."""
    for text in [TAGALOG["rent"], ENGLISH_FACTS["shoes"], ENGLISH_FACTS["weather"]]:
        added = macaron("memory", "add", text)
        assert added.returncode == 0, added.stderr
    found = macaron("memory", "search", "When do I pay the rent?", "--json")
    assert found.returncode == 0, found.stderr
    assert [h["text"] for h in json.loads(found.stdout)][:1] == [TAGALOG["rent"]]


def test_a_store_indexed_before_the_glossary_finds_by_it_once_reopened(tmp_path):
    path = tmp_path / "memory"
    store = _store(path)
    # Make it what an older macaron wrote: Tagalog words without their English.
    as_before(store, "rent", TAGALOG["rent"], "005_tagalog_glossary")
    assert "rent" not in [h.memory.id for h in store.search("When do I pay the rent?", k=3)]

    reopened = MemoryStore.open(path)
    assert [h.memory.id for h in reopened.search("When do I pay the rent?", k=3)][:1] == ["rent"]


@pytest.mark.embeddings
def test_tagalog_memories_embedded_before_the_glossary_are_embedded_again_with_it(tmp_path, monkeypatch):
    import numpy as np

    from macaron_cli.memory import embeddings, reembed

    # Re-embedded here, not by a process in the background; and the once-per-process note
    # that search goes by words is this test's own.
    monkeypatch.setattr(reembed, "start_in_background", lambda store: False)
    monkeypatch.setattr(reembed, "_noted", False)
    path = tmp_path / "memory"
    store = _store(path)
    # An older macaron embedded the Tagalog text alone.
    old = [float(x) for x in embeddings.embed([TAGALOG["rent"]])[0]]
    store._table.update(where="id = 'rent'", values={"vector": old})
    store._db.open_table("migrations").delete("name = '005_tagalog_glossary'")

    reopened = MemoryStore.open(path)
    assert not reopened.vectors_complete()  # search goes by words meanwhile
    assert [h.memory.id for h in reopened.search("When do I pay the rent?", k=3)][:1] == ["rent"]
    assert reembed.run(reopened) == len(TAGALOG)  # the Tagalog memories, and only they
    rows = {r["id"]: r["vector"] for r in reopened._table.search().select(["id", "vector"]).limit(None).to_list()}
    expected = embeddings.embed([meaning_form(TAGALOG["rent"])])[0]
    assert float(np.dot(rows["rent"], expected)) > 0.9999
    assert reopened.vectors_complete()
