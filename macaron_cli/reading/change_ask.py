"""A change request as the change rules read it: the app's spec and settings being edited,
what was done, what was already so and what cannot be done. One type, read and edited by
every rule module (change_rules, change_lists, change_people, change_numbers).

What the request is told (what the app already does, what the rules cannot do) is said in the
request's own language, so it is written only here, from lang's lines: `already` and `cannot`
(tests/test_reading_change_ask.py fails on a rule module that writes those lists itself)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from macaron_cli import lang
from macaron_cli.manifest import Manifest
from macaron_cli.reading.slots import Slots
from macaron_cli.spec import AppSpec, Measure


@dataclass
class Asked:
    text: str
    slots: Slots
    remove: bool
    spec: AppSpec
    settings: dict[str, Any]
    manifest: Manifest
    done: list[str]
    missing: list[str]
    touched: set[str]
    held: list[str] = field(default_factory=list)  # what it asked that the app already does, said (`already`)
    language: str = "en"
    new_name: str | None = None  # the name a rename asks for, as said (taken out of `text`)
    before: AppSpec | None = None  # the app's spec as the request found it

    def cannot(self, reason: str, **values: str) -> None:
        """What the request asked that the rules cannot do, in its own language."""
        self.missing.append(lang.line(f"cannot.{reason}", self.language).format(**values))

    def already(self, reason: str, **values: str) -> None:
        """What the request asked that the app already does, in its own language (lang's
        already.<reason>; change.already says the sentence around it)."""
        self.held.append(lang.line(f"already.{reason}", self.language).format(**values))

    def no_rule_reads(self, text: str) -> None:
        """A request no rule reads, named as said (maker/refusal.py: not a change the rules know)."""
        self.missing.append(f"“{text}”")

    def listed(self, things: list[str] | tuple[str, ...]) -> str:
        """Things or names as the request's language joins them in a line (、 in Japanese)."""
        return lang.line("page.list_join", self.language).join(things)

    def named(self, measure: Measure) -> str:
        """A measure as the reply names it: in English by its kind ("blood pressure"), in another
        language by the name the app shows it under, since a measure's kind is an English word."""
        kind = measure.key.replace("_", " ")
        return kind if self.language == "en" else measure.name or kind
