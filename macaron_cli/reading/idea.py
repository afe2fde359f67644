"""An idea read once: the `Reading` a make carries from the template's choice to the app's
spec and config, so every part of the make sees the same words read the same way.

Read here and nowhere else in a make (bench/make_modules.py counts the reads): the template
is chosen on the Reading, the spec written from it, the app's units taken from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from macaron_cli.reading.slots import Slots, read
from macaron_cli.reading.text import detect_language


@dataclass(frozen=True)
class Reading:
    """What an idea says: its words as said, and what they were read as."""

    idea: str  # as the person said it, without the spaces around it
    said: Slots  # people, lists, numbers with units and periods, a pair, a rate, dates with names, times
    language: str  # the language it is written in, by its script and small words


def read_idea(idea: str, today: date | None = None) -> Reading:
    """The idea read, once."""
    text = idea.strip()
    return Reading(idea=text, said=read(text, today), language=detect_language(text))


def reading_of(idea: str | Reading) -> Reading:
    """The Reading a rule works on: the one given, or the idea read now (a rule asked alone,
    as a test or a bench asks it)."""
    return idea if isinstance(idea, Reading) else read_idea(idea)
