"""What one change to a made app is, for both ways of making it (by rules in change.py,
by a model in change_model.py): its Plan, read before anything is written (the Plan carries
the request read as a `Change`, reading/change.py), the result with
each spec field before → after, the next `change-N` checkpoint, the spec rendered onto the
app's config as make fits a new one."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from macaron_cli.errors import UserError
from macaron_cli.maker.result import MakeResult
from macaron_cli.maker.scaffold import APP_CONFIG
from macaron_cli.maker.state import MakeState
from macaron_cli.manifest import Manifest
from macaron_cli.reading.change import Change
from macaron_cli.spec import AppSpec

if TYPE_CHECKING:
    from macaron_cli.maker.plan import Plan

PHASE = "change"
OF_A_CHANGE = re.compile(rf"({PHASE}-\d+)(?:-|$)")  # change-1, change-1-stopped, change-1-fix-2


@dataclass
class ChangeResult(MakeResult):
    request: str = ""
    changed: dict = field(default_factory=dict)  # each spec field or setting: {"before": …, "after": …}
    done: list = field(default_factory=list)  # what changed, in words
    shown: list = field(default_factory=list)  # what the page shows differently after it ("+ …", "− …")
    tests_reused: bool = False  # nothing the tests read changed: their last pass stands
    unread: bool = False  # no rule read anything in the request (refusal.py says so)

    @classmethod
    def of(cls, made: MakeResult, change: Change, changed: dict) -> ChangeResult:
        """A make's result (the change's phases ended as a make's do) as a change's, from its
        record's `change`: its request, each spec field before → after, what changed in words
        (the rules' own, else said from the fields), what the rules could not do, and whether
        the tests' last pass stood."""
        result = cls(**{f.name: getattr(made, f.name) for f in fields(MakeResult)}, request=change.request)
        result.changed, result.tests_reused = changed, change.tests_reused
        by_rules = change.by == "rules"
        fields_said = [f"{path} → {said(move['after'])}" for path, move in changed.items()]
        result.done = list(change.done if by_rules and change.done else fields_said)
        result.missing = list(change.missing) if by_rules else result.missing
        result.shown = list(change.page_difference)
        return result

    @classmethod
    def planned(cls, plan: Plan) -> ChangeResult:
        """A change's result before anything is written: what the rules read (a model may do
        what they cannot), "nothing" with what the app already is where they read no change."""
        change, by_model = change_of(plan), plan.mode.needs_model
        assert change.before is not None  # read against the app's spec (change.plan_change)
        result = cls(app=plan.slug, path=str(plan.app), template=plan.template_name, mode=plan.mode.name)
        result.request, result.spec = change.request, change.before.to_json()
        result.missing = [] if by_model else list(change.missing)
        result.unread = change.unread and not by_model
        result.title = plan.title
        result.language = str(change.config.get("language", "en"))
        if not change.done and not by_model:
            result.status, result.message = "nothing", "; ".join(change.already)
        return result

    def to_json(self) -> dict:
        """make's --json object, and the request with what it changed."""
        return {**super().to_json(), "request": self.request, "changed": self.changed, "page_difference": self.shown}


BY = {"change": "Claude", "change-draft": "the local model, then Claude", "change-local": "the local model"}


def changed_by(mode: str) -> str:
    """Who makes a change of this mode, in words."""
    return BY.get(mode, "rules" if mode == "offline" else "a model")


def by_model(plan: Plan) -> bool:
    return plan.mode.needs_model


def change_of(plan: Plan) -> Change:
    """The change a change's plan carries (change.plan_change made it)."""
    if plan.change is None:
        raise TypeError(f"{plan.slug}: a make's plan, not a change's")
    return plan.change


def next_change(repo) -> str:
    """The next change's checkpoint: `change-N`, N one more than any change's so far (a change
    that stopped before its own checkpoint, `change-1-stopped`, counts)."""
    numbers = [int(m.group(1).rsplit("-", 1)[1]) for c in repo.checkpoints() if (m := OF_A_CHANGE.match(c.phase))]
    return f"{PHASE}-{1 + max(numbers, default=0)}"


def plan_over(plan: Plan, brief, spec: AppSpec, cfg: dict, checkpoint: str, spec_by, files=(), **more) -> Plan:
    """The change's plan as it is written over the existing app (by rules or by a model): its
    checkpoint `change-N`, the spec after it, who wrote that, what the app cost before it
    (`files`: the map a model is shown; `more`: the model's budget, local endpoint, memory,
    answer). By rules, no brief: one with no memory in it."""
    brief = brief or rules_brief(change_of(plan), cfg)
    cost = app_cost(plan.slug)  # the app's cost before: the registry keeps the sum
    change = replace(change_of(plan), checkpoint=checkpoint, after=spec, spec_by=spec_by, app_cost_usd=cost)
    title = str(cfg.get("title") or plan.title)
    return replace(plan, brief=brief, spec=spec, title=title, change=replace(change, files=tuple(files)), **more)


def run_change(plan, manifest: Manifest, cfg: dict, repo, settings, progress) -> ChangeResult:
    """A change's plan written over the app and its mode's phases run: the make's one loop
    (pipeline.run_phases), by rules or by a model; its ending said as a change's (`ended`)."""
    from macaron_cli.maker.pipeline import begin_change, run_phases
    from macaron_cli.sandbox.verify import page_shown

    # The page before the change, read as verification reads it after: what a change is
    # judged against (maker/page_verdict.py). Its record keeps it for a --resume.
    progress.phase("page", "what the app shows before the change")
    page = page_shown(plan.app, settings=settings, accept_unsandboxed=plan.request.accept_unsandboxed)
    plan = replace(plan, change=replace(change_of(plan), page=page))
    run = begin_change(plan, manifest, cfg, repo, settings, progress)
    return ended(plan.app, run.state, run_phases(run), settings)


def ended(app: Path, state: MakeState, made: MakeResult, settings) -> ChangeResult:
    """The make's result as a change's: its request, and each spec field before → after;
    the ledger told (request, mode, destinations, cost, checkpoints)."""
    from macaron_cli.ledger import signals
    from macaron_cli.manifest import read_manifest
    from macaron_cli.spec import parse_spec, spec_in

    change = state.change or Change("", by="model")  # no record: the fields say what changed
    before = change.before or parse_spec({})
    after = spec_in(read_manifest(app)) or before
    moved = changed(before, after, dict(change.config), read_json(app / APP_CONFIG))
    result = ChangeResult.of(made, change, moved)
    mine = [c["phase"] for c in result.checkpoints if c["phase"].startswith(change.checkpoint or "?")]
    signals.app_event(
        state.slug,
        "change",
        request=result.request,
        mode=state.mode,
        by=changed_by(state.mode),
        checkpoint=change.checkpoint or None,
        checkpoints=mine,
        done=result.done,
        status=result.status,
        destinations=[d.label for d in _destinations(state, settings)],
        cost_usd=round(result.cost_usd, 6),
    )
    return result


def _destinations(state: MakeState, settings):
    """Where the change's requests went, as the gate names them (its record's mode and local model;
    a change by rules: nowhere, the app's folder not counted)."""
    from macaron_cli.maker.modes import mode_named
    from macaron_cli.maker.rebrief import recorded_local_endpoint

    local = recorded_local_endpoint(state)
    return [d for d in mode_named(state.mode).destinations(settings, local.url if local else None) if d.kind != "app"]


def rules_brief(change: Change, cfg: dict):
    """A change by rules asks no model: its brief holds no memory (cleared for nowhere but
    the app's folder), in the app's language, units and currency `cfg` (after the change)."""
    from macaron_cli.maker.brief import Brief

    own = {k: cfg[k] for k in ("units", "currency", "volume_unit") if cfg.get(k)}
    language = str(cfg.get("language", change.config.get("language", "en")))
    return Brief(change.request, language, str(cfg.get("accent", "")), own)


def app_cost(slug: str) -> float:
    """What the app cost so far (its registry entry): a change's entry is that plus its own."""
    from macaron_cli.apps import load_registry

    cost = load_registry().get(slug, {}).get("cost_usd")
    return float(cost) if isinstance(cost, int | float) else 0.0


def read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"{path} cannot be read ({exc}); restore it with `macaron rollback`.") from None
    return data if isinstance(data, dict) else {}


def rendered(change: Change) -> tuple[Manifest, dict]:
    """macaron.json and config/app.json after the change (its spec after, the settings it
    sets): the spec fitted onto the template's defaults exactly as make fits a new app's, the
    person's other settings kept."""
    from macaron_cli.reading.fit import fit_config
    from macaron_cli.resources import templates_dir

    manifest, config, spec = change.manifest, dict(change.config), change.after
    assert manifest is not None and spec is not None  # a change read against the app (change_rules.understand)

    defaults_path = templates_dir() / manifest.template / APP_CONFIG
    defaults = json.loads(defaults_path.read_text(encoding="utf-8")) if defaults_path.exists() else {}
    fitted = fit_config(manifest, spec, defaults)
    cfg = {**config, **{key: fitted[key] for key in manifest.fit if key in fitted}, **change.settings}
    if "said_events" in defaults:
        cfg["said_events"] = said_before(config, cfg)
    title = {"title": change.settings["title"]} if "title" in change.settings else {}
    return manifest.updated(spec=spec.to_json(), **title), cfg


def said_before(config: dict, cfg: dict) -> list:
    """A countdown's dates named before, oldest first, with the one this change replaces: a
    second date named is added beside the first even when the page was not opened between."""
    kept = [pair for pair in config.get("said_events") or [] if isinstance(pair, list)]
    before = [config.get("event"), config.get("day")]
    if all(before) and before != [cfg.get("event"), cfg.get("day")] and before not in kept:
        kept.append(before)
    return kept


# ── what changed ─────────────────────────────────────────────────────────────────────────
def _flat(spec: AppSpec) -> dict[str, Any]:
    """A spec as field paths: measures by their key ("measures.water.goal"), the rest by shape."""
    out: dict[str, Any] = {}
    for shape, value in spec.to_json().items():
        if shape == "measures":
            out |= {f"measures.{m['key']}": m for m in value}
        elif isinstance(value, dict):
            out |= {f"{shape}.{name}": v for name, v in value.items()}
        elif shape != "version":
            out[shape] = value
    return out


def changed(before: AppSpec, after: AppSpec, config: dict, new_config: dict) -> dict[str, dict]:
    """Each spec field and setting the change moved, before → after (a measure added or
    removed whole, a kept measure field by field)."""
    old, new = _flat(before), _flat(after)
    out: dict[str, dict] = {}
    for path in dict.fromkeys([*old, *new]):
        a, b = old.get(path), new.get(path)
        if a == b:
            continue
        if path.startswith("measures.") and a and b:
            out |= {f"{path}.{k}": {"before": a.get(k), "after": b.get(k)} for k in {*a, *b} if a.get(k) != b.get(k)}
        else:
            out[path] = {"before": a, "after": b}
    for key in ("title", "language", "units", "currency"):
        if config.get(key) != new_config.get(key):
            out[key] = {"before": config.get(key), "after": new_config.get(key)}
    return out


def said(value) -> str:
    """A spec field's new value in words (a measure by its name and unit: the ledger keeps words)."""
    if value is None:
        return "removed"
    if isinstance(value, dict) and "name" in value:
        return f"{value['name']} ({value['unit']})" if value.get("unit") else str(value["name"])
    return json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else str(value)
