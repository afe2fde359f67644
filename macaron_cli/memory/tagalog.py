"""A light Tagalog stemmer, so the forms of one verb find each other in full-text search.

Tagalog conjugates with prefixes (nag-, mag-, naka-), infixes (-um-, -in-) and
reduplication of the first syllable: nagsasayaw, sumasayaw and sasayaw all share the root
sayaw, but have no word in common for BM25. `root` undoes the common affixes; the search
form keeps the word and adds its root (memory/text.py), so a wrong root costs only a stray
token. The rules stay conservative for that reason: roots keep at least four letters (three
for a root that begins with a vowel, such as uwi), the short prefixes (ma-, na-, i-)
are taken off only where a consonant-vowel root is left, and function words and a few
common nouns that merely look affixed (lalaki, pangalan, magulang) are left alone.

The multilingual model knows no Tagalog, and English words share no letters with it, so a
glossary (tagalog_glossary.tsv, shipped in the package) gives the common content words a
short English gloss: the search form carries them beside each word, and the text the model
embeds ends with them (memory/text.py), which is how "When do I pay the rent?" finds
"Nagbabayad ako ng upa" and a Tagalog question finds what was told in English.
"""

from __future__ import annotations

import functools
import re

VOWELS = frozenset("aeiou")
_NATIVE_CONSONANTS = frozenset("bkdghlmnprstwy")

# Never stemmed: the small words of the language (they carry no root), and common words
# whose look-alike "root" is another word (lalaki "man" is not laki "big").
KEEP = frozenset(
    """
    ako ikaw ka siya kami tayo kayo sila niya nila namin natin ninyo akin amin atin iyo inyo
    kanya kanila ito iyan iyon dito diyan doon ngayon nang naman lamang lang kasi kaya para
    pero kung kapag habang dahil sana pala palagi mga isang iba ibang ilan ilang iyong ating
    aming kanilang kaniyang nasa mayroon meron wala walang hindi huwag kahit kailan kailangan
    paano bakit saan sino ano anong alin ilan tuwing bawat lahat marami kaunti mas masyado
    talaga siguro baka halos kapwa magkano pamilya pangalan magulang kapatid kaibigan lalaki babae
    kababayan kasama kasalanan panahon paaralan kanin kainan umaga hapon gabi
    """.split()
)

# Longest first, so nakaka- is tried before naka- and na-.
_PREFIXES = (
    "nakikipag",
    "makikipag",
    "nakipag",
    "makipag",
    "ipinag",
    "nakaka",
    "makaka",
    "pinag",
    "nagpapa",
    "magpapa",
    "nagka",
    "magka",
    "nagpa",
    "magpa",
    "ipag",
    "naka",
    "maka",
    "mang",
    "nang",
    "pang",
    "nag",
    "mag",
    "pag",
    "ipa",
    "ka",
    "ma",
    "na",
    "ni",
    "i",
)
# The short prefixes begin many plain words too: taken off only before a root that starts
# consonant-vowel and is long enough (natulog → tulog, ibigay → bigay; not nanay or isda).
# Plain pa- is not taken off at all: it begins too many loanwords (paborito, pamilya).
_SHORT = {"ma": 4, "na": 4, "i": 4, "ipa": 4}
# The prefixes that join a vowel-initial root without a hyphen (nakaupo, mangisda).
_BEFORE_VOWEL = frozenset({"naka", "maka", "nakaka", "makaka", "mang", "nang", "pang"})
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)?")


def _cv(s: str) -> bool:
    """`s` begins consonant-vowel (or consonant-l/r/y-vowel, as trabaho and prito do)."""
    if len(s) < 2 or s[0] in VOWELS:
        return False
    return s[1] in VOWELS or (len(s) > 2 and s[1] in "lry" and s[2] in VOWELS)


def _long_enough(s: str) -> bool:
    return len(s) >= (3 if s[0] in VOWELS else 4)


def _unreduplicate(s: str) -> str:
    """sasayaw → sayaw, tatrabaho → trabaho, aaral → aral, iinom → inom."""
    if len(s) > 3 and s[0] in VOWELS and s[1] == s[0] and _long_enough(s[1:]):
        return s[1:]
    if len(s) > 4 and s[0] not in VOWELS and s[1] in VOWELS and s[2] == s[0]:
        rest = s[2:]
        first_vowel = next((ch for ch in rest if ch in VOWELS), "")
        if first_vowel == s[1] and _cv(rest) and _long_enough(rest):
            return rest
    return s


def _uninfix(s: str) -> str:
    """sumayaw → sayaw, kinain → kain; umalis → alis, inubos → ubos."""
    if len(s) > 4 and s[:2] in ("um", "in") and s[2] in VOWELS and _long_enough(s[2:]):
        return s[2:]
    # Only after a consonant Tagalog has of its own: finish is not f-in-ish.
    if len(s) > 5 and s[0] in _NATIVE_CONSONANTS and s[1:3] in ("um", "in") and s[3] in VOWELS:
        rest = s[0] + s[3:]
        if _long_enough(rest):
            return rest
    return s


def _unprefix(s: str) -> str:
    for prefix in _PREFIXES:
        if not s.startswith(prefix) or len(s) <= len(prefix) + 1:
            continue
        rest = s[len(prefix) :]
        if prefix == "ni":  # ni- stands for -in- before l and y: niluto, nilagay
            ok = rest[0] in "ly" and _cv(rest) and _long_enough(rest)
        elif prefix == "ka":  # ka- only with a reduplicated root: kakakain, katatapos
            ok = _unreduplicate(rest) != rest
        elif prefix in _SHORT:
            ok = _cv(rest) and len(rest) >= _SHORT[prefix]
        else:  # before a vowel nag-/mag-/pag- take a hyphen (mag-aral): nagawa is na-gawa
            ok = (_cv(rest) or (rest[0] in VOWELS and prefix in _BEFORE_VOWEL)) and _long_enough(rest)
        if ok:
            return rest
    return s


def _unsuffix(s: str) -> str:
    """basahin → basa, puntahan → punta (-hin/-han after a vowel); kainin → kain (-in/-an
    after vowel-consonant, so hardin and hangin keep their n); bayaran → bayad."""
    for suffix in ("hin", "han"):
        rest = s[: -len(suffix)]
        if s.endswith(suffix) and len(rest) >= 4 and rest[-1] in VOWELS and _cv(rest):
            return rest
    for suffix in ("in", "an"):
        rest = s[: -len(suffix)]
        if s.endswith(suffix) and len(rest) >= 4 and rest[-1] not in VOWELS and rest[-2] in VOWELS and _cv(rest):
            # A root's final d turns r before a suffix: bayad → bayaran, lakad → lakarin.
            return rest[:-1] + "d" if rest[-1] == "r" else rest
    return s


_HYPHEN_PREFIXES = frozenset(
    {"nag", "mag", "pag", "naka", "maka", "nakaka", "makaka", "pinag", "ipag", "nagka", "magka"}
)


def root(word: str) -> str:
    """The root of a Tagalog word (lower case), or the word itself when no rule is sure."""
    w = word.lower()
    if "-" in w:  # nag-usap, mag-aral; araw-araw
        head, _, tail = w.partition("-")
        if head == tail:
            return head
        return _unreduplicate(tail) if head in _HYPHEN_PREFIXES and tail.isalpha() else w
    if len(w) < 4 or w in KEEP or not w.isalpha():
        return w
    stem = _unprefix(w)
    if stem == w or w[0] == "i":  # an infix follows no other prefix but i-: ibinigay
        stem = _uninfix(stem)
    stem = _unsuffix(_unreduplicate(stem))
    # A root that is a small word of its own (pangako → ako) only adds noise.
    return w if len(stem) <= 3 and stem in KEEP else stem


GLOSSARY = "tagalog_glossary.tsv"


@functools.cache
def glossary() -> dict[str, str]:
    """Tagalog word or root → its English gloss, read once from the file shipped in the package."""
    from importlib.resources import files

    entries = {}
    for line in files(__package__).joinpath(GLOSSARY).read_text(encoding="utf-8").splitlines():
        word, tab, english = line.partition("\t")
        if tab and not line.startswith("#"):
            entries[word.strip().lower()] = " ".join(english.split())
    return entries


def gloss(word: str) -> str | None:
    """The English of one Tagalog word: by the word itself, by its root, or by either without
    the linker it carries before the next word (magandang → maganda, pinsang → pinsan)."""
    table = glossary()
    w = word.lower()
    candidates = [w, root(w)]
    if w.endswith("ng") and len(w) > 4 and w not in KEEP:
        candidates += [w[:-2], root(w[:-2])] if w[-3] in VOWELS else []
        candidates += [w[:-1], root(w[:-1])]
    return next((table[c] for c in candidates if c in table), None)


def glosses(text: str) -> list[str]:
    """The English glosses of the words of `text`, each once, in the order they come."""
    found = (gloss(m.group(0)) for m in _WORD.finditer(text))
    return list(dict.fromkeys(g for g in found if g))


def with_roots(text: str) -> str:
    """`text` with the root and the English gloss of each Tagalog word that has one added after it."""

    def add(m: re.Match) -> str:
        word = m.group(0)
        stem = root(word)
        extra = [stem] if stem != word.lower() else []
        english = gloss(word)
        return " ".join([word, *extra, *([english] if english else [])])

    return _WORD.sub(add, text)
