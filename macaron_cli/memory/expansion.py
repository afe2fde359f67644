"""Query expansion from the person's likely goal: "花火大会" → tickets, date, weather.

A memory that answers a goal often shares no word with it (planning a fireworks night
needs the weather and the ticket, not the word "fireworks"). A small multilingual
table maps goals to what usually matters for them (lang's expansion.<goal> and
expansion.<goal>.needs, every language's words); the expansion runs as a second,
lower-weighted query, so it can surface such memories but never outrank a direct match.
"""

from __future__ import annotations

import unicodedata

from macaron_cli import lang


def _goals() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """goal words (any language) → what tends to matter for that goal (lang's expansion.*)."""
    return [(lang.listed(f"expansion.{goal}"), lang.listed(f"expansion.{goal}.needs")) for goal in lang.GOALS]


def expand_query(query: str) -> list[str]:
    """Terms to add for the goals `query` mentions (none when it mentions none)."""
    text = unicodedata.normalize("NFKC", query).lower()
    words = set(text.split())
    extra: list[str] = []
    for goals, related in _goals():
        if any((g in words) if g.isascii() and " " not in g else (g in text) for g in goals):
            extra += [r for r in related if r.lower() not in text and r not in extra]
    return extra
