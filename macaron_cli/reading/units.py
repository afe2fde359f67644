"""Numbers with units, written any way, as one word: "152cm", "152 centimeters", "152厘米",
"152センチ", "152센티" and "152 sentimetro" all give `152cm`; "5k", "5 km", "5キロ", "5公里"
give `5km`; "$40", "40 dollars", "40美元" give `40usd`; "4만 원" and "40,000원" give `40000krw`;
"2.5 litres", "2.5L", "2.5リットル" give `2p5l`.

The full-text index holds these words beside each memory's text, and a query gains them too
(memory/text.py), so a number asked about in one form finds the memory that wrote it in
another. A unit whose name is ambiguous gives every reading (キロ, kilo: `5km` and `5kg`;
¥: `300jpy` and `300cny`).
"""

from __future__ import annotations

import re

from macaron_cli import lang
from macaron_cli.resources import shared_module

# Units after a number: the canonical names each spelling gives (the spellings are lang's
# amount.<unit>). Longest spellings first: a unit whose spelling begins another's comes later.
_AFTER: list[tuple[str, tuple[str, ...]]] = [
    (lang.pattern(f"amount.{unit}"), {"kilo": ("km", "kg"), "oz": ("floz", "oz")}.get(unit, (unit,)))
    for unit in lang.AMOUNTS
]  # ounces: of water a volume, of flour a weight
# Each canonical word's unit in the units table every app shares (templates/_shared/static/
# units.json): the units `convert` can change between, of one family (volume, length…).
_NAMED = {
    "ml": "milliliter", "l": "liter", "floz": "fluid-ounce",
    "mm": "millimeter", "cm": "centimeter", "m": "meter", "km": "kilometer", "mi": "mile",
    "kg": "kilogram", "lb": "pound", "oz": "ounce",
    "min": "minute", "h": "hour",
}  # fmt: skip
_SIZE: dict[str, tuple[str, float]] = {
    word: next((family, units[unit][1]) for family, units in shared_module("app_units").SCALES.items() if unit in units)
    for word, unit in _NAMED.items()
}
# Currency signs before a number.
_BEFORE = {"$": ("usd",), "€": ("eur",), "¥": ("jpy", "cny"), "￥": ("jpy", "cny"), "₩": ("krw",), "₱": ("php",)}

_NUMBER = r"(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
# Ten thousand (lang's amount.ten_thousand) between a number and its unit multiplies it: 4만 원, 3万元.
_MAN = r"\s*(" + "|".join(dict.fromkeys(lang.alternatives(lang.pattern("amount.ten_thousand")))) + ")?"
_AFTER_UNIT = re.compile(
    _NUMBER + _MAN + r"\s?(" + "|".join(f"(?:{spelling})" for spelling, _ in _AFTER) + r")(?![A-Za-z])",
    re.IGNORECASE,
)
_BEFORE_UNIT = re.compile(r"([$€¥￥₩₱])\s?" + _NUMBER + r"(k\b|" + _MAN[3:] + r")?", re.IGNORECASE)
_SPELLINGS = [(re.compile(f"(?:{spelling})$", re.IGNORECASE), names) for spelling, names in _AFTER]


def unit_words(text: str) -> list[str]:
    """The canonical word of every number with a unit in `text` ("152cm", "40usd")."""
    words: list[str] = []
    in_words(text, words)
    return list(dict.fromkeys(words))


def in_words(text: str, found: list[str] | None = None) -> str:
    """`text` with every number and its unit replaced by their canonical words ("When did I run
    5 km?" → "When did I run  5km ?"), which go into `found` too: a query asks for the amount,
    not for the bare number a dozen unrelated memories hold."""
    words = found if found is not None else []

    def before(m: re.Match) -> str:
        multiplier = 1000 if (m.group(3) or "").lower() == "k" else 10000 if m.group(3) else 1
        new = [_value(m.group(2), multiplier) + name for name in _BEFORE[m.group(1)]]
        words.extend(new)
        return f" {' '.join(new)} "

    def after(m: re.Match) -> str:
        names = next(names for pattern, names in _SPELLINGS if pattern.match(m.group(3)))
        new = [_value(m.group(1), 10000 if m.group(2) else 1) + name for name in names]
        words.extend(new)
        return f" {' '.join(new)} "

    return _AFTER_UNIT.sub(after, _BEFORE_UNIT.sub(before, text))


def _value(number: str, multiplier: int) -> str:
    """'1,200' → '1200'; '1.5' → '1p5' (a full-text word has no dot)."""
    value = float(number.replace(",", "")) * multiplier
    return str(int(value)) if value == int(value) else f"{value:g}".replace(".", "p")


def unit_of(word: str) -> tuple[str, ...]:
    """The canonical units a unit's name gives ("milliliter" → ml, "hours" → h; "キロ" both
    km and kg); none for what is counted (steps, glasses, times)."""
    word = word.strip()
    return next((names for pattern, names in _SPELLINGS if pattern.match(word)), ())


def amounts(text: str) -> list[tuple[int, float, tuple[str, ...]]]:
    """Every number in `text` with a unit, as (where it starts, value, its canonical units),
    in order."""
    found: list[tuple[int, float, tuple[str, ...]]] = []
    for m in _AFTER_UNIT.finditer(text):
        value = float(m.group(1).replace(",", "")) * (10000 if m.group(2) else 1)
        found.append((m.start(), value, unit_of(m.group(3))))
    for m in _BEFORE_UNIT.finditer(text):
        multiplier = 1000 if (m.group(3) or "").lower() == "k" else 10000 if m.group(3) else 1
        found.append((m.start(), float(m.group(2).replace(",", "")) * multiplier, _BEFORE[m.group(1)]))
    return sorted(found)


def convert(value: float, said: tuple[str, ...], to: tuple[str, ...]) -> float | None:
    """`value` in one of the units `said` as a value in one of `to` (the same kind: volume,
    length, weight, time), or None when no pair of them measures the same thing."""
    for unit in said:
        for target in to:
            if unit in _SIZE and target in _SIZE and _SIZE[unit][0] == _SIZE[target][0]:
                return value * _SIZE[unit][1] / _SIZE[target][1]
    return None
