"""One form of a text for the finders: full-width letters and digits as ASCII, every
Unicode space as a plain one, every dash as "-". A card number typed on a Japanese
keyboard ("５０１４ ５６２２…") or spaced with ideographic or no-break spaces is the same
number. Full-width punctuation stays: a "：" after a label is the particle the phrase
finders read, not the first character of a value.

The mapping keeps every character in its place (one character for one), so a span found
in the normal form is the span in the text as written."""

from __future__ import annotations

import unicodedata

_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d"
# Full-width digits, capitals and small letters (U+FF10–19, FF21–3A, FF41–5A)
_FULL_WIDTH = [*range(0xFF10, 0xFF1A), *range(0xFF21, 0xFF3B), *range(0xFF41, 0xFF5B)]


def _table() -> dict[int, str]:
    table = {cp: chr(cp - 0xFEE0) for cp in _FULL_WIDTH}
    table.update({ord(ch): "-" for ch in _DASHES})
    for cp in range(0x80, 0x3001):
        if unicodedata.category(chr(cp)) == "Zs":
            table[cp] = " "
    table[0x3000] = " "  # the ideographic space
    return table


_TABLE = _table()


def normal(text: str) -> str:
    """The text with the same length, in the one form the finders read."""
    return text.translate(_TABLE)
