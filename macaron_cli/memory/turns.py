"""The answer first: of two turns of a conversation, a question and the reply to it, the reply
holds what the person told (the fact); the question only asks for it. A question is nearest
in meaning (and often in words) to a question about the same thing, so without this the
companion's own "How tall is your sister?" ranks above "Mina is 152cm".

The same holds within one memory: "Wow, nice! What else brings you joy?" matches a question
about joy, yet tells nothing about it; of two memories that match alike, the one that states
is likelier the answer. So the share of a memory that asks counts against it, whether or
not its reply is found.

Which question a reply answers: people interleave ("How was Rome?" "I made pasta btw" "It was
wonderful!"), so a turn follows the nearest question still unanswered from another speaker
of the same exchange, not merely the turn before it (Thread).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from macaron_cli.memory.records import Memory
from macaron_cli.memory.speakers import speaker_of, speaker_of_row

# Sentences: up to and including their end mark (any script's), or the end of the text.
_SENTENCE = re.compile(r"[^.!?。！？…]+(?:[.!?。！？…]+|$)")
ASKING = ("?", "？")
_CLAUSE = re.compile(r"[,，、;；]|\s[-–—]\s")  # what parts a sentence: commas, semicolons, dashes
# A sentence of at most this many words, and no number, that does not ask is only an aside
# ("Wow, nice!"); text without spaces (Japanese, Chinese) counts a word per 4 characters.
ASIDE_WORDS = 3


def asks(text: str) -> bool:
    """True when a turn only asks: it ends with a question, and whatever else it says is a
    short aside. "Mina is 152cm. How tall are you?" states a fact and so is not one."""
    parts = sentences(text)
    if not parts or not parts[-1].endswith(ASKING):
        return False
    return all(s.endswith(ASKING) or _aside(s) for s in parts)


def asking_share(text: str) -> float:
    """How much of a memory asks: the share of its characters in the last clause of each
    sentence that ends with a question mark (0 for "Mina is 152cm.", about half for "Mina is
    152cm. How tall are you?"). The clause, not the sentence: "I just got a beagle, what
    food should I buy?" tells what the person has before it asks."""
    parts = sentences(text)
    total = sum(map(len, parts))
    asked = sum(len(_CLAUSE.split(s)[-1].strip()) for s in parts if s.endswith(ASKING))
    return asked / total if total else 0.0


def sentences(text: str) -> list[str]:
    """The sentences of what a memory says, without the name of who said it."""
    said = text.split(":", 1)[1] if speaker_of(text) else text
    return [s.strip() for s in _SENTENCE.findall(said) if s.strip()]


def _aside(sentence: str) -> bool:
    words = len(sentence.split())
    if words == 1:
        words = -(-len(sentence) // 4)
    return words <= ASIDE_WORDS and not any(ch.isdigit() for ch in sentence)


def answer_first(candidates: dict, share: float, kept: float, asking: float) -> None:
    """Each reply to a question among the candidates gains `share` of the question's
    relevance beyond its own (so it overtakes the question where they were close), and the
    question keeps `kept` of its own, when the reply states rather than asks. Replies are
    the candidates whose previous turn (context_id) is the question. Then every candidate
    loses `asking` times the share of it that asks (all of that for a memory that only asks)."""
    _replies_first(candidates, share, kept)
    for c in candidates.values():
        if asked := asking_share(c.row["text"]):
            c.relevance *= 1.0 - asking * asked
            c.parts["asking"] = asked


def _replies_first(candidates: dict, share: float, kept: float) -> None:
    questions = {key: c for key, c in candidates.items() if c.row["kind"] == "episode" and asks(c.row["text"])}
    if not questions:
        return
    base = {key: c.relevance for key, c in candidates.items()}
    for key, c in candidates.items():
        before = c.row.get("context_id")
        if before in questions and key not in questions and not _same_speaker(c.row, questions[before].row):
            question = questions[before]
            if base[key] < base[before]:
                c.relevance += share * (base[before] - base[key])
                c.parts["answer"] = share * (base[before] - base[key])
            question.relevance = min(question.relevance, kept * base[before])
            question.parts["question"] = kept


def _same_speaker(row: dict, other: dict) -> bool:
    """Both said by the one speaker (the asker going on, "I remember she plays basketball"):
    no reply. Unknown speakers (a memory without a name) may be either."""
    speaker = speaker_of_row(row)
    return speaker is not None and speaker == speaker_of_row(other)


WINDOW = 8  # earlier turns a reply may answer: further back, a question is no longer pending


class Thread:
    """Turns stored in order, each linked to the turn it follows (its context): the nearest
    earlier question from another speaker that no statement has answered yet, else the
    turn just before it. `follows(earlier, later)` says whether two turns are one exchange
    (the same session, the later soon after)."""

    def __init__(self, follows: Callable[[Memory | None, Memory], bool]):
        self.follows = follows
        self.recent: list[Memory] = []
        self.answered: set[str] = set()

    def context(self, memory: Memory) -> Memory | None:
        previous = self.recent[-1] if self.recent else None
        context = previous if self.follows(previous, memory) else None
        speaker = _speaker(memory)
        if context is not None and speaker is not None:
            question = self._pending_question(memory, speaker)
            if question is not None:
                context = question
                if _states(memory.text):  # "Oh!" or a question back leaves it pending
                    self.answered.add(question.id)
        self.recent = [*self.recent[-(WINDOW - 1) :], memory]
        # only a recent turn can be pending: an import of a whole history keeps no more than that
        self.answered &= {turn.id for turn in self.recent}
        return context

    def _pending_question(self, memory: Memory, speaker: str) -> Memory | None:
        for turn in reversed(self.recent):
            if not self.follows(turn, memory):
                return None
            said_by = _speaker(turn)
            if turn.id not in self.answered and said_by not in (None, speaker) and asks(turn.text):
                return turn
        return None


def _speaker(memory: Memory) -> str | None:
    return speaker_of_row({"text": memory.text, "meta": memory.meta})


def _states(text: str) -> bool:
    """A turn that says something: not only asking, and not only asides ("Oh!", "haha")."""
    parts = sentences(text)
    return not asks(text) and not all(_aside(s) for s in parts)
