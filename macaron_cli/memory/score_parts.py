"""The parts a search score is made of, in the person's words: what the memory browser's
"Why this result" and chat's /why say about a hit. Read from the search's own declaration
(memory/retrieval.py's PARTS: each retriever, reranker and factor declares the parts it
writes), so a new signal is explained where it is declared."""

from __future__ import annotations

from macaron_cli.memory.retrieval import PARTS

# What each part of a search score means, in the person's words.
PART_MEANING = {part.name: part.meaning for part in PARTS}
NEAREST_ONLY = "among the nearest in meaning; it shares no word with what was said"
# Parts on a 0–1 scale get a bar; multipliers and importance are shown as numbers.
BOUNDED_PARTS = {part.name for part in PARTS if part.bounded}
# The parts that say why a memory was found at all (the strongest leads /why's sentence).
REASONS = {part.name for part in PARTS if part.reason}


def leading_reason(parts: dict[str, float]) -> str | None:
    """The strongest reason of a hit's score, said in words ("words in common"); for a hit a
    chat turn kept only as nearest in meaning (retrieval's floor by purpose), that rule."""
    if parts.get("floor") == 0:
        return NEAREST_ONLY
    found = [(value, name) for name, value in parts.items() if name in REASONS]
    if not found or max(found)[0] <= 0:
        return None
    return PART_MEANING[max(found)[1]]
