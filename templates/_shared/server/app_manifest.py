"""An app's contract with macaron: its manifest (`macaron.json`) and the digest its
life-log command prints, each one typed declaration.

This file is generated from macaron's templates/_shared/ (one source for every template
and for macaron itself, which reads every manifest and digest through it); change it there.

A template's `macaron.json` says what it is for (name, title, description, examples,
keywords: how an idea finds it), what of a spec it renders (`renders`, `requires`, `fit`),
its settings (`parameters`), how to run, test and digest it, and what its records mean.
`macaron make` copies it into the app and adds the app's own keys (template, from, idea,
spec). Keys it does not know (a coder's own) are kept as they are when it is rewritten.
Only the standard library: the app runtime and macaron both import it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

MANIFEST = "macaron.json"
PERIODS = ("day", "week", "month")  # what a digest covers; records.period picks the app's own


class ManifestError(ValueError):
    """The manifest is not valid; the message says which key and what it must be."""


@dataclass(frozen=True)
class Records:
    """What the app's records mean, for the memory macaron keeps of them."""

    domain: str = "general"  # the memory domain (health, finance, …)
    period: str = "week"  # the rolling memory kept: one of PERIODS
    kind: str = ""  # measures, money, entries, tasks, conversions
    meaning: str = ""  # its tables in a sentence


# Each key of macaron.json: (the attribute it becomes, what it is, for templates/README.md).
KEYS: dict[str, tuple[str, str]] = {
    "name": ("name", "the template's name (its folder's name)"),
    "title": ("title", "what the app is called; make writes the person's title over it"),
    "description": ("description", "what it is for, in a sentence: compared with an idea by meaning"),
    "examples": ("examples", "ideas it is made for, in every language macaron speaks: compared by meaning"),
    "keywords": ("keywords", "one flat list of words in en, ja, ko, zh and tl: an idea's words that pick it"),
    "renders": ("renders", 'what of a spec it shows ("measures", "measures.values", …): its fit to an idea'),
    "requires": ("requires", "what a spec must need for it to be chosen (a countdown only for a countdown)"),
    "fit": ("fit", "setting → the spec part it is written from (config/app.json fitted to the spec)"),
    "parameters": ("parameters", "{name: {type, default, description[, enum]}}: the settings in config/app.json"),
    "data_files": ("data_files", "the person's data, relative and git-ignored (data/app.db)"),
    "run": ("run", "argv that serves the app, with {python} and {port}"),
    "test": ("test", "argv of its tests, with {python}"),
    "main_selector": ("main_selector", "the element that must render when it opens (#app)"),
    "digest": ("digest", "argv of the life-log digest, with {python}, {since}, {today}, {period}"),
    "records": ("records", "what its records mean: domain, period (day, week, month), kind, meaning"),
    "template": ("template", "an app's: the template it was made from"),
    "from": ("from_app", "an app's: the app or bundle it started from (--from), else null"),
    "idea": ("idea", "an app's: what the person asked for"),
    "spec": ("spec", "an app's: what it tracks (server/app_spec.py)"),
}


@dataclass(frozen=True)
class Manifest:
    """One app's or template's macaron.json, checked. `raw` keeps every key as written."""

    name: str = ""
    title: str = ""
    description: str = ""
    examples: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    renders: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    fit: Mapping[str, str] = field(default_factory=dict)
    parameters: Mapping[str, Any] = field(default_factory=dict)
    data_files: tuple[str, ...] = ()
    run: tuple[str, ...] | None = None
    test: tuple[str, ...] | None = None
    main_selector: str = "#app"
    digest: tuple[str, ...] | None = None
    records: Records = Records()
    template: str = ""
    from_app: str | None = None
    idea: str = ""
    spec: Mapping[str, Any] | None = None
    folder: Path | None = field(default=None, compare=False)  # where it was read from
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def label(self) -> str:
        """What to call the app: its title, else its name, else its folder's name."""
        return self.title or self.name or (self.folder.name if self.folder else "")

    def to_json(self) -> dict[str, Any]:
        """The manifest as macaron.json stores it, every key in its order."""
        return dict(self.raw)

    def updated(self, **changes: Any) -> Manifest:
        """A new manifest with these keys (JSON names; `from` as from_app) set, checked."""
        names = {attr: key for key, (attr, _) in KEYS.items()}
        data = {**self.raw, **{names.get(k, k): v for k, v in changes.items()}}
        return Manifest.from_json(data, self.folder)

    @classmethod
    def from_json(cls, data: Any, folder: Path | None = None) -> Manifest:
        where = str(folder / MANIFEST) if folder else MANIFEST
        if not isinstance(data, Mapping):
            raise ManifestError(f"{where} must hold one JSON object.")
        records = _mapping(data, "records", where)
        period = _text(records, "period", where, "week")
        if period not in PERIODS:
            raise ManifestError(f'{where}: "records.period" must be one of {", ".join(PERIODS)}, not {period!r}.')
        run = _argv(data, "run", where)
        return cls(
            name=_text(data, "name", where),
            title=_text(data, "title", where),
            description=_text(data, "description", where),
            examples=_texts(data, "examples", where),
            keywords=_texts(data, "keywords", where),
            renders=_texts(data, "renders", where),
            requires=_texts(data, "requires", where),
            fit={str(k): str(v) for k, v in _mapping(data, "fit", where).items()},
            parameters=dict(_mapping(data, "parameters", where)),
            data_files=_texts(data, "data_files", where),
            run=run,
            test=_argv(data, "test", where),
            main_selector=_text(data, "main_selector", where, "#app"),
            digest=_argv(data, "digest", where),
            records=Records(
                domain=_text(records, "domain", where, "general"),
                period=period,
                kind=_text(records, "kind", where),
                meaning=_text(records, "meaning", where),
            ),
            template=_text(data, "template", where),
            from_app=_text(data, "from", where) or None,
            idea=_text(data, "idea", where),
            spec=_mapping(data, "spec", where) if data.get("spec") is not None else None,
            folder=folder,
            raw=dict(data),
        )

    @classmethod
    def load(cls, folder: Path) -> Manifest:
        """The manifest in `folder`. FileNotFoundError when there is none; ManifestError
        when it is not JSON or a key is not what it must be."""
        path = Path(folder) / MANIFEST
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise ManifestError(f"{path} is not valid JSON ({exc}).") from None
        return cls.from_json(data, Path(folder))


def _text(data: Mapping, key: str, where: str, default: str = "") -> str:
    value = data.get(key)
    if value is None or value == "":
        return default
    if not isinstance(value, str):
        raise ManifestError(f'{where}: "{key}" must be a string.')
    return value


def _texts(data: Mapping, key: str, where: str) -> tuple[str, ...]:
    value = data.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ManifestError(f'{where}: "{key}" must be a list of strings.')
    return tuple(value)


def _mapping(data: Mapping, key: str, where: str) -> Mapping:
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ManifestError(f'{where}: "{key}" must be an object.')
    return value


def _argv(data: Mapping, key: str, where: str) -> tuple[str, ...] | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not value or not all(isinstance(a, str) for a in value):
        raise ManifestError(f'{where}: "{key}" must be a list of strings, e.g. ["{{python}}", "-m", "…"].')
    return tuple(value)


# ── the digest ──────────────────────────────────────────────────────────────────────────
# What `python -m server.macaron_life` prints (the manifest's "digest" command): one JSON
# object, worded in the app's language. The fields every digest must have, and their types:
DIGEST_REQUIRED: dict[str, type] = {"summary": str, "lines": list, "count": int}
DIGEST_TYPED: dict[str, type] = {**DIGEST_REQUIRED, "latest": list, "notices": list}


def digest_problem(data: Any) -> str | None:
    """What is wrong with a printed digest (None: nothing), in words for its error."""
    if not isinstance(data, Mapping):
        return "did not print one JSON object"
    for key, kind in DIGEST_TYPED.items():
        if key not in data and key not in DIGEST_REQUIRED:
            continue
        if not isinstance(data.get(key), kind) or (kind is int and isinstance(data.get(key), bool)):
            return f'has no "{key}" ({kind.__name__})'
    return None


@dataclass
class Digest:
    """What an app says it recorded in a period, worded in the app's language."""

    app: str
    title: str
    language: str
    since: str
    today: str
    period: str
    summary: str
    lines: list[str]
    count: int = 0
    latest: list[dict] = field(default_factory=list)  # [{"day", "text"}], newest first
    last_record_at: str | None = None
    notices: list[dict] = field(default_factory=list)  # [{"kind": celebrate|missed, "key", "text"}]
    facts: dict = field(default_factory=dict)
    cached: bool = False  # macaron's: read from its cache, not run again

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def to_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "cached"}

    @classmethod
    def from_json(cls, app: str, data: Mapping[str, Any], cached: bool = False) -> Digest:
        """A checked digest's JSON (digest_problem found nothing) as a Digest of `app`."""
        known = {f.name: data[f.name] for f in fields(cls) if f.name in data and f.name not in ("app", "cached")}
        known.setdefault("title", app)
        for key in ("language", "since", "today", "period"):
            known.setdefault(key, "")
        known["lines"] = [str(line) for line in known["lines"]]
        return cls(app=app, cached=cached, **known)
