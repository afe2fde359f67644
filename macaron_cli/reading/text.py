"""The language-neutral part of reading text: which language a text is in, whether it holds
Han, Kana or Hangul, its content words, and a date's day and month as words.

memory/text.py builds its search forms on these; reading's rules (dates, titles, families)
ask them too.
"""

from __future__ import annotations

import re
from datetime import date

from macaron_cli import lang


def words_of(concept: str, code: str) -> list[str]:
    """`code`'s words for `concept` in lang, as a list."""
    return [word for word in lang.alternatives(lang.words(concept, code)) if word]


CJK_RUN = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f\uff66-\uff9f]+"
)


# The month as the index writes it: its first English name in lang ("May").
MONTHS = tuple(lang.alternatives(lang.words(f"month.{month}", "en"))[0] for month in lang.MONTHS)


def day_words(d: date) -> str:
    """The day of `d` as the index writes it, without the year: '8 May'."""
    return f"{d.day} {month_words(d)}"


def month_words(d: date) -> str:
    """The month of `d` as the index writes it: 'May'."""
    return MONTHS[d.month - 1]


LATIN_WORD = re.compile(r"[A-Za-zñÑ]+")


def has_cjk(text: str) -> bool:
    return bool(CJK_RUN.search(text))


# Tagalog's small words (lang's small_words). Those that English text never uses count fully;
# those English has too, as words or names (small_words.shared: may, na, ka), count half,
# so "May I ask Ka Na?" stays English.
_TL_WORDS = frozenset(words_of("small_words", "tl"))
_TL_SHARED = frozenset(words_of("small_words.shared", "tl"))
TL_SMALL = _TL_WORDS | _TL_SHARED
_EN_WORDS = frozenset(words_of("small_words", "en"))


# A word with "n't" ("don't", "doesn’t"): a negation, whose stem ("don") names nothing.
_NEGATION = re.compile(r"\b\w+n['’]t\b")


def content_words(text: str) -> list[str]:
    """The Latin-script words of `text` that carry meaning, in lower case: three letters or
    more, and none of English's or Tagalog's small words ("what", "did", "ang") or negations."""
    words = (w.lower() for w in LATIN_WORD.findall(_NEGATION.sub(" ", text)))
    return [w for w in words if len(w) >= 3 and w not in _EN_WORDS and w not in TL_SMALL]


def detect_language(text: str) -> str:
    """A cheap script-based guess; the person or the model can always say better."""
    if re.search(r"[\u3040-\u30ff]", text):
        return "ja"
    if re.search(r"[\uac00-\ud7af]", text):
        return "ko"
    if re.search(r"[\u4e00-\u9fff]", text):
        return "zh"
    words = set(re.findall(r"[a-zñ]+", text.lower()))
    tagalog = len(words & _TL_WORDS) + 0.5 * len(words & _TL_SHARED)
    if tagalog >= 1.5 and tagalog > len(words & _EN_WORDS):
        return "tl"
    return "en"


# A run of letters shared by a question and a memory in a script written without spaces
# (Han, Kana, Hangul) says they speak of the same thing from this many letters on.
_SHARED_LETTERS = 2


def in_common(query: str, text: str) -> list[str]:
    """The words a question and a memory share, as the question says them: its meaningful
    Latin words, and runs of Han, Kana or Hangul the memory holds too."""
    theirs = set(content_words(text))
    shared = [w for w in dict.fromkeys(content_words(query)) if w in theirs]
    at, folded = 0, text.casefold()
    while at < len(query):
        size = 0
        while at + size < len(query) and _wide(query[at + size]) and query[at : at + size + 1] in folded:
            size += 1
        if size >= _SHARED_LETTERS:
            shared.append(query[at : at + size])
        at += max(size, 1)
    return shared


def _wide(char: str) -> bool:
    return ord(char) > 0x2E80 and char.isalnum()
