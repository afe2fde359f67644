"""Text prepared for full-text search in any language, with no dictionary downloads.

LanceDB's tokenizers split on spaces, which finds nothing in Japanese, Chinese or Korean
text (no spaces between words, or particles glued to them). We index a second form of
the text where every run of CJK/Hangul characters is replaced by its overlapping
character bigrams (and single characters), and transform queries into bigrams: 过敏 then
matches 我对花生过敏, 자전거 matches 자전거를.

The indexed form also carries the memory's date in words ("8 May 2023"), so questions
about when find it, and, for a turn of a conversation, the turn before it: a remark is
remembered with what prompted it (on LoCoMo this context lifted full-text recall@10 from
60 to 70; see bench/memory_locomo.py).
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime

from macaron_cli import lang
from macaron_cli.memory.units import in_words, unit_words


def _words(concept: str, code: str) -> list[str]:
    """`code`'s words for `concept` in lang, as a list."""
    return [word for word in lang.alternatives(lang.words(concept, code)) if word]


_CJK_RUN = re.compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af\u1100-\u11ff\u3130-\u318f\uff66-\uff9f]+"
)


def _bigrams(run: str) -> list[str]:
    return [run[i : i + 2] for i in range(len(run) - 1)] or [run]


def search_form(text: str, language: str | None = None) -> str:
    """The form of `text` that goes into the full-text index: CJK runs become their
    bigrams plus their single characters (so a one-character query such as 猫 or 茶 finds
    them too); Tagalog text (by `language`, or else by its words) gains the root of each
    conjugated word and the English gloss of each word the glossary knows (sumasayaw sayaw
    dance), so any form of the verb finds it, and so does an English question."""
    text = unicodedata.normalize("NFKC", text)

    def grams(m: re.Match) -> str:
        run = m.group(0)
        singles = list(run) if len(run) > 1 else []
        return " " + " ".join(_bigrams(run) + singles) + " "

    return _with_units(_with_roots(_CJK_RUN.sub(grams, text), language), text)


def query_form(text: str) -> str:
    """The form of a query: numbers with units as one canonical word each (memory/units.py);
    bigrams only for runs of two or more characters, which are far more specific than single
    characters; single nouns a particle hides (떡을 → 떡); Tagalog roots and glosses as in search_form,
    only where the query's own words are Tagalog (so an English question is never stemmed)."""
    text = in_words(unicodedata.normalize("NFKC", text))
    extra = _short_stems(text)
    grams = _CJK_RUN.sub(lambda m: " " + " ".join(_bigrams(m.group(0))) + " ", text)
    if _is_tagalog(grams, None):
        from macaron_cli.memory.tagalog import with_roots

        grams = with_roots(_without_small_words(grams))
    return " ".join([grams, *extra]) if extra else grams


def _with_units(form: str, text: str) -> str:
    words = unit_words(unicodedata.normalize("NFKC", text))
    return " ".join([form, *words]) if words else form


# Korean particles (and their longer forms) that follow a noun; a noun of one syllable with
# one attached ("떡을") forms a bigram that no memory without that particle has (lang's particles).
_KO_PARTICLES = _words("particles", "ko")
_KO_WORD = re.compile(r"[\uac00-\ud7af]+")
# One-syllable words that are pronouns, question words or adverbs: as single characters they
# would match nearly every memory (lang's not_nouns).
_KO_NOT_NOUNS = frozenset(_words("not_nouns", "ko"))
# A single kanji between kana, Hangul or punctuation ("猫の名前", "茶を飲む"): its bigrams
# with the particles beside it match nothing.
_JA_NOT_NOUNS = frozenset(_words("not_nouns", "ja"))
_KANJI = r"[\u3400-\u4dbf\u4e00-\u9fff]"
_LONE_KANJI = re.compile(rf"(?<!{_KANJI}){_KANJI}(?!{_KANJI})")


def _short_stems(text: str) -> list[str]:
    """A query's one-character nouns that particles hide: 떡을 → 떡, 猫の → 猫 (the index
    holds every single character of a memory, so these find it)."""
    stems = []
    for word in _KO_WORD.findall(text):
        for particle in _KO_PARTICLES:
            stem = word[: -len(particle)]
            if word.endswith(particle) and len(stem) == 1 and stem not in _KO_NOT_NOUNS:
                stems.append(stem)
                break
    if re.search(r"[\u3040-\u30ff]", text):  # Japanese: kana around kanji
        stems += [kanji for kanji in _LONE_KANJI.findall(text) if kanji not in _JA_NOT_NOUNS]
    return list(dict.fromkeys(stems))


def _without_small_words(text: str) -> str:
    """A Tagalog query without the small words of the language (ang, ng, ko, saan…): they are
    its stop words, as the index drops English ones, and matched they only favour any Tagalog
    memory over the English one that answers. Those with a gloss (bukas, gusto) stay."""
    from macaron_cli.memory.tagalog import glossary

    table = glossary()

    def drop(m: re.Match) -> str:
        word = m.group(0).lower()
        return "" if word in _TL_SMALL and word not in table else m.group(0)

    return " ".join(_LATIN_WORD.sub(drop, text).split())


def _with_roots(text: str, language: str | None) -> str:
    # English is never stemmed or glossed: magnet, summer and Kinabalu keep their letters.
    if _is_tagalog(text, language):
        from macaron_cli.memory.tagalog import with_roots

        return with_roots(text)
    return text


def _is_tagalog(text: str, language: str | None) -> bool:
    return language == "tl" or detect_language(text) == "tl"


def meaning_form(text: str, language: str | None = None) -> str:
    """The form of a memory or a query that the model embeds (every caller of
    embeddings.embed for memory uses it, so stored, re-embedded and query vectors agree).
    The bundled model knows no Tagalog: Tagalog text (by `language`, or else by its words)
    ends with the English glosses of its words, "Nagbabayad ako ng upa. (pay rent)"; any
    other text is itself."""
    if not _is_tagalog(text, language):
        return text
    from macaron_cli.memory.tagalog import glosses

    english = glosses(text)
    return f"{text} ({' '.join(english)})" if english else text


# The month as the index writes it: its first English name in lang ("May").
MONTHS = tuple(lang.alternatives(lang.words(f"month.{month}", "en"))[0] for month in lang.MONTHS)


def date_words(iso: str | None) -> str:
    """'2023-05-08T13:56:00+00:00' → '8 May 2023' (locale-independent)."""
    if not iso:
        return ""
    try:
        d = datetime.fromisoformat(iso)
    except ValueError:
        return ""
    return f"{day_words(d)} {d.year}"


def day_words(d: date) -> str:
    """The day of `d` as the index writes it, without the year: '8 May'."""
    return f"{d.day} {month_words(d)}"


def month_words(d: date) -> str:
    """The month of `d` as the index writes it: 'May'."""
    return MONTHS[d.month - 1]


def index_text(text: str, *, when: str | None = None, context: str | None = None, language: str | None = None) -> str:
    """Everything the full-text index sees for one memory (`language`: the memory's own)."""
    return " ".join(
        part for part in (date_words(when), search_form(text, language), search_form(context or "")) if part
    )


_LATIN_WORD = re.compile(r"[A-Za-zñÑ]+")


def has_cjk(text: str) -> bool:
    return bool(_CJK_RUN.search(text))


# Tagalog's small words (lang's small_words). Those that English text never uses count fully;
# those English has too, as words or names (small_words.shared: may, na, ka), count half,
# so "May I ask Ka Na?" stays English.
_TL_WORDS = frozenset(_words("small_words", "tl"))
_TL_SHARED = frozenset(_words("small_words.shared", "tl"))
_TL_SMALL = _TL_WORDS | _TL_SHARED
_EN_WORDS = frozenset(_words("small_words", "en"))


def content_words(text: str) -> list[str]:
    """The Latin-script words of `text` that carry meaning, in lower case: three letters or
    more, and none of English's or Tagalog's small words ("what", "did", "ang")."""
    words = (w.lower() for w in _LATIN_WORD.findall(text))
    return [w for w in words if len(w) >= 3 and w not in _EN_WORDS and w not in _TL_SMALL]


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
