"""The parts a search score is made of, in the person's words: what the memory browser's
"Why this result" and chat's /why say about a hit. Read from the search's own declaration
(memory/retrieval.py's PARTS: each retriever, reranker and factor declares the parts it
writes), so a new signal is explained where it is declared.

Also the one home of the words every view uses for why a hit is there (the browser's status,
rank column and details, `macaron memory search`, chat's /why): a *match* holds a word of the
search (or was said on the day it names); a *related* memory passed the relevance floor
without one (close in meaning, said beside a match); a memory kept only as *nearest in
meaning* did not pass the floor, and is there because a chat turn always gets the closest
memories, below the others (retrieval.py's floor by purpose). The browser ranks as chat does,
so it lists them, marked ≈; `macaron memory search` is a lookup and lists them when asked
(--nearest) or when nothing else is found. Every view orders its rows by `split` (those kept
only as nearest after the others) and heads them with `headline`, so a search says the same
sentence wherever it is read. tests/test_one_definition.py fails on those words written elsewhere."""

from __future__ import annotations

from collections.abc import Iterable

from macaron_cli.memory.records import Hit
from macaron_cli.memory.retrieval import PARTS
from macaron_cli.memory.retrievers import WORD_LISTS
from macaron_cli.reading.text import in_common

# What each part of a search score means, in the person's words.
PART_MEANING = {part.name: part.meaning for part in PARTS}
NEAREST_ONLY = "among the nearest in meaning; it shares no word with what was said"
# Parts on a 0–1 scale get a bar; multipliers and importance are shown as numbers.
BOUNDED_PARTS = {part.name for part in PARTS if part.bounded}
# The parts that say why a memory was found at all (the strongest leads /why's sentence).
REASONS = {part.name for part in PARTS if part.reason}

# How a hit got there, each a count of its own: what a person reads in every view.
MATCH, RELATED, NEAREST = "match", "related", "nearest in meaning"
NEAREST_MARK = "≈"  # before a rank or a row kept only as nearest in meaning
# Why the browser (and chat) list more than `memory search` does, said where they differ.
FLOOR_RULE = (
    "chat and the browser (which ranks as chat does) also list the memories nearest in meaning"
    " below the matches, marked ≈; `macaron memory search --nearest` shows them too"
)
NOTHING_FOUND = "Nothing found for “{}”: no memory shares its words or is clearly close in meaning."
# Over the nearest in meaning when no memory holds a word of the search: the same line in every view.
NO_WORD_HELD = "No memory holds a word of “{}”"


def leading_reason(parts: dict[str, float]) -> str | None:
    """The strongest reason of a hit's score, said in words ("words in common"); for a hit a
    chat turn kept only as nearest in meaning (retrieval's floor by purpose), that rule."""
    if parts.get("floor") == 0:
        return NEAREST_ONLY
    found = [(value, name) for name, value in parts.items() if name in REASONS]
    if not found or max(found)[0] <= 0:
        return None
    return PART_MEANING[max(found)[1]]


def found_as(hit: Hit) -> str:
    """MATCH, RELATED or NEAREST: which rule let the hit in."""
    if hit.parts.get("floor") == 0:
        return NEAREST
    return MATCH if any(hit.parts.get(name, 0.0) > 0 for name in WORD_LISTS) else RELATED


def split(hits: Iterable[Hit]) -> tuple[list[Hit], list[Hit]]:
    """The hits every view lists first (matches and related, in the search's order), and those
    kept only as nearest in meaning, which come after them however they were scored."""
    found: list[Hit] = []
    nearest: list[Hit] = []
    for hit in hits:
        (nearest if found_as(hit) == NEAREST else found).append(hit)
    return found, nearest


def in_view_order(hits: Iterable[Hit]) -> list[Hit]:
    """The hits as every view lists them: `split`'s two parts, one after the other."""
    found, nearest = split(hits)
    return found + nearest


def replaced_left_out(n: int) -> str:
    """The line under a search that leaves history out (memory/updates.py `current`)."""
    what = "older memory that a newer one replaced" if n == 1 else "older memories that newer ones replaced"
    return f"{n} {what} left out"


def headline(query: str, hits: Iterable[Hit], left_out: Iterable[Hit] = ()) -> str:
    """The one line over a search's results, the same in the browser and `memory search`:
    "1 match · ≈ 49 nearest in meaning for “Hakodate”"; where no memory holds a word of the
    search, that first: "No memory holds a word of “Zyxwvquor” · ≈ 50 nearest in meaning".
    `left_out`: the hits found but not shown (the history a newer memory replaced): a match
    among them is a memory that holds a word, said or not."""
    matches, others = _counts(hits)
    if matches:
        return " · ".join([matches, *others]) + f" for “{query}”"
    if others and any(found_as(hit) == MATCH for hit in left_out):
        return " · ".join(others) + f" for “{query}”"
    if others:
        return " · ".join([NO_WORD_HELD.format(query), *others])
    return NOTHING_FOUND.format(query).removesuffix(".")


def counted(hits: Iterable[Hit]) -> str:
    """The hits counted by how each got there: "1 match · ≈ 49 nearest in meaning"."""
    matches, others = _counts(hits)
    return " · ".join([matches or f"no {MATCH}", *others])


def _counts(hits: Iterable[Hit]) -> tuple[str, list[str]]:
    """The matches counted ("" for none), then the related and the nearest, each counted apart."""
    kinds = [found_as(hit) for hit in hits]
    matches, related, nearest = (kinds.count(kind) for kind in (MATCH, RELATED, NEAREST))
    others = [f"{related} {RELATED}"] if related else []
    if nearest:
        others.append(f"{NEAREST_MARK} {nearest} {NEAREST}")
    return (f"{matches} {MATCH}{'es' if matches != 1 else ''}" if matches else ""), others


def ranks(hits: Iterable[Hit]) -> list[str]:
    """Each hit's rank as shown: the matches and related counted 1, 2, …; those kept only as
    nearest in meaning counted apart, ≈1, ≈2, … (listed after the others: in_view_order)."""
    shown, counts = [], {False: 0, True: 0}
    for hit in hits:
        nearest = found_as(hit) == NEAREST
        counts[nearest] += 1
        shown.append(f"{NEAREST_MARK if nearest else ''}{counts[nearest]}")
    return shown


def why_here(query: str, hit: Hit) -> str:
    """One sentence: why this hit is among the results of `query`."""
    kind = found_as(hit)
    if kind == NEAREST:
        return (
            f"Kept only as {NEAREST}: it holds no word of your search and is not clearly close to it,"
            f" so it is listed after any {MATCH}."
        )
    shared = in_common(query, hit.memory.text)
    if kind == MATCH and shared:
        return f"A {MATCH}: it holds {listed(shared)}."
    reason = leading_reason(hit.parts) or PART_MEANING["relevance"]
    if kind == MATCH:
        return f"A {MATCH}: {reason}."
    return f"Related, with no word of your search in it: {reason}."


def short_reason(query: str, hit: Hit) -> str:
    """why_here in a few words, for a line with little room."""
    kind = found_as(hit)
    if kind == NEAREST:
        return f"{NEAREST_MARK} {NEAREST} only"
    shared = in_common(query, hit.memory.text)
    return f"holds {listed(shared)}" if kind == MATCH and shared else f"a {kind}" if kind == MATCH else kind


def listed(words: list[str]) -> str:
    """Up to three words, quoted: “a”, “b” and “c”."""
    shown = [f"“{w}”" for w in words[:3]]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
