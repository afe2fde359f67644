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
from datetime import datetime

from macaron_cli.reading.text import CJK_RUN, LATIN_WORD, TL_SMALL, day_words, detect_language, words_of
from macaron_cli.reading.units import in_words, unit_words


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

    return _with_units(_with_roots(CJK_RUN.sub(grams, text), language), text)


def query_form(text: str) -> str:
    """The form of a query: numbers with units as one canonical word each (reading/units.py);
    bigrams only for runs of two or more characters, which are far more specific than single
    characters; single nouns a particle hides (떡을 → 떡); Tagalog roots and glosses as in search_form,
    only where the query's own words are Tagalog (so an English question is never stemmed)."""
    text = in_words(unicodedata.normalize("NFKC", text))
    extra = _short_stems(text)
    chinese = detect_language(text) == "zh"
    grams = CJK_RUN.sub(lambda m: " " + " ".join(_query_bigrams(m.group(0), chinese)) + " ", text)
    if _is_tagalog(grams, None):
        from macaron_cli.memory.tagalog import with_roots

        grams = with_roots(_without_small_words(grams))
    return " ".join([grams, *extra]) if extra else grams


# A Chinese pair of two characters that only build a sentence (了一, 我在, 是个) is in nearly
# every memory of a small store, and matched alone it lifts unrelated memories above the one
# meant (lang's grammar_characters). Other pairs of the run keep what it says.
_ZH_GRAMMAR = frozenset(words_of("grammar_characters", "zh"))


def _query_bigrams(run: str, chinese: bool) -> list[str]:
    pairs = _bigrams(run)
    if not chinese:
        return pairs
    meant = [pair for pair in pairs if not set(pair) <= _ZH_GRAMMAR]
    return meant or pairs


def _with_units(form: str, text: str) -> str:
    words = unit_words(unicodedata.normalize("NFKC", text))
    return " ".join([form, *words]) if words else form


# Korean particles (and their longer forms) that follow a noun; a noun of one syllable with
# one attached ("떡을") forms a bigram that no memory without that particle has (lang's particles).
_KO_PARTICLES = words_of("particles", "ko")
_KO_WORD = re.compile(r"[\uac00-\ud7af]+")
# One-syllable words that are pronouns, question words or adverbs: as single characters they
# would match nearly every memory (lang's not_nouns).
_KO_NOT_NOUNS = frozenset(words_of("not_nouns", "ko"))
# A single kanji between kana, Hangul or punctuation ("猫の名前", "茶を飲む"): its bigrams
# with the particles beside it match nothing.
_JA_NOT_NOUNS = frozenset(words_of("not_nouns", "ja"))
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


# A Korean syllable said as a word of its own, before the next word ("술 마셔"): a noun of one
# syllable with no particle; the last word of a Korean sentence is its verb ("뭐 타?").
_KO_ALONE = re.compile(r"(?<![\uac00-\ud7af])[\uac00-\ud7af](?= +[\uac00-\ud7af])")
# A lone kanji before a verb's ending is the verb's stem (乗って, 飲む), not a thing.
_JA_VERB_STEM = re.compile(rf"{_KANJI}(?=(?:{'|'.join(words_of('verb_endings', 'ja'))}))")


def one_letter_nouns(text: str) -> list[str]:
    """The nouns of one letter a text holds: those a particle hides (떡을, 車は; not a verb's
    stem: 乗って) and a Korean one said alone before the next word (술 마셔)."""
    verbs = set(_JA_VERB_STEM.findall(text))
    alone = [w for w in _KO_ALONE.findall(text) if w not in _KO_NOT_NOUNS]
    return list(dict.fromkeys([s for s in _short_stems(text) if s not in verbs] + alone))


def _without_small_words(text: str) -> str:
    """A Tagalog query without the small words of the language (ang, ng, ko, saan…): they are
    its stop words, as the index drops English ones, and matched they only favour any Tagalog
    memory over the English one that answers. Those with a gloss (bukas, gusto) stay."""
    from macaron_cli.memory.tagalog import glossary

    table = glossary()

    def drop(m: re.Match) -> str:
        word = m.group(0).lower()
        return "" if word in TL_SMALL and word not in table else m.group(0)

    return " ".join(LATIN_WORD.sub(drop, text).split())


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


def date_words(iso: str | None) -> str:
    """'2023-05-08T13:56:00+00:00' → '8 May 2023' (locale-independent)."""
    if not iso:
        return ""
    try:
        d = datetime.fromisoformat(iso)
    except ValueError:
        return ""
    return f"{day_words(d)} {d.year}"


def index_text(text: str, *, when: str | None = None, context: str | None = None, language: str | None = None) -> str:
    """Everything the full-text index sees for one memory (`language`: the memory's own)."""
    return " ".join(
        part for part in (date_words(when), search_form(text, language), search_form(context or "")) if part
    )
