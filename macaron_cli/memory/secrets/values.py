"""Does the value after "password is", "PIN:", "token =" look like a secret?

What people write after such words is as often a description ("on the fridge", "too
short", "printed on the letter", "4 digits") as the secret itself. A secret has the
marks of one: digits, mixed case inside a word, symbols, length, randomness; a pass
phrase is several plain words with no word of prose among them.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from macaron_cli import lang

# Words that begin a description of a secret rather than the secret ("on the fridge",
# "too short", "printed on the letter", "the same as before"), in the eight languages; articles
# that may begin a pass phrase ("le petit prince") when the next word is not prose; conjunctions
# that end one ("… battery staple and I never change it"). The words are lang's.
PROSE = frozenset(lang.listed("secret.prose"))
ARTICLES = frozenset(lang.listed("secret.article"))
CONJUNCTIONS = frozenset(lang.listed("secret.conjunction"))

_DIGITS = re.compile(r"\d")
_SYMBOL = re.compile(r"[^\w\s'’-]")  # a hyphen or an apostrophe is prose ("case-sensitive")


def entropy(text: str) -> float:
    """Shannon entropy in bits per character."""
    counts = Counter(text)
    return -sum(c / len(text) * math.log2(c / len(text)) for c in counts.values())


def looks_like_password(value: str) -> bool:
    """A single token a person would use as a password (not a word that describes one)."""
    if len(value) < 4 or value.lower() in PROSE:
        return False
    if re.fullmatch(r"[*#]?\d{4,}[*#]?", value):
        return True  # a keypad code ("*1357#")
    digits = len(_DIGITS.findall(value))
    letters = sum(ch.isalpha() for ch in value)
    if digits and digits == len(value.replace(" ", "").replace("-", "")):
        return digits >= 4  # a PIN-like password ("0824")
    if digits and letters:
        return True  # "Hunter2", "sakura2024"
    if _SYMBOL.search(value.rstrip("!?.")) and letters and len(value) >= 6:
        return True  # "p@ssw*rd"
    inner_upper = any(ch.isupper() for ch in value[1:])
    return inner_upper and any(ch.islower() for ch in value) and len(value) >= 6  # "dRagOnfly"


def looks_like_given_password(value: str) -> bool:
    """After a colon or an equals sign ("password: X") the token is the password unless it
    is a word of prose ("password: forgotten again") or too short to be one."""
    return looks_like_password(value) or (len(value) >= 6 and value.lower() not in PROSE and value.isalpha())


def looks_like_pin(value: str) -> bool:
    """4 to 12 digits, maybe grouped, maybe with the # or * a keypad takes."""
    digits = re.sub(r"[\s.-]", "", value)
    return bool(re.fullmatch(r"[*#]?\d{4,12}[*#]?", digits))


def looks_like_code(value: str) -> bool:
    """A PIN or a door code: mostly digits, at most a letter or two ("12A45", "8080B"),
    not a version or a name with a number in it ("numpy==1.26.4", "Python3")."""
    if looks_like_pin(value):
        return True
    digits = len(_DIGITS.findall(value))
    return len(value) <= 10 and digits >= 3 and digits * 2 > sum(ch.isalnum() for ch in value) and value.isalnum()


def looks_like_token(value: str) -> bool:
    """A machine-made key: long, from a key alphabet, random."""
    if len(value) < 16 or not re.fullmatch(r"[A-Za-z0-9+/=_.~-]+", value):
        return False
    if re.fullmatch(r"[0-9a-fA-F]+", value):
        return len(value) >= 16 and bool(_DIGITS.search(value)) and entropy(value) >= 3.0
    classes = sum(bool(re.search(p, value)) for p in (r"[a-z]", r"[A-Z]", r"\d"))
    return classes >= 2 and entropy(value) >= 3.3


def looks_like_key(value: str) -> bool:
    return looks_like_token(value) or (len(value) >= 8 and looks_like_password(value))


def looks_like_cvv(value: str) -> bool:
    return bool(re.fullmatch(r"\d{3,4}", value))


def looks_like_id_number(value: str) -> bool:
    """A national id, tax or passport number: at least six digits among letters and dashes."""
    return len(_DIGITS.findall(value)) >= 6 and bool(re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 ./-]*", value))


def looks_like_pass_phrase(words: list[str]) -> bool:
    """Two to six plain words that do not begin a description: "correct horse battery
    staple", "banana split", "le petit prince", "Blaue Katze im Mond"."""
    if not 2 <= len(words) <= 6 or not all(w.isalpha() for w in words):
        return False
    lowered = [w.lower() for w in words]
    first = 1 if lowered[0] in ARTICLES else 0
    if len(words) - first < 2:
        return False  # "la paciencia" is a noun, not a phrase
    if lowered[first] in PROSE or lowered[first].endswith(("ing", "ed")):
        return False
    # a description word anywhere ("case sensitive", "the dog's name") makes it one
    return not any(w in PROSE for w in lowered[first:] if len(w) > 3)
