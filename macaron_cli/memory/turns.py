"""The answer first: of two turns of a conversation, a question and the reply to it, the reply
holds what the person told (the fact); the question only asks for it. A question is nearest
in meaning (and often in words) to a question about the same thing, so without this the
companion's own "How tall is your sister?" ranks above "Mina is 152cm".
"""

from __future__ import annotations

import re

from macaron_cli.memory.speakers import speaker_of

# Sentences: up to and including their end mark (any script's), or the end of the text.
_SENTENCE = re.compile(r"[^.!?。！？…]+(?:[.!?。！？…]+|$)")
_ASKING = ("?", "？")
# A sentence of at most this many words, and no number, that does not ask is only an aside
# ("Wow, nice!"); text without spaces (Japanese, Chinese) counts a word per 4 characters.
ASIDE_WORDS = 3


def asks(text: str) -> bool:
    """True when a turn only asks: it ends with a question, and whatever else it says is a
    short aside. "Mina is 152cm. How tall are you?" states a fact and so is not one."""
    said = text.split(":", 1)[1] if speaker_of(text) else text
    sentences = [s.strip() for s in _SENTENCE.findall(said) if s.strip()]
    if not sentences or not sentences[-1].endswith(_ASKING):
        return False
    return all(s.endswith(_ASKING) or _aside(s) for s in sentences)


def _aside(sentence: str) -> bool:
    words = len(sentence.split())
    if words == 1:
        words = -(-len(sentence) // 4)
    return words <= ASIDE_WORDS and not any(ch.isdigit() for ch in sentence)


def answer_first(candidates: dict, share: float, kept: float) -> None:
    """Each reply to a question among the candidates gains `share` of the question's
    relevance beyond its own (so it overtakes the question where they were close), and the
    question keeps `kept` of its own, when the reply states rather than asks. Replies are
    the candidates whose previous turn (context_id) is the question."""
    questions = {key: c for key, c in candidates.items() if c.row["kind"] == "episode" and asks(c.row["text"])}
    if not questions:
        return
    base = {key: c.relevance for key, c in candidates.items()}
    for key, c in candidates.items():
        before = c.row.get("context_id")
        if before in questions and key not in questions:
            question = questions[before]
            if base[key] < base[before]:
                c.relevance += share * (base[before] - base[key])
                c.parts["answer"] = share * (base[before] - base[key])
            question.relevance = min(question.relevance, kept * base[before])
            question.parts["question"] = kept
