"""A question without its small talk: "Hey! Lovely day today… anyway, um, how tall is my
sister again?" searches for "how tall is my sister". Greetings, weather talk and fillers
otherwise weigh as much as the question in both the words and the meaning searched for
(and "today" in "lovely day today" would read as a date).

Three cuts, in en/ja/ko/zh/tl: a sentence that asks nothing and is only a greeting, a remark
on the weather or a pleasantry goes; so does such a clause before the question in the
sentence that asks ("唉，今天好累啊，对了，我妹妹多高？"); fillers and discourse markers
("anyway", "ところで", "그런데", "对了", "teka") go from the start of what remains. Whatever is left must still
hold a word, or the question is searched as it was asked.
"""

from __future__ import annotations

import re

from macaron_cli import lang

# A sentence: up to and including its end marks (or the text's end).
_SENTENCE = re.compile(r"[^.!?。！？…~〜]+(?:[.!?。！？…~〜]+|$)")
_ASKS = ("?", "？")

# Small talk that makes a sentence chatter when it asks nothing (lang's chatter.small_talk).
_SMALL_TALK = re.compile(lang.pattern("chatter.small_talk"), re.IGNORECASE)
# Fillers and discourse markers, taken off the start of a sentence (repeatedly).
_FILLER = lang.pattern("chatter.filler")
_LEADING = re.compile(rf"^(?:\s*(?:{_FILLER})[\s,，、:;.…~〜!！]*)+", re.IGNORECASE)
_CLAUSE = re.compile(r"[^,，、]+(?:[,，、]+|$)")
_WORD = re.compile(r"\w")


def without_chatter(query: str) -> str:
    """`query` without its small-talk sentences and leading fillers (itself when nothing is left)."""
    kept = []
    for sentence in _SENTENCE.findall(query):
        sentence = sentence.strip()
        if not sentence:
            continue
        if not sentence.endswith(_ASKS) and _SMALL_TALK.search(sentence):
            continue
        kept.append(_LEADING.sub("", _without_leading_small_talk(sentence)))
    cleaned = " ".join(s for s in kept if _WORD.search(s))
    return cleaned if cleaned else query


def _without_leading_small_talk(sentence: str) -> str:
    """The sentence from its first clause that is neither small talk nor fillers alone (the
    last clause always stays)."""
    clauses = _CLAUSE.findall(sentence)
    while len(clauses) > 1 and (_SMALL_TALK.search(clauses[0]) or not _WORD.search(_LEADING.sub("", clauses[0]))):
        clauses.pop(0)
    return "".join(clauses).strip()
