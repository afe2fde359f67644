"""What the friend says on its own, in the person's language: its lines by key, each language's
own in its file in macaron_cli/lang/ (`LINES`, the keys declared in lang.SAYINGS); a key a
language lacks is said in English, never left out.

These are sentences the friend writes: its greeting, how it speaks a language, and the lines
around a change to an app (the question, progress, the result). Names, numbers and what the
rules read ("water goal 3000 milliliter") go in as values.
"""

from __future__ import annotations

from macaron_cli import lang


def said(language: str, key: str, **values) -> str:
    """The line `key` in `language` (English where that language has none), filled in."""
    return lang.line(key, language).format(**values)


def has(key: str) -> bool:
    return key in lang.SAYINGS
