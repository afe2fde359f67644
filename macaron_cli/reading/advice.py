"""Ideas that would give medical or financial advice, which need the person's yes first.

Plain trackers (water, mood, spending) are not advice; dosing, diagnosis, investing and
loans are. The words are matched in every language macaron speaks.
"""

from __future__ import annotations

import re

from macaron_cli import lang

# The words of each kind, in every language (lang's advice.medical, advice.financial).
_KINDS = ("medical", "financial")


def advice_kind(idea: str) -> str | None:
    """'medical', 'financial' or None for an idea."""
    text = idea.lower()
    return next((kind for kind in _KINDS if re.search(lang.pattern(f"advice.{kind}"), text)), None)


def advice_note(language: str) -> str:
    """The note in the app's language (lang's line advice.note), English's where it has none."""
    return lang.line("advice.note", language)
