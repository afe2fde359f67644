"""A change to a made app with a model: `macaron change APP "REQUEST"` when Claude is
configured (or with --draft / --local-only).

A change is a make's Mode over an existing app (modes.CHANGE_OF: the same phases, its
checkpoints named `change-N`, `change-N-fix-1`…): the brief is found for the request and
cleared by the gate for every model it goes to; the model that writes first says the new
spec (model_spec.ask_spec, with the app's spec now; the rules' reading of the request fills
what it gets wrong, and says so); the spec is written and fitted as an offline change
writes it; then the make's own phases run in the app's repo (the coder and its
frontend/backend subagents, verify, fix rounds). A budget or model stop keeps the work at a
checkpoint and `macaron change APP --resume` goes on. Its record is `.macaron/change.json`
(state.CHANGE_FILE), beside the make's; the person's data files are never touched.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from macaron_cli import config
from macaron_cli.errors import UserError
from macaron_cli.maker.modes import CHANGE_OF, requested_mode
from macaron_cli.maker.progress import Progress
from macaron_cli.maker.request import MakeRequest
from macaron_cli.maker.run import Mode
from macaron_cli.maker.state import CHANGE_FILE
from macaron_cli.untrusted import git as untrusted_git

if TYPE_CHECKING:
    from macaron_cli.maker.change_plan import ChangeResult
    from macaron_cli.maker.plan import Plan

MAX_FILES = 40  # the map of the app's files the coder is shown


def wanted(options: MakeRequest, cloud_configured: bool) -> Mode | None:
    """The change's mode when a model makes it (None: by rules, offline)."""
    mode = requested_mode(options, cloud_configured)
    return CHANGE_OF.get(mode.name)


def check(options: MakeRequest, mode: Mode, settings: config.Settings):
    """The make's checks, before the person is asked and before anything is written; the
    local model's endpoint (with --draft/--local-only) and the budget."""
    from macaron_cli.maker import containment
    from macaron_cli.maker.plan import checked_local_endpoint, untrusted_code
    from macaron_cli.maker.request import checked_budget, refuse_unpriced
    from macaron_cli.maker.session import model_configured
    from macaron_cli.models import registry

    budget = checked_budget(options, settings)
    local = checked_local_endpoint(options, model_configured(), settings)
    if mode.uses_claude:
        refuse_unpriced(registry.coder(settings).model, budget, settings)
        containment.require(options.accept_unsandboxed)
    if local is not None:
        refuse_unpriced(local.model, budget, settings, local.url)
    untrusted = untrusted_code(options, mode)
    if untrusted:
        from macaron_cli.sandbox import sandbox_for_untrusted

        sandbox_for_untrusted(untrusted, options.accept_unsandboxed, settings=settings)
    return local, budget


def change_by_model(plan: Plan, settings: config.Settings, progress: Progress) -> ChangeResult:
    """The change's plan (the brief, the model's new spec, its checkpoint), then the spec
    written and the make's phases run over the app."""
    from macaron_cli.checkpoints import AppRepo
    from macaron_cli.maker.change_plan import change_of, next_change, plan_over, rendered, run_change
    from macaron_cli.maker.model_spec import ask_spec, spec_model
    from macaron_cli.maker.plan import open_memory

    mode, change = plan.mode, change_of(plan)
    local, budget = (plan.local_endpoint, plan.budget) if plan.checked else check(plan.request, mode, settings)
    store = open_memory(settings)
    to = mode.destinations(settings, local.url if local else None)
    progress.phase("brief", "what macaron knows that bears on this change")
    brief = _brief(plan, store, settings, to)
    endpoint, destination, max_tokens = spec_model(mode, settings, local)
    progress.phase("spec", f"{endpoint.model or 'the model'} says what the app tracks after the change")
    local_settings = settings if endpoint is local else None  # a local server's context is small: the request fits it
    rules, now = change.after, change.before
    assert rules is not None  # the rules' reading (change_rules.understand)
    asked = ask_spec(
        brief, endpoint, destination, rules, current=now, max_tokens=max_tokens, local_settings=local_settings
    )
    if asked.note:
        progress.note(f"  {asked.note}")
    app = plan.app
    manifest, cfg = rendered(replace(change, after=asked.spec))
    repo = AppRepo.open(app)
    with repo.lock():
        more = {"budget": budget, "store": store, "asked": asked, "files": files_map(app)}
        plan = plan_over(plan, brief, asked.spec, cfg, next_change(repo), asked.by, local_endpoint=local, **more)
        return run_change(plan, manifest, cfg, repo, settings, progress)


def resume_change(app_ref: str | None, options: MakeRequest, settings: config.Settings, progress: Progress):
    """`macaron change APP --resume`: a change stopped by its budget or a model error, on
    from its last checkpoint (the make's own resume, over the change's record)."""
    from macaron_cli.apps import ref_for, resolve_app
    from macaron_cli.maker import state as make_state
    from macaron_cli.maker.change_plan import ended
    from macaron_cli.maker.pipeline import resume_run

    app = resolve_app(app_ref)
    state = make_state.load(app, CHANGE_FILE)
    if state is None or not state.change or state.status in ("done", "tests-failed"):
        slug = ref_for(app)
        raise UserError(f'{slug} has no stopped change to resume; change it: macaron change {slug} "…".')
    return ended(app, state, resume_run(app, state, options, progress, settings), settings)


def _brief(plan: Plan, store, settings: config.Settings, to):
    """The brief found for the request (and what the app is about), cleared for `to`; in the
    app's own language, units and currency."""
    from macaron_cli.maker.brief import build_brief
    from macaron_cli.maker.change_plan import change_of

    change = change_of(plan)
    description = change.manifest.description if change.manifest else ""
    about = " ".join(filter(None, [description, plan.title]))
    brief = build_brief(change.request, store, settings, to, context=about)
    own = {k: change.config[k] for k in ("units", "currency", "volume_unit") if change.config.get(k)}
    return replace(
        brief,
        idea=f"a change to their app {plan.title}: {change.request}",
        language=str(change.config.get("language", "en")),
        app_settings={**brief.app_settings, **own},
    )


def files_map(app: Path) -> list[str]:
    """A short map of the app's tracked files (its data is not tracked)."""
    out = untrusted_git.run(app, "ls-files", capture_output=True, text=True).stdout.split()
    return out[:MAX_FILES] + ([f"… {len(out) - MAX_FILES} more"] if len(out) > MAX_FILES else [])
