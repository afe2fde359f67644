"""The make pipeline, shared by `macaron make` and `macaron chat`:

    plan (plan.py: the request checked, the brief, the template, the title, the spec; nothing
    written) → begin (the app scaffolded from the plan, its record, the registry) → the
    mode's phases, one loop (scaffold, build or draft/refine, fix rounds: modes.py), each
    checkpointed → the result (result.py).

`--resume` is the same loop over the same phases, from after the last one done. A budget
stop or a model error ends the loop with the repo at a checkpoint holding all work so far.
"""

from __future__ import annotations

from pathlib import Path

from macaron_cli import config
from macaron_cli.errors import UserError
from macaron_cli.maker.brief import Brief
from macaron_cli.maker.cost import BudgetExceeded
from macaron_cli.maker.plan import Plan, plan_make, plan_resume
from macaron_cli.maker.progress import Progress
from macaron_cli.maker.request import MakeRequest
from macaron_cli.maker.result import MakeResult, finish, registry_entry, stopped
from macaron_cli.maker.run import LOCAL_MODEL, MakeRun, Phase
from macaron_cli.maker.state import MakeState
from macaron_cli.maker.understood import settled
from macaron_cli.models.failures import ModelFailure


def make_app(request: MakeRequest, settings: config.Settings, progress: Progress | None = None) -> MakeResult:
    """`settings`: the person's, loaded by the command that asked (`macaron make`, the chat)."""
    from macaron_cli.memory import embeddings

    progress = progress or Progress()
    embeddings.choose(settings.embedding_model)  # templates are compared by the person's model too
    if request.resume:
        return resume_app(request, progress, settings)
    plan = settled(plan_make(request, settings, progress), request.understood)
    run = begin(plan, settings, progress)
    with run.repo.lock():
        return run_phases(run)


def begin(plan: Plan, settings: config.Settings, progress: Progress) -> MakeRun:
    """The app written as the plan says: scaffolded, its record, its registry entry, the brief
    in the ledger, its repo."""
    from macaron_cli import apps
    from macaron_cli.checkpoints import AppRepo
    from macaron_cli.maker import state as make_state
    from macaron_cli.maker.scaffold import first_of_its_name, scaffold
    from macaron_cli.memory.records import now_iso

    template, apps_root = plan.template, plan.app.parent
    assert template is not None  # a make's plan has its template (a change's is over its app)
    progress.phase("scaffold", f"{template.name} → {plan.app}")
    if first := first_of_its_name(plan.slug, apps_root):
        progress.note(f"  {first} is already an app of yours by that name: this makes a second one, {plan.slug}")
    if template.lineage_reason:
        progress.note(f"  starting from {template.lineage_reason}")
    app = scaffold(
        template,
        plan.brief,
        plan.slug,
        apps_root,
        title=plan.title,
        spec=plan.spec,
        reading=plan.reading,
        corrected=plan.corrected,
    )
    state = recorded(plan, settings)
    make_state.save(app, state)
    begun = {"created_at": now_iso(), **({"privacy": plan.records_privacy} if plan.records_privacy else {})}
    apps.register(state.slug, **registry_entry(state, app), **begun)
    _ledger_brief(state.slug, plan.brief, template)
    return run_for(plan, app, AppRepo.init(app), state, settings, progress)


def begin_change(plan: Plan, manifest, cfg: dict, repo, settings: config.Settings, progress: Progress) -> MakeRun:
    """A change written as its plan says over the app (its spec and settings as rendered,
    its record, the brief in the ledger when a model hears it): the run of its phases."""
    from macaron_cli.ledger import signals
    from macaron_cli.maker.scaffold import APP_CONFIG, write_json
    from macaron_cli.manifest import write_manifest

    write_manifest(plan.app, manifest)
    write_json(plan.app / APP_CONFIG, cfg)
    run = run_for(plan, plan.app, repo, recorded(plan, settings), settings, progress)
    run.save()
    if plan.mode.needs_model and plan.change:
        request, checkpoint = plan.change.request, plan.change.checkpoint or None
        signals.change_briefed(plan.slug, plan.brief.memories, request=request, checkpoint=checkpoint)
    return run


def recorded(plan: Plan, settings: config.Settings) -> MakeState:
    """The plan's record, with what the model's answer for its spec cost (the first phase's)."""
    from macaron_cli.maker.model_spec import record_cost

    state = plan.record()
    if plan.asked is not None:
        record_cost(state, plan.asked, settings, by="draft" if plan.mode.uses_local_model else "agent")
    return state


def run_for(plan: Plan, app: Path, repo, state: MakeState, settings: config.Settings, progress: Progress) -> MakeRun:
    """The run of a plan's phases, over its app written and its record begun."""
    brief, walls = plan.brief, plan.request.accept_unsandboxed
    return MakeRun(
        app, repo, state, brief, plan.store, settings, progress, plan.mode, walls, plan.local_endpoint, plan.request
    )


def run_phases(run: MakeRun) -> MakeResult:
    """The one loop: each of the mode's phases not done yet, in order, each handed the last
    verification report; a budget or model stop keeps the work and says how to go on."""
    report, phase = None, None
    try:
        for phase in run.mode.phases:
            if phase.name not in run.state.phases:
                report = phase.run(run, report)
        report = report or run.verify()
    except BudgetExceeded as exc:
        return stopped(run, run.meter, "budget", f"Stopped: {exc}")
    except ModelFailure as exc:
        return stopped(run, _meter(run, phase), "model-error", f"The {_who(phase)} failed: {exc}")
    except KeyboardInterrupt:
        stopped(run, _meter(run, phase), "interrupted", "Interrupted")  # keep the work, then stop
        raise
    finally:
        run.release()
    return finish(run, report, run.meter)


def _local(phase: Phase | None) -> bool:
    return phase is not None and phase.by == LOCAL_MODEL


def _meter(run: MakeRun, phase: Phase | None):
    """A local phase's tokens so far are in the record (phase_costs.record), not yet the meter's."""
    return run.counted() if _local(phase) else run.meter


def _who(phase: Phase | None) -> str:
    return "local model" if _local(phase) else "model"


def resume_app(request: MakeRequest, progress: Progress, settings: config.Settings) -> MakeResult:
    from macaron_cli.apps import resolve_app
    from macaron_cli.maker import state as make_state

    app = resolve_app(request.resume)
    state = make_state.load(app)
    if state is None:
        raise UserError(f"{app.name} has no interrupted make to resume (no .macaron/make.json).")
    if state.status == "done":
        raise UserError(f'{app.name} is already made; change it with `macaron change {app.name} "…"`.')
    return resume_run(app, state, request, progress, settings)


def resume_run(app: Path, state: MakeState, request: MakeRequest, progress: Progress, settings: config.Settings):
    """A make (or a change, maker/change_model.py) recorded in `state`, on from its last
    checkpoint with its brief re-gated: the same loop over the same phases."""
    from macaron_cli.checkpoints import AppRepo

    plan = plan_resume(app, state, request, settings)
    state.budget_usd = plan.budget  # what the person asked now goes on in the record
    if request.max_rounds != 3:
        state.max_rounds = request.max_rounds
    repo = AppRepo.open(app)
    run = run_for(plan, app, repo, state, settings, progress)
    with repo.lock():
        progress.phase("resume", f"{app.name} after {', '.join(state.phases) or 'nothing'}")
        return run_phases(run)


def _ledger_brief(slug: str, brief: Brief, template) -> None:
    """Tell the ledger which memories went where for this app (each destination as the gate
    decided it), and why this template."""
    from macaron_cli.ledger import signals
    from macaron_cli.maker.choose import why_chosen

    signals.brief_made(
        slug,
        brief.memories,
        template=template.name,
        domain=_domain(brief),
        from_app=template.from_app,
        reason=template.lineage_reason or why_chosen(template),
    )


def _domain(brief: Brief) -> str:
    domains = [m.domain for m in brief.memories if m.domain and m.domain != "general"]
    return max(set(domains), key=domains.count) if domains else "general"
