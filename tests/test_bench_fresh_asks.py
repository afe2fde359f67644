"""bench/fresh_asks.json, the fresh ideas and change requests judged by the page, is whole:
every language has its share, every row its hand labels, a third of each kept untuned."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "bench" / "fresh_asks.json"
LANGS = {"en", "ja", "ko", "zh", "tl"}


def corpus() -> dict:
    return json.loads(CORPUS.read_text(encoding="utf-8"))


def test_every_language_has_its_ideas_and_changes():
    data = corpus()
    ideas, changes = Counter(r["lang"] for r in data["ideas"]), Counter(r["lang"] for r in data["changes"])
    assert set(ideas) == set(changes) == LANGS
    assert min(ideas.values()) >= 22 and sum(ideas.values()) >= 110
    assert min(changes.values()) >= 13 and sum(changes.values()) >= 65


def test_every_idea_is_labelled_and_about_half_fall_short():
    ideas = corpus()["ideas"]
    for row in ideas:
        assert row["text"].strip() and row["asks"] and all(a.strip() for a in row["asks"]), row
        assert row["servable"] in ("full", "short"), row
        assert bool(row.get("short_because")) == (row["servable"] == "short"), row
    for lang in LANGS:
        some = [r for r in ideas if r["lang"] == lang]
        short = sum(r["servable"] == "short" for r in some)
        assert 0.4 <= short / len(some) <= 0.6, lang


def test_every_change_says_what_the_page_must_show():
    changes = corpus()["changes"]
    for row in changes:
        assert row["app_idea"].strip() and row["text"].strip(), row
        assert isinstance(row["doable"], bool), row
        assert bool(row["shows"]) == row["doable"], row  # a doable change is seen; an undoable one has nothing to see
    assert 0.35 <= sum(not r["doable"] for r in changes) / len(changes) <= 0.6


def test_a_third_of_each_language_is_never_tuned_on():
    data = corpus()
    rows = data["ideas"] + data["changes"]
    assert len({r["id"] for r in rows}) == len(rows)
    assert {r["split"] for r in rows} == {"dev", "untuned"}
    for kind in ("ideas", "changes"):
        for lang in LANGS:
            some = [r for r in data[kind] if r["lang"] == lang]
            assert 0.3 <= sum(r["split"] == "untuned" for r in some) / len(some) <= 0.4, (kind, lang)


def test_the_page_is_read_as_a_person_reads_it():
    """The bench judges a change by the page's text and fields, numbers by their value."""
    from bench.fresh_asks import page_text, shown

    page = page_text(
        '<html><head><title>Budget</title><script>var x = "1200"</script></head><body><main>'
        '<p>$1,200.00 left of $1,200.00</p><input placeholder="Coffee"><p>Focus 45:00</p></main></body></html>'
    )
    assert "var x" not in page  # a script is not on the page
    assert shown("1200", page) and shown("45", page) and shown("coffee", page)
    assert not shown("120", page) and not shown("Budget", page)  # the tab's title is not the page
