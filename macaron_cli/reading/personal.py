"""What an app should say and show for a person: language, units, currency, colour.

Defaults follow the language of the idea; the person's memories (e.g. "I think in
ounces", "I get paid in pesos") and their settings in config.toml (language, colour)
override them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from macaron_cli import lang
from macaron_cli.reading.text import detect_language

LANGUAGES = ("en", "ja", "ko", "zh", "tl")

# Dates follow the language through the templates' "locale" format; money needs a guess.
_CURRENCY = {"en": "USD", "ja": "JPY", "ko": "KRW", "zh": "CNY", "tl": "PHP"}

# Clues in what the person told macaron (lang's paid_in.<code>); the first match wins.
_CURRENCY_CLUES = [(lang.pattern(f"paid_in.{code}"), code) for code in lang.PAID_IN]
_IMPERIAL_WORDS = lang.pattern("imperial.said")
_IMPERIAL = re.compile(_IMPERIAL_WORDS, re.I)
# A unit said not to be used ("not miles", "マイルじゃなくてキロ", "마일 말고", "不用英里",
# "hindi milya kundi kilometro") is a preference for the other system, not for it.
_NEGATED = re.compile(
    rf"(?:{lang.pattern('system_refused.before')})\s*(?:{lang.pattern('system_refused.filler')})?"
    rf"(?:{_IMPERIAL_WORDS})|(?:{_IMPERIAL_WORDS})\s*(?:{lang.pattern('system_refused.after')})",
    re.I,
)
# Measuring in cups ("prefer cups to ml", "I measure in cups", "カップで量る"): a stated
# preference, not any mention ("three cups of coffee"), and not cups left for ml.
_CUPS = re.compile(lang.pattern("cups.preferred"), re.I)
_NOT_CUPS = re.compile(lang.pattern("cups.left"), re.I)

# Macaron flavours people may name as their colour; a hex code works too.
FLAVOURS = {
    "strawberry": "#FF9AA2",
    "rose": "#FF9AA2",
    "pink": "#FF9AA2",
    "peach": "#FFDAC1",
    "lemon": "#FFF1A6",
    "pistachio": "#B5EAD7",
    "mint": "#B5EAD7",
    "matcha": "#C5E1A5",
    "lavender": "#C7CEEA",
    "blueberry": "#A0C4FF",
    "vanilla": "#F8EDD3",
    "chocolate": "#C8A27C",
}
DEFAULT_ACCENT = "#FF9AA2"


def idea_language(idea: str, fallback: str | None = None, memory_texts: Iterable[str] = ()) -> str:
    """The language the idea is written in (a person's idea speaks for their UI).

    Kanji alone (家計簿) is Japanese as much as Chinese: the person's saved language
    decides, else the language of what they told macaron, else Chinese.
    """
    lang = detect_language(idea)
    if lang == "en" and fallback in LANGUAGES and not re.search(r"[a-z]{3,}", idea, re.I):
        return fallback
    if lang == "zh":
        if fallback in ("ja", "zh"):
            return fallback
        if any(detect_language(text) == "ja" for text in memory_texts):
            return "ja"
    return lang


def accent_colour(setting: str | None) -> str:
    if not setting:
        return DEFAULT_ACCENT
    value = setting.strip()
    if re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        return value.upper()
    return FLAVOURS.get(value.lower(), DEFAULT_ACCENT)


def bears_on_settings(text: str) -> bool:
    """Whether a memory says something about measures or money (what personal_settings reads)."""
    return bool(
        _IMPERIAL.search(text)
        or _CUPS.search(text)
        or any(re.search(pattern, text, re.I) for pattern, _ in _CURRENCY_CLUES)
    )


_METRIC = re.compile(lang.pattern("metric.chosen"), re.I)


def units_said(text: str) -> str | None:
    """ "imperial" or "metric" when a memory says which the person uses, else None."""
    if _METRIC.search(text):
        return "metric"
    return "imperial" if _IMPERIAL.search(text) else None


def currency_said(text: str) -> str | None:
    for pattern, code in _CURRENCY_CLUES:
        if re.search(pattern, text, re.I):
            return code
    return None


def personal_settings(language: str, memory_texts: list[str]) -> dict:
    """Units (and cups for volumes), and currency for this person, from language defaults and memories."""
    out = {"units": "metric", "currency": _CURRENCY.get(language, "USD")}
    joined = "\n".join(memory_texts)
    if _IMPERIAL.search(_NEGATED.sub(" ", joined)):
        out["units"] = "imperial"
    if _CUPS.search(joined) and not _NOT_CUPS.search(joined):
        out["volume_unit"] = "cup"
    for pattern, code in _CURRENCY_CLUES:
        if re.search(pattern, joined, re.I):
            out["currency"] = code
            break
    return out
