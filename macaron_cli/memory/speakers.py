"""Who said it: the speaker of a turn of an imported conversation, and the one a question asks about.

A transcript's lines read "Name: what they said", and so do the memories imported from one.
A question that names one of the speakers ("What did Caroline paint?") asks about what that
person said or did, far more often than about what others said to them: retrieval lets the
other speakers' turns count less, and searches by meaning without the name, which says
little about meaning yet pulls toward every turn that addresses that person.
"""

from __future__ import annotations

import re

# One to three words, each starting with a capital (or a letter of a script without case),
# then a colon and a space: "Caroline: …", "Mary Ann: …", "김민수: …".
_PREFIX = re.compile(r"^\s*([^\W\d_][\w'’.-]*(?: [^\W\d_][\w'’.-]*){0,2}):\s")
_WORD = re.compile(r"[^\W_][\w'’-]*")
_POSSESSIVE = ("'s", "’s", "'", "’")


def speaker_of(text: str) -> str | None:
    """The speaker of a line written "Name: what they said", else None."""
    match = _PREFIX.match(text)
    if not match:
        return None
    name = match.group(1)
    if len(name) > 40 or not all(_capitalised(word) for word in name.split()):
        return None
    return name


def _capitalised(word: str) -> bool:
    first = word[0]
    return first.isupper() or first.lower() == first.upper()  # uncased scripts have no capitals


def named_speaker(query: str, speakers) -> str | None:
    """The one speaker (of `speakers`) whose name the query uses, as written; None when it
    names none or several (a question about two people favours neither)."""
    words = {_bare(word) for word in _WORD.findall(query)}
    named = {s for s in speakers if s.split()[0] in words or (" " in s and s in query)}
    return named.pop() if len(named) == 1 else None


def without_name(query: str, speaker: str) -> str:
    """The query with the speaker's name (and its possessive) left out."""
    names = sorted({speaker, speaker.split()[0]}, key=len, reverse=True)
    pattern = r"\b(?:" + "|".join(map(re.escape, names)) + r")(?:'s|’s|'|’)?(?!\w)"
    rest = " ".join(re.sub(pattern, " ", query).split())
    return rest if _WORD.search(rest) else query


def _bare(word: str) -> str:
    for ending in _POSSESSIVE:
        if word.endswith(ending):
            return word[: -len(ending)]
    return word
