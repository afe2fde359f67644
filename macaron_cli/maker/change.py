"""`macaron change APP "REQUEST"`: an existing app changed as the person asks.

Offline (or with no model configured) the request is read by rules (change_rules.py) into
the app's next spec and settings; the app is re-rendered from them as make renders a new
one (fit.fit_config: the template's own "fit" of a spec onto its config), verified like a
make, and kept as checkpoint `change-N` whose message holds the request. With a model the
rules' reading is the fallback for the model's spec, and the make's phases do the rest
(change_model.py). The person's records are data outside git: a change never touches them.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from macaron_cli.asking import question
from macaron_cli.config import Settings
from macaron_cli.errors import UserError
from macaron_cli.maker import refusal
from macaron_cli.maker.change_plan import (
    OF_A_CHANGE,
    PHASE,
    ChangeResult,
    by_model,
    change_of,
    changed_by,
    next_change,
    plan_over,
    read_json,
    rendered,
    rules_brief,
    run_change,
)
from macaron_cli.maker.progress import Progress
from macaron_cli.maker.request import MakeRequest, checked_request
from macaron_cli.maker.result import ending_lines, phase_lines
from macaron_cli.maker.scaffold import APP_CONFIG
from macaron_cli.manifest import read_manifest
from macaron_cli.reading.change_rules import understand
from macaron_cli.spec import spec_in

if TYPE_CHECKING:
    from macaron_cli.maker.plan import Plan

PAGE_LINES_SHOWN = 6  # of the page's difference, in the summary (--json has all of it)


def plan_change(app_ref: str | None, request: str, offline: bool, options: MakeRequest | None = None) -> Plan:
    """The change's Plan: the request read against the app's spec (its `Change`); nothing
    written. Refused (UserError) before anything is read when there is no request. By a model
    (`options`: --draft, --local-only, budget, rounds) when one is configured and not
    `offline`, else by rules."""
    from macaron_cli.apps import ref_for, resolve_app
    from macaron_cli.checkpoints import AppRepo
    from macaron_cli.maker.change_model import wanted
    from macaron_cli.maker.modes import CHANGE_OFFLINE
    from macaron_cli.maker.plan import Plan
    from macaron_cli.maker.session import model_configured

    request = checked_request(request, 'say what to change: macaron change APP "add my pulse".')
    options = replace(options or MakeRequest(), idea=request, offline=offline)
    mode = wanted(options, model_configured())
    app = resolve_app(app_ref)
    AppRepo.open(app).ready()  # a merge, a detached HEAD, another macaron: refused before anything is written
    slug = ref_for(app)
    manifest = read_manifest(app)
    spec = spec_in(manifest)
    if spec is None:
        raise UserError(
            f"{slug} has no spec of what it tracks (made before specs, or hand-edited); rules cannot change it."
        )
    config = read_json(app / APP_CONFIG)
    change = understand(request, spec, config, manifest)
    change = replace(change, by="model" if mode else "rules")  # a model may do what the rules cannot
    title = str(config.get("title") or manifest.title or slug)
    brief = rules_brief(change, config)  # a model's change finds its own when it is made
    mode = mode or CHANGE_OFFLINE
    return Plan(options, mode, app, slug, None, manifest.template, brief, change.after, title, None, change=change)


def change_app(plan: Plan, settings, progress: Progress) -> ChangeResult:
    """The change written, verified and checkpointed (a plan with nothing to do is returned as it is)."""
    if by_model(plan):
        from macaron_cli.maker.change_model import change_by_model

        return change_by_model(plan, settings, progress)
    if not change_of(plan).done:
        return ChangeResult.planned(plan)
    return _apply(plan, settings, progress)


def _which(app: Path) -> str:
    here = Path.cwd().resolve()
    return "the app you are in" if app.resolve() in (here, *here.parents) else "your newest app"


def _apply(plan: Plan, settings, progress: Progress) -> ChangeResult:
    """The rules' change written over the app, run as every make runs (its one phase:
    verified, the tests' last pass reused where nothing they read changed, kept as `change-N`)."""
    from macaron_cli.checkpoints import AppRepo

    change = change_of(plan)
    assert change.after is not None  # the rules' reading (change_rules.understand)
    repo = AppRepo.open(plan.app)
    with repo.lock():
        manifest, cfg = rendered(change)
        plan = plan_over(plan, None, change.after, cfg, next_change(repo), "rules", budget=None)
        progress.phase(PHASE, "; ".join(change.done))
        made = run_change(plan, manifest, cfg, repo, settings, progress)
    if made.status == "tests-failed":
        made.message = f"The changed app does not pass verification: {'; '.join(made.problems[:3])}."
        made.message += f" Undo it with `macaron rollback {made.app} --steps 1 --yes`."
    return made


# ── the command ──────────────────────────────────────────────────────────────────────────
def change(
    app_ref: str | None,
    request: str,
    offline: bool,
    yes: bool,
    json_out: bool,
    settings: Settings,
    options: MakeRequest | None = None,
    resume: bool = False,
) -> int:
    """`macaron change`, with the settings maker/commands.py loaded once; `options` the model's
    (--draft, --local-only, --budget, --max-rounds), `resume` a stopped change on."""
    from macaron_cli.maker.progress import run_shown
    from macaron_cli.output import Out

    if resume:
        from macaron_cli.maker.change_model import resume_change

        if request.strip():
            raise UserError("--resume goes on with the change that stopped; leave out the request, or change anew.")

        def again(progress: Progress) -> ChangeResult:
            return resume_change(app_ref, options or MakeRequest(), settings, progress)

        return _exit(run_shown(again, json_out, _summary))
    plan = check_model(plan_change(app_ref, request, offline, options), settings)
    check_walls(plan, settings)
    if not app_ref and not json_out:
        Out(stderr=True).text(f"changing {plan.slug} ({_which(plan.app)})")
    wants = change_of(plan).done or by_model(plan)
    if wants and sys.stdin.isatty() and not json_out and not yes and not _ask(plan):
        declined = ChangeResult.planned(plan)
        declined.status, declined.message = "declined", "Nothing was changed."
        _summary(declined)
        return 2
    return _exit(run_shown(lambda progress: change_app(plan, settings, progress), json_out, _summary))


def check_model(plan: Plan, settings: Settings) -> Plan:
    """A change by a model is refused (UserError) before asking, before writing: its budget,
    its destinations (the privacy gate), a local model that is not there. The plan, checked."""
    if not by_model(plan):
        return plan
    from macaron_cli.maker.change_model import check

    local, budget = check(plan.request, plan.mode, settings)
    return replace(plan, local_endpoint=local, budget=budget, checked=True)


def check_walls(plan: Plan, settings: Settings) -> None:
    """A change verifies the app, running its tests: refused (UserError) before asking,
    before writing, where no sandbox has walls and its code is not macaron's own."""
    if change_of(plan).done or by_model(plan):
        from macaron_cli.sandbox import sandbox_for_untrusted

        sandbox_for_untrusted("its tests", plan.request.accept_unsandboxed, plan.app, settings=settings)


def in_words(plan: Plan) -> str:
    """What the change will do: the rules' reading, or the request and the model that does it."""
    if by_model(plan):
        return f"{change_of(plan).request} (by {changed_by(plan.mode.name)})"
    return "; ".join(change_of(plan).done)


def _exit(result: ChangeResult) -> int:
    return 0 if result.ok else 2 if result.status in ("nothing", "declined") else 1


@question
def _ask(plan: Plan) -> bool:
    """The change in words, then yes or no (asked before any progress is drawn)."""
    import typer

    from macaron_cli.output import Out

    Out(stderr=True).line("Change [bold]{}[/]: {}", plan.title, in_words(plan))
    return typer.confirm("Go ahead?", default=True)


def _summary(result: ChangeResult) -> None:
    from macaron_cli.output import Out

    out, err = Out(), Out(stderr=True)
    if result.status == "nothing" and not result.missing:
        err.text(refusal.already(result))
        return
    if result.status == "nothing":
        err.text(refusal.not_changed(result, result.unread))
        return
    if result.missing:
        err.text(refusal.partly(result), style="yellow")
    if result.status == "declined":
        out.text(result.message)
        return
    if result.status == "unchanged":  # as make ends when no model wrote: said, no ✓, exit 1
        out.line("[yellow]■[/] [bold]{}[/] unchanged: {}  [dim]{}[/]", result.title, result.request, result.path)
        out.text(result.message)
        return
    stopped = ("budget", "model-error", "unchecked")
    mark = "[green]✓[/]" if result.ok else "[yellow]■[/]" if result.status in stopped else "[red]✗[/]"
    done = "; ".join(result.done) if result.mode == "offline" else result.request
    out.line(mark + " [bold]{}[/] changed: {}  [dim]{}[/]", result.title, done, result.path)
    for path, move in result.changed.items():
        out.text(f"  {path}: {_shown(move['before'])} → {_shown(move['after'])}")
    if result.shown:  # what the page shows differently: what makes it a change
        out.text("  the page now: " + "; ".join(result.shown[:PAGE_LINES_SHOWN]))
    if result.tests is not None:
        out.text(f"  tests {tests_said(result)}; opens in a browser: {'yes' if result.opened else 'no'}")
    if result.subagents:
        out.text(f"  changed by the coder with: {', '.join(result.subagents)}")
    mine = this_change(result)
    if mine:
        steps = len(mine)
        out.text(f"  checkpoint: {', '.join(mine)}; undo it: macaron rollback {result.app} --steps {steps} --yes")
    if result.mode != "offline":
        out.text(f"  cost: ${result.cost_usd:.4f} ({result.tokens.get('total', 0):,} tokens)")
        for line in phase_lines(result):
            out.text(line)
    for line in ending_lines(result):
        out.text(line)
    out.line("Run it: [bold]macaron run {}[/]", result.app)


def this_change(result: ChangeResult) -> list[str]:
    """The checkpoints this change made (change-N, a stop before it, its fix rounds), oldest first."""
    changes = [(m.group(1) if (m := OF_A_CHANGE.match(c["phase"])) else None, c["phase"]) for c in result.checkpoints]
    last = next((change for change, _ in reversed(changes) if change), None)
    return [name for change, name in changes if last and change == last]


def tests_said(result: ChangeResult) -> str:
    """ "passed", and when they were not run again, why their last pass stands."""
    return f"{result.tests}" + (" (not run again: nothing they read changed)" if result.tests_reused else "")


def _shown(value: Any) -> str:
    if value is None:
        return "—"
    return json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else str(value)
