"""A change request as the change rules read it: the app's spec and settings being edited,
what was done, what was already so and what cannot be done. One type, read and edited by
every rule module (change_rules, change_lists, change_people, change_numbers)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from macaron_cli import lang
from macaron_cli.manifest import Manifest
from macaron_cli.reading.slots import Slots
from macaron_cli.spec import AppSpec


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
    already: list[str] = field(default_factory=list)  # measure keys or parts the request was about
    language: str = "en"
    new_name: str | None = None  # the name a rename asks for, as said (taken out of `text`)
    before: AppSpec | None = None  # the app's spec as the request found it

    def cannot(self, reason: str, **values: str) -> None:
        """What the request asked that the rules cannot do, in its own language."""
        self.missing.append(lang.line(f"cannot.{reason}", self.language).format(**values))
