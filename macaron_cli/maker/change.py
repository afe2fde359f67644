"""`macaron change APP "REQUEST"`: an existing app changed as the person asks.

Offline (or with no model configured) the request is read by rules (change_rules.py) into
the app's next spec and settings; the app is re-rendered from them as make renders a new
one (fit.fit_config: the template's own "fit" of a spec onto its config), verified like a
make, and kept as checkpoint `change-N` whose message holds the request. The person's
records are data outside git: a change never touches them.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from macaron_cli.apps import APP_MANIFEST
from macaron_cli.config import Settings
from macaron_cli.errors import UserError
from macaron_cli.maker.change_rules import Edit, understand
from macaron_cli.maker.progress import Progress
from macaron_cli.maker.result import MakeResult
from macaron_cli.maker.scaffold import APP_CONFIG, write_json
from macaron_cli.maker.spec import AppSpec, spec_of

PHASE = "change"


@dataclass
class ChangeResult(MakeResult):
    request: str = ""
    changed: dict = field(default_factory=dict)  # each spec field or setting: {"before": …, "after": …}
    done: list = field(default_factory=list)  # what changed, in words

    def to_json(self) -> dict:
        """make's --json object, and the request with what it changed."""
        return {**super().to_json(), "request": self.request, "changed": self.changed}


@dataclass
class Planned:
    """A change read and not yet written: what `change_app` writes once the person agrees."""

    app: Path
    manifest: dict
    config: dict
    spec: AppSpec
    edit: Edit
    result: ChangeResult
    which: str | None  # how the app was found when none was named ("your newest app")


def plan_change(app_ref: str | None, request: str, offline: bool) -> Planned:
    """The request read against the app's spec; nothing written. Refused (UserError) before
    anything is read when there is no request or a model would be needed."""
    from macaron_cli.apps import ref_for, resolve_app
    from macaron_cli.maker.session import model_configured

    request = request.strip()
    if not request:
        raise UserError('say what to change: macaron change APP "add my pulse".')
    app = resolve_app(app_ref)
    slug = ref_for(app)
    if not offline and model_configured():
        raise UserError(
            "changing an app with a model is not built yet; change it by rules: "
            f"macaron change {slug} {shlex.quote(request)} --offline"
        )
    manifest = _read(app / APP_MANIFEST)
    spec = spec_of(manifest)
    if spec is None:
        raise UserError(
            f"{slug} has no spec of what it tracks (made before specs, or hand-edited); rules cannot change it."
        )
    config = _read(app / APP_CONFIG)
    edit = understand(request, spec, config, manifest)
    result = ChangeResult(app=slug, path=str(app), template=str(manifest.get("template", "")), mode="offline")
    result.request, result.missing, result.spec = request, list(edit.missing), spec.to_json()
    result.title = str(config.get("title") or manifest.get("title") or slug)
    result.language = str(config.get("language", "en"))
    if not edit.done:
        result.status = "nothing"
    return Planned(app, manifest, config, spec, edit, result, None if app_ref else _which(app))


def change_app(planned: Planned, settings, progress: Progress) -> ChangeResult:
    """The change written, verified and checkpointed (a plan with nothing to do is returned as it is)."""
    if not planned.edit.done:
        return planned.result
    p = planned
    return _apply(p.app, p.result.app, p.manifest, p.config, p.spec, p.edit, p.result, settings, progress)


def _which(app: Path) -> str:
    here = Path.cwd().resolve()
    return "the app you are in" if app.resolve() in (here, *here.parents) else "your newest app"


def _read(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"{path} cannot be read ({exc}); restore it with `macaron rollback`.") from None
    return data if isinstance(data, dict) else {}


def rendered(manifest: dict, config: dict, edit: Edit) -> tuple[dict, dict]:
    """macaron.json and config/app.json after the edit: the spec fitted onto the template's
    defaults exactly as make fits a new app's, the person's other settings kept."""
    from macaron_cli.maker.fit import fit_config
    from macaron_cli.resources import templates_dir

    defaults_path = templates_dir() / str(manifest.get("template", "")) / APP_CONFIG
    defaults = json.loads(defaults_path.read_text(encoding="utf-8")) if defaults_path.exists() else {}
    fitted = fit_config(manifest, edit.spec, defaults)
    cfg = {**config, **{key: fitted[key] for key in manifest.get("fit") or {} if key in fitted}, **edit.settings}
    new_manifest = {**manifest, "spec": edit.spec.to_json()}
    if "title" in edit.settings:
        new_manifest["title"] = edit.settings["title"]
    return new_manifest, cfg


def _apply(app, slug, manifest, config, spec: AppSpec, edit: Edit, result: ChangeResult, settings, progress):
    from macaron_cli.apps import register
    from macaron_cli.checkpoints import AppRepo
    from macaron_cli.ledger import signals
    from macaron_cli.maker.run import tests_status
    from macaron_cli.sandbox.verify import verify_app

    repo = AppRepo.open(app)
    with repo.lock():
        new_manifest, cfg = rendered(manifest, config, edit)
        progress.phase(PHASE, "; ".join(edit.done))
        write_json(app / APP_MANIFEST, new_manifest)
        write_json(app / APP_CONFIG, cfg)
        progress.phase("verify", "tests, then open it in a headless browser")
        report = verify_app(app, screenshot=True, settings=settings)
        progress.phase("verify", "passed" if report.ok else f"{len(report.problems)} problem(s)")
        phase = f"{PHASE}-{1 + sum(c.phase.startswith(PHASE + '-') for c in repo.checkpoints())}"
        repo.checkpoint(phase, f"change: {result.request}", tests=tests_status(report), cost_usd=0.0)
    result.changed = changed(spec, edit.spec, config, cfg)
    result.done, result.spec = list(edit.done), edit.spec.to_json()
    result.title = str(cfg.get("title") or result.title)
    result.checkpoints = [c.to_json() for c in repo.checkpoints()]
    result.tests, result.opened = tests_status(report), bool(report.opened)
    result.screenshot = str(report.screenshot) if report.screenshot else None
    result.problems = list(report.problems)
    register(slug, title=result.title, tests=result.tests, opened=result.opened)
    signals.app_event(slug, "change", request=result.request, mode="offline", checkpoint=phase, done=result.done)
    if not report.ok:
        result.status = "tests-failed"
        result.message = f"The changed app does not pass verification: {'; '.join(report.problems[:3])}."
        result.message += f" Undo it with `macaron rollback {slug} --steps 1 --yes`."
    return result


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


# ── the command ──────────────────────────────────────────────────────────────────────────
def change(app_ref: str | None, request: str, offline: bool, yes: bool, json_out: bool, settings: Settings) -> int:
    """`macaron change`, with the settings maker/commands.py loaded once."""
    from macaron_cli.maker.progress import run_shown
    from macaron_cli.output import Out

    planned = plan_change(app_ref, request, offline)
    if planned.which and not json_out:
        Out(stderr=True).text(f"changing {planned.result.app} ({planned.which})")
    if planned.edit.done and sys.stdin.isatty() and not json_out and not yes and not _ask(planned):
        planned.result.status, planned.result.message = "declined", "Nothing was changed."
        _summary(planned.result)
        return 2
    result = run_shown(lambda progress: change_app(planned, settings, progress), json_out, _summary)
    return 0 if result.ok else 2 if result.status in ("nothing", "declined") else 1


def _ask(planned: Planned) -> bool:
    """The change in words, then yes or no (asked before any progress is drawn)."""
    import typer

    from macaron_cli.output import Out

    Out(stderr=True).line("Change [bold]{}[/]: {}", planned.result.title, "; ".join(planned.edit.done))
    return typer.confirm("Go ahead?", default=True)


def missing_hint(result: ChangeResult) -> str:
    """How to get what the rules cannot do: a model making it from this app."""
    return f"macaron make --from {result.app} {shlex.quote(result.request)} --yes"


def _summary(result: ChangeResult) -> None:
    from macaron_cli.output import Out

    out, err = Out(), Out(stderr=True)
    if result.status == "nothing":
        err.line(
            "Nothing changed: the rules cannot do {}. A model can: connect one, then run {}",
            "; ".join(result.missing),
            missing_hint(result),
        )
        return
    if result.missing:
        err.line(
            "[yellow]Not done[/]: {} (the rules cannot). A model can: connect one, then run {}",
            "; ".join(result.missing),
            missing_hint(result),
        )
    if result.status == "declined":
        out.text(result.message)
        return
    mark = "[green]✓[/]" if result.ok else "[red]✗[/]"
    out.line(mark + " [bold]{}[/] changed: {}  [dim]{}[/]", result.title, "; ".join(result.done), result.path)
    for path, move in result.changed.items():
        out.text(f"  {path}: {_shown(move['before'])} → {_shown(move['after'])}")
    out.text(f"  tests {result.tests}; opens in a browser: {'yes' if result.opened else 'no'}")
    out.text(f"  checkpoint: {result.checkpoints[-1]['phase']}; undo it: macaron rollback {result.app} --steps 1 --yes")
    for problem in result.problems[:5]:
        out.text(f"  ✗ {problem}")
    if result.message:
        out.text(result.message)
    out.line("Run it: [bold]macaron run {}[/]", result.app)


def _shown(value: Any) -> str:
    if value is None:
        return "—"
    return json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else str(value)
