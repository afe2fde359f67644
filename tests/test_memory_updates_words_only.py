"""The current truth by words alone (MACARON_EMBEDDINGS=off): an update that shares no word
with the question ("I moved to Tokyo, not in Osaka anymore" for "where do I live?") is found
by the words of the fact it updates, answers first, and the older fact stays as history."""

from __future__ import annotations

from tests.test_memory_updates import _import


def test_an_update_sharing_no_word_with_the_question_answers_it(macaron, tmp_path):
    osaka, tokyo = "I live in Osaka, near the castle", "I moved to Tokyo last month, not in Osaka anymore"
    days = (
        ("m_osaka", osaka, "2024-03-01"),
        ("m_tea", "I like green tea", "2024-03-02"),
        ("m_tokyo", tokyo, "2024-04-20"),
    )
    _import(macaron, tmp_path, [{"id": i, "text": text, "created_at": f"{day}T09:00:00Z"} for i, text, day in days])
    found = macaron("memory", "search", "where do I live")
    assert found.returncode == 0, found.stderr
    ids = [line.split()[0] for line in found.stdout.splitlines() if line.startswith("m_")]
    assert ids == ["m_tokyo"] and "--all shows it" in found.stdout, found.stdout
    # "I live in Osaka" holds "live": left out as history, it still is a memory that holds a word.
    assert "No memory holds a word" not in found.stdout, found.stdout
    assert "1 related for “where do I live”." in found.stdout, found.stdout

    history = macaron("memory", "search", "where do I live", "--all")
    assert "replaced by m_tokyo: I moved to Tokyo" in history.stdout, history.stdout


def test_the_notebook_friend_recalls_the_update_by_words_alone(macaron_home):
    """The friend with no model and no meaning searched: "where do I live" recalls the move, not
    "I live in Osaka" alone."""
    from macaron_cli import privacy
    from macaron_cli.config import Settings
    from macaron_cli.friend.recall import recall
    from macaron_cli.memory import MemoryStore

    store = MemoryStore.open()
    assert not store.vectors
    store.add("I live in Osaka, near the castle", id="m_osaka", created_at="2024-03-01T09:00:00+00:00")
    store.add("I moved to Tokyo last month, not in Osaka anymore", id="m_tokyo", created_at="2024-04-20T09:00:00+00:00")
    found = [
        h.memory.id for h in recall(store, "where do I live", privacy.claude(Settings(), "https://api.anthropic.com"))
    ]
    assert found[0] == "m_tokyo" and "m_osaka" not in found, found
    assert store.get("m_osaka").text == "I live in Osaka, near the castle"  # history, kept
