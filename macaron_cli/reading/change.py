"""A change to a made app, typed: what the one change reader (change_rules.understand) read
in the request against the app, and what the change's Plan and record add as it is made.

A `Change` is frozen: each step that learns more (its checkpoint, who wrote its spec, the
page before it, what the page shows differently after) makes a new one with
`dataclasses.replace`. It is carried by the change's `Plan` (maker/plan.py) and kept in its
record (`MakeState.change`, `.macaron/change.json`) under the keys `to_record` writes, the
ones records written before it was typed hold, so a stopped change resumes either way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, Literal, get_args

from macaron_cli.manifest import Manifest
from macaron_cli.spec import AppSpec, SpecError, parse_spec

# Who makes a change (and who wrote its spec): the rules alone, or a model after them.
By = Literal["rules", "model"]
BY: tuple[By, ...] = get_args(By)


@dataclass(frozen=True)
class Change:
    """One change asked of a made app."""

    request: str  # as the person asked it
    before: AppSpec | None = None  # the app's spec when it was asked (None: a record that kept none)
    after: AppSpec | None = None  # the spec after it: the rules', or the model's once it answered
    config: Mapping[str, Any] = field(default_factory=dict)  # config/app.json when it was asked
    # What the rules read in the request.
    settings: Mapping[str, Any] = field(default_factory=dict)  # config/app.json keys it sets (title, units…)
    done: tuple[str, ...] = ()  # what it changes, in words
    missing: tuple[str, ...] = ()  # what it asked that the rules cannot do, in the request's language
    already: tuple[str, ...] = ()  # what it asked that the app already is, in words
    unread: bool = False  # no rule read anything in it: perhaps no change at all
    language: str = "en"  # the request's: `missing` is said in it
    manifest: Manifest | None = None  # the app's, as the request was read against it (None: read back from a record)
    # What its Plan and run add.
    by: By = "rules"  # who makes it: the rules' done and missing are its own only when "rules"
    checkpoint: str = ""  # change-N
    spec_by: By = "rules"  # who wrote `after`
    app_cost_usd: float = 0.0  # what the app cost before it: the registry keeps the sum
    files: tuple[str, ...] = ()  # the map of the app's files a model is shown
    page: dict | None = None  # what the page showed before it (verify.page_shown; None: not read)
    page_difference: tuple[str, ...] = ()  # what the page shows differently after it
    tests_reused: bool = False  # nothing the tests read changed: their last pass stands
    unknown: Mapping[str, Any] = field(default_factory=dict, repr=False)  # a record's keys this macaron does not know

    def to_record(self) -> dict[str, Any]:
        """The change as its record keeps it (make.json's `change`), in the keys and order
        records have always had; the rules' reading only where the rules make it."""
        record: dict[str, Any] = {
            "request": self.request,
            "checkpoint": self.checkpoint,
            "before": self.before.to_json() if self.before else None,
            "after": self.after.to_json() if self.after else None,
            "config": dict(self.config),
            "spec_by": self.spec_by,
            "app_cost_usd": self.app_cost_usd,
        }
        if self.by == "rules":
            record |= {"done": list(self.done), "missing": list(self.missing)}
        else:
            record["files"] = list(self.files)
        record["page"] = self.page
        if self.page_difference:
            record["page_difference"] = list(self.page_difference)
        record["tests_reused"] = self.tests_reused
        return {**self.unknown, **record}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Change:
        """A change read back from its record (one a person or another macaron wrote: what
        is missing or malformed is left at its default, a key it does not know kept as it was)."""
        spec_by = record.get("spec_by")
        known = {f.name for f in fields(cls)}
        return cls(
            request=str(record.get("request") or ""),
            before=_spec(record.get("before")),
            after=_spec(record.get("after")),
            config=dict(record.get("config") or {}),
            done=_strings(record.get("done")),
            missing=_strings(record.get("missing")),
            by="rules" if "done" in record or "missing" in record else "model",
            checkpoint=str(record.get("checkpoint") or ""),
            spec_by=spec_by if spec_by in BY else "rules",
            app_cost_usd=_number(record.get("app_cost_usd")),
            files=_strings(record.get("files")),
            page=record.get("page") if isinstance(record.get("page"), dict) else None,
            page_difference=_strings(record.get("page_difference")),
            tests_reused=bool(record.get("tests_reused")),
            unknown={key: value for key, value in record.items() if key not in known},
        )


def _spec(raw: Any) -> AppSpec | None:
    try:
        return parse_spec(raw) if raw else None
    except SpecError:
        return None


def _strings(raw: Any) -> tuple[str, ...]:
    return tuple(str(item) for item in raw) if isinstance(raw, list | tuple) else ()


def _number(raw: Any) -> float:
    return float(raw) if isinstance(raw, int | float) else 0.0
