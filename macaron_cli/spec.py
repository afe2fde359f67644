"""The app spec on macaron's side: the typed names of templates/_shared/server/app_spec.py
(its one declaration, which every app also carries), and reading one from an app.

mypy reads the declaration itself (pyproject's mypy_path); at run time it is loaded from
the installed templates, so macaron and the apps it makes can never disagree about it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from macaron_cli.manifest import Manifest, manifest_or_none

if TYPE_CHECKING:
    from app_spec import (
        CONVERSION_FAMILIES,
        SPEC_VERSION,
        AppSpec,
        Conversion,
        Deck,
        Items,
        Journal,
        Measure,
        Money,
        Plan,
        SpecError,
        Tasks,
        Timer,
        json_schema,
        parse_spec,
        spec_of,
    )
else:
    from macaron_cli.resources import app_spec_module

    _declared = app_spec_module()
    AppSpec, Measure, Money, Items, Tasks = (
        _declared.AppSpec,
        _declared.Measure,
        _declared.Money,
        _declared.Items,
        _declared.Tasks,
    )
    Conversion, Journal, SpecError = _declared.Conversion, _declared.Journal, _declared.SpecError
    Timer, Deck, Plan = _declared.Timer, _declared.Deck, _declared.Plan
    parse_spec, spec_of, json_schema = _declared.parse_spec, _declared.spec_of, _declared.json_schema
    SPEC_VERSION, CONVERSION_FAMILIES = _declared.SPEC_VERSION, _declared.CONVERSION_FAMILIES

__all__ = [
    "CONVERSION_FAMILIES",
    "SPEC_VERSION",
    "AppSpec",
    "Conversion",
    "Deck",
    "Items",
    "Journal",
    "Measure",
    "Money",
    "Plan",
    "SpecError",
    "Tasks",
    "Timer",
    "app_spec",
    "json_schema",
    "parse_spec",
    "spec_in",
    "spec_of",
]


def app_spec(app: Path) -> AppSpec | None:
    """The spec an app declares in its macaron.json (None: none, or one that is broken)."""
    manifest = manifest_or_none(app)
    return spec_in(manifest) if manifest else None


def spec_in(manifest: Manifest) -> AppSpec | None:
    """The spec a manifest declares (None: none, or one that is broken)."""
    return spec_of({"spec": manifest.spec})


def missing(spec: AppSpec, manifest: Manifest) -> list[str]:
    """What the spec needs that the template does not render (its manifest's "renders"),
    in the spec's order."""
    return [need for need in spec.needs() if need not in manifest.renders]


def main_shape(spec: AppSpec) -> str | None:
    """The shape the app is about ("measures", "money", …): what its template must render."""
    needs = spec.needs()
    return needs[0].split(".")[0] if needs else None


# What each capability means to a person, for make's summary.
_NEEDS_IN_WORDS = {
    "measures": "numbers logged over time",
    "measures.free_entry": "typing any value (not only steps of one size)",
    "measures.values": "several values per entry (e.g. systolic/diastolic)",
    "measures.times": "times of day (e.g. morning and evening)",
    "money": "money",
    "money.debts": "who owes whom",
    "money.split": "bills split between people",
    "items": "a collection of items",
    "items.rating": "a rating per item",
    "tasks": "tasks",
    "tasks.assignees": "who does each task",
    "tasks.repeat": "tasks that repeat",
    "tasks.countdown": "a countdown to a date",
    "timer": "a timer (work and break minutes)",
    "deck": "a study deck (cards with two sides)",
    "deck.review": "spaced review (cards come back)",
    "plan": "a plan for the week",
    "plan.meals": "a weekly meal plan (days × meals)",
}


def in_words(need: str) -> str:
    """A capability name ("measures.values") as a person reads it."""
    if need in _NEEDS_IN_WORDS:
        return _NEEDS_IN_WORDS[need]
    shape, _, detail = need.partition(".")
    if shape == "conversions":
        return f"converting {detail.replace('_', ' ')}"
    return f"a {detail} journal" if shape == "journal" else need
