"""What an app should say and show for a person: language, units, currency, colour.

Defaults follow the language of the idea; the person's memories (e.g. "I think in
ounces", "I get paid in pesos") and their settings in config.toml (language, colour)
override them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from macaron_cli.memory.text import detect_language

LANGUAGES = ("en", "ja", "ko", "zh", "tl")

# Dates follow the language through the templates' "locale" format; money needs a guess.
_CURRENCY = {"en": "USD", "ja": "JPY", "ko": "KRW", "zh": "CNY", "tl": "PHP"}

# Clues in what the person told macaron; the first match wins.
_CURRENCY_CLUES = [
    (r"\bpesos?\b|₱|\bPHP\b", "PHP"),
    (r"\byen\b|円|¥|\bJPY\b", "JPY"),
    (r"\bwon\b|원|₩|\bKRW\b", "KRW"),
    (r"\byuan\b|\brmb\b|元|\bCNY\b", "CNY"),
    (r"\beuros?\b|€|\bEUR\b", "EUR"),
    (r"\bpounds? sterling\b|£|\bGBP\b", "GBP"),
    (r"\bdollars?\b|\$|\bUSD\b", "USD"),
]
_IMPERIAL_WORDS = (
    r"\b(?:ounces?|oz|pounds?|lbs?|miles?|fahrenheit|°F|feet|foot|inch(?:es)?|yards?)\b|"
    r"マイル|ポンド|華氏|インチ|フィート|オンス|마일|파운드|화씨|인치|피트|온스|英里|磅|华氏|英寸|英尺|盎司|"
    r"\bmilya|\blibra|\bpulgada|\btalampakan"
)
_IMPERIAL = re.compile(_IMPERIAL_WORDS, re.I)
# A unit said not to be used ("not miles", "マイルじゃなくてキロ", "마일 말고", "不用英里",
# "hindi milya kundi kilometro") is a preference for the other system, not for it.
_NEGATED = re.compile(
    r"(?:\bnot|\bno|\bnever|\bhate|\bdon'?t (?:use|like|want)|\binstead of|\brather than|\bover|"
    r"\bhindi|\bayaw (?:ko )?(?:ng |sa )?|\bhuwag|不用|不是|不要|别用|而不是|不喜欢)\s*(?:in |ng |sa |the )?"
    r"(?:" + _IMPERIAL_WORDS + r")|"
    r"(?:" + _IMPERIAL_WORDS + r")\s*(?:じゃなくて|じゃなく|ではなく|ではなくて|は使わない|より|は嫌|"
    r"말고|아니라|아니고|대신|는 안|은 안|는 싫|은 싫)",
    re.I,
)
# Measuring in cups ("prefer cups to ml", "I measure in cups", "カップで量る"): a stated
# preference, not any mention ("three cups of coffee"), and not cups left for ml.
_CUPS = re.compile(
    r"\bprefer\w*\s+(?:\w+\s+){0,2}cups\b|\b(?:measure|think|count|cook|bake)\w*\s+in\s+cups\b|"
    r"\bcups\s+(?:over|rather than|instead of|to|not)\s+(?:ml|millilit|grams|metric)|"
    r"カップで|컵으로|用量杯|\bsa tasa\b",
    re.I,
)
_NOT_CUPS = re.compile(
    r"\b(ml|millilit\w*|lit(er|re)s?|grams?|metric)\b\s+(to|over|rather than|instead of)\s+cups?\b", re.I
)

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


_METRIC = re.compile(
    r"\b(back to (ml|metric|litres?|liters?|kilos?|grams?|km)|switched to (ml|metric|litres?|liters?|kilos?|km)|"
    r"(use|prefer|think in) (ml|metric|millilit(er|re)s?|lit(er|re)s?|kilograms?|kilomet(er|re)s?))\b",
    re.I,
)


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
