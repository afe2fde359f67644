"""score_parts: the one rule every view lists and heads a search's results by (the browser,
`macaron memory search`), checked on hits in an order a ranking change could give them."""

from __future__ import annotations

from macaron_cli.memory import Memory
from macaron_cli.memory.records import Hit
from macaron_cli.memory.retrievers import WORD_LISTS
from macaron_cli.memory.score_parts import headline, in_view_order, ranks, why_here


def hit(memory_id: str, *, words: bool = False, nearest: bool = False) -> Hit:
    """A hit as retrieval writes it: a word list's part when it holds a word of the search,
    the floor part 0 when it is there only as nearest in meaning."""
    parts = {WORD_LISTS[0]: 1.0 if words else 0.0, "relevance": 0.5, "floor": 0.0 if nearest else 1.0}
    return Hit(Memory.from_dict({"id": memory_id, "text": f"{memory_id} text"}), 0.5, parts)


def test_the_nearest_in_meaning_come_after_the_matches_however_they_were_scored():
    hits = [hit("near1", nearest=True), hit("match", words=True), hit("near2", nearest=True), hit("related")]
    listed = in_view_order(hits)
    assert [h.memory.id for h in listed] == ["match", "related", "near1", "near2"]
    assert ranks(listed) == ["1", "2", "≈1", "≈2"]
    assert headline("Hakodate", listed) == "1 match · 1 related · ≈ 2 nearest in meaning for “Hakodate”"


def test_with_no_memory_holding_a_word_the_headline_says_so_first():
    only_near = [hit("near1", nearest=True), hit("near2", nearest=True)]
    assert headline("Zyxwvquor", only_near) == "No memory holds a word of “Zyxwvquor” · ≈ 2 nearest in meaning"
    assert headline("Zyxwvquor", [hit("related")]) == "No memory holds a word of “Zyxwvquor” · 1 related"
    assert headline("Zyxwvquor", []).startswith("Nothing found for “Zyxwvquor”")
    assert why_here("Zyxwvquor", only_near[0]).startswith("Kept only as nearest in meaning: it holds no word")
