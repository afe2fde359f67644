"""Normalised matching (macaron_cli/quotes.py): one memory's text in the spellings files use."""

from __future__ import annotations

import html
import json
from urllib.parse import quote, quote_plus

import pytest

from macaron_cli import quotes

TEXT = "Mia's custody hearing & lawyer call on Tuesday"
JA = "腎臓の病気のため毎日3リットルの水を飲む"

SPELLINGS = {
    "as written": lambda t: t,
    "another case": str.upper,
    "html-escaped": html.escape,
    "json ascii-escaped": lambda t: json.dumps(t)[1:-1],
    "json in html": lambda t: json.dumps(html.escape(t))[1:-1],
    "url-encoded": quote,
    "form-encoded": quote_plus,
    "rewrapped": lambda t: t.replace(" ", "\n   "),
    "full-width": lambda t: t.translate({c: c + 0xFEE0 for c in range(0x21, 0x7F)}),
}


CASES = [(s, TEXT) for s in SPELLINGS] + [(s, JA) for s in SPELLINGS if s != "full-width"]  # no ASCII to widen


@pytest.mark.parametrize(("spelling", "text"), CASES, ids=[f"{'ja' if t == JA else 'en'}-{s}" for s, t in CASES])
def test_every_spelling_is_found_and_scrubbed_in_place(spelling, text):
    written = SPELLINGS[spelling](text)
    page = f"<p>before</p>\n{written}\n<p>after</p>"
    assert quotes.holds(page, text)
    assert quotes.scrub(page, [text], "[gone]") == "<p>before</p>\n[gone]\n<p>after</p>"


def test_a_look_alike_is_not_a_quote_and_a_short_text_needs_its_place():
    assert not quotes.holds("Mia's custody hearing is on Monday", TEXT)
    assert not quotes.holds("pin 3 drives the LED", "pin 3", minimum=quotes.MIN_QUOTE)
    assert quotes.holds("pin 3 drives the LED", "pin 3")
