"""One form of a text for the finders: full-width letters, digits and signs as ASCII, every
Unicode space as a plain one, every dash as "-". A card number typed on a Japanese keyboard
("５０１４ ５６２２…") or spaced with ideographic or no-break spaces is the same number.

The mapping keeps every character in its place (one character for one), so a span found
in the normal form is the span in the text as written."""

from __future__ import annotations

import unicodedata

_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63"


def _table() -> dict[int, str]:
    table = {cp: chr(cp - 0xFEE0) for cp in range(0xFF01, 0xFF5F)}  # full-width forms → ASCII
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
