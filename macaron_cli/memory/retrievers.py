"""The retrievers: each finds a ranked list of memories for a question, and each list's scores
are spread over [0, 1] from a non-match's score and added, weighted, into a candidate's
`relevance` (memory/retrieval.py fuses them in PIPELINE's order).

A retriever is declared by what it is (its name and part, its weight in the Tuning, whether
it is a primary list, found by meaning, found by words) and one method, `begin(ask)`: None
when it has nothing to search for this question, else a function that, given the candidates
found so far, returns its rows. Begun all at once, so LanceDB runs the word searches side by
side; called in order, so a list may read what the lists before it found (feedback, broader).

A new signal that finds memories is one class here and a line in RETRIEVERS."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from macaron_cli.memory.candidates import Ask, Candidate, Part, fulltext, nearest, rows_of, where_rows
from macaron_cli.memory.tuning import Tuning

Found = Callable[[dict[str, Candidate]], list[dict]]


class Retriever:
    name: ClassVar[str]
    part: ClassVar[Part]  # the part it writes: the list's spread score
    weight_of: ClassVar[str]  # its Tuning field
    primary: ClassVar[bool] = False  # averaged with the other primary lists (the others only add)
    by_meaning: ClassVar[bool] = False  # every memory is somewhat near: a non-match is the least near
    by_words: ClassVar[bool] = False  # its matches share a word (or the day) with the question
    new_above_unrelated: ClassVar[bool] = False  # what it alone finds must be nearer than an unrelated text
    similarity: ClassVar[bool] = False  # writes its raw cosine as the part "similarity" too
    parts: ClassVar[tuple[Part, ...]] = ()  # parts besides `part`

    def weight(self, tuning: Tuning) -> float:
        return getattr(tuning, self.weight_of)

    def begin(self, ask: Ask) -> Found | None:
        raise NotImplementedError


class Words(Retriever):
    """BM25 over the CJK-aware search_text (memory/text.py): the question's own words."""

    name, weight_of, primary, by_words = "bm25", "words_weight", True, True
    part = Part("bm25", "words in common", bounded=True, reason=True)

    def begin(self, ask: Ask) -> Found | None:
        return lambda _: ask.word_rows


class Expansion(Retriever):
    """Goal-based query expansion (memory/expansion.py): what usually matters for the goal the
    question names, a lower-weighted second word search that only adds."""

    name, weight_of, by_words = "expansion", "expansion_weight", True
    part = Part("expansion", "matches what it is for", bounded=True, reason=True)

    def begin(self, ask: Ask) -> Found | None:
        if not ask.extra:
            return None
        pending = fulltext(ask, " ".join(ask.extra), ask.where)
        return lambda _: rows_of(pending)


class Meaning(Retriever):
    """Nearest neighbours by meaning (the bundled multilingual model, memory/embeddings.py).
    A question that names one speaker of a conversation is searched without the name."""

    name, weight_of, primary, by_meaning, new_above_unrelated = "vector", "vector_weight", True, True, True
    part = Part("vector", "closeness in meaning", bounded=True, reason=True)
    similarity = True  # the cosine itself: the relevance floor reads it (rerankers.AboveFloor)
    parts = (Part("similarity", "closeness in meaning, as the model measures it"),)

    def begin(self, ask: Ask) -> Found | None:
        return (lambda _: ask.meanings()[1]) if ask.vectors else None


class Dated(Retriever):
    """The question's words within the days it names ("last Tuesday", reading/when.py); when no
    word of it matches a memory of those days, every memory of them, each as relevant."""

    name, weight_of, by_words = "dated", "dated_weight", True
    part = Part("dated", "said on the day asked about, and matches", bounded=True, reason=True)

    def begin(self, ask: Ask) -> Found | None:
        if not ask.dated_where:
            return None
        pending = fulltext(ask, ask.asked, ask.dated_where)
        return lambda _: rows_of(pending) or _every_one(ask)


def _every_one(ask: Ask) -> list[dict]:
    rows = where_rows(ask, ask.dated_where or "", ask.depth)
    for row in rows:
        row["_score"] = 1.0
    return rows


class DatedMeaning(Retriever):
    """The question's meaning within the days it names."""

    name, weight_of, by_meaning = "dated_meaning", "dated_weight", True
    part = Part("dated_meaning", "said on the day asked about, and close in meaning", bounded=True, reason=True)

    def begin(self, ask: Ask) -> Found | None:
        if not (ask.dated_where and ask.vectors):
            return None
        return lambda _: nearest(ask, [ask.meanings()[0]], ask.dated_where)[0]


class Feedback(Retriever):
    """Relevance feedback (Rocchio): every candidate's closeness to the meaning of the question
    plus that of its best matches, which lifts memories that say the same thing in other
    words. (A second search by that meaning found no more on LoCoMo and cost time.)"""

    name, weight_of, by_meaning = "feedback", "feedback_weight", True
    part = Part("feedback", "close in meaning to the best matches", bounded=True, reason=True)

    def begin(self, ask: Ask) -> Found | None:
        return (lambda candidates: _feedback(ask, candidates)) if ask.vectors else None


def _feedback(ask: Ask, candidates: dict[str, Candidate]) -> list[dict]:
    import numpy as np

    tuning = ask.tuning
    best = sorted(candidates.values(), key=lambda c: c.relevance, reverse=True)[: tuning.feedback_from]
    vectors = [c.row["vector"] for c in best if c.row.get("vector") is not None]
    if not vectors:
        return []
    vector = ask.meanings()[0] + tuning.feedback_beta * np.mean(np.asarray(vectors, dtype="float32"), axis=0)
    vector = vector / np.linalg.norm(vector)
    rows = [c.row for c in candidates.values() if c.row.get("vector") is not None]
    similarity = np.stack([row["vector"] for row in rows]) @ vector
    return [{"id": row["id"], "_distance": 1.0 - float(value)} for row, value in zip(rows, similarity, strict=True)]


class Broader(Retriever):
    """A broader word (a question's "chores" for the history's washing up and hoovering) is in
    no memory: the words of the question that no word match holds, searched by meaning on
    their own (in the one query of the question's meaning), for memories no word matches:
    the words found say more than a broader guess. After feedback: what the question's
    meaning finds stays its own."""

    name, weight_of, by_meaning, new_above_unrelated = "broader", "broader_weight", True, True
    part = Part(
        "broader",
        "close in meaning to the question's words no memory holds (a general word)",
        bounded=True,
        reason=True,
    )

    def begin(self, ask: Ask) -> Found | None:
        if not ask.vectors:
            return None
        return lambda candidates: [r for r in ask.meanings()[2] if not by_words(candidates.get(r["id"]))]


# The retrievers, in the order their lists are added (a list may read those before it).
RETRIEVERS: tuple[Retriever, ...] = (Words(), Expansion(), Meaning(), Dated(), DatedMeaning(), Feedback(), Broader())
WORD_LISTS = tuple(r.name for r in RETRIEVERS if r.by_words)


def by_words(c: Candidate | None) -> bool:
    """Whether a word list (or the day named) found the candidate."""
    return c is not None and any(c.parts.get(name, 0.0) > 0 for name in WORD_LISTS)
