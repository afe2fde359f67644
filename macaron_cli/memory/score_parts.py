"""The parts a search score is made of, in the person's words: what the memory browser's
"Why this result" and chat's /why say about a hit (retrieval.py writes the parts)."""

from __future__ import annotations

# What each part of a search score means, in the person's words.
PART_MEANING = {
    "bm25": "words in common",
    "vector": "closeness in meaning",
    "expansion": "matches what it is for",
    "feedback": "close in meaning to the best matches",
    "similarity": "closeness in meaning, as the model measures it",
    "dated": "said on the day asked about, and matches",
    "dated_meaning": "said on the day asked about, and close in meaning",
    "date": "× said on the day asked about",
    "answer": "replies to a matching question",
    "question": "× only asks (its reply answers)",
    "asking": "share of it that asks, which counts against it",
    "speaker": "× said by someone other than the person asked about",
    "redundancy": "how much it repeats a result above it",
    "neighbour": "said right beside a match",
    "moment": "from the same moment as other matches",
    "relevance": "the matches, combined",
    "weight": "importance (reward, recency, pins)",
    "boost": "× from importance",
    "gate": "× fit with domain and language",
    "expired": "× past its valid-until date",
    "floor": "1: matches the words, day or meaning; 0: kept for a chat turn as nearest by meaning",
    "nearest": "closeness in meaning of a memory kept only for being among the nearest",
    "broader": "close in meaning to the question's words no memory holds (a general word)",
}
NEAREST_ONLY = "among the nearest in meaning; it shares no word with what was said"
# Parts on a 0–1 scale get a bar; multipliers and importance are shown as numbers.
BOUNDED_PARTS = set(
    "bm25 vector expansion feedback neighbour moment relevance dated dated_meaning asking broader".split()
)


def leading_reason(parts: dict[str, float]) -> str | None:
    """The strongest 0–1 part of a hit's score, said in words ("words in common"); for a
    hit a chat turn kept only as nearest in meaning (retrieval's floor by purpose), that rule."""
    if parts.get("floor") == 0:
        return NEAREST_ONLY
    found = [(value, name) for name, value in parts.items() if name in BOUNDED_PARTS - {"asking", "relevance"}]
    if not found or max(found)[0] <= 0:
        return None
    return PART_MEANING[max(found)[1]]
