"""The make pipeline, shared by `macaron make` and `macaron chat`:

brief → template → scaffold (checkpoint `scaffold`) → agent builds (checkpoint `build`) →
verify → fix with the report (checkpoints `fix-1`, `fix-2`, …) → registry.

Offline (or with no model configured) the template alone, personalised from the brief,
is verified and checkpointed. A budget stop or a model error ends the run with the repo
at a checkpoint holding all work so far, resumable with `macaron make --resume APP`.

This module only orders the work: the request's checks are in request.py, the run and
its mode in run.py, the phases in agent_phases.py and draft_phases.py, the endings in
result.py, the brief rebuilt from a make's record in rebrief.py.
"""

from __future__ import annotations

import time
from pathlib import Path

from macaron_cli import config
from macaron_cli.errors import UserError
from macaron_cli.maker import containment, draft_phases
from macaron_cli.maker.agent_phases import agent_phases
from macaron_cli.maker.brief import Brief, build_brief
from macaron_cli.maker.cost import CostMeter
from macaron_cli.maker.progress import Progress
from macaron_cli.maker.rebrief import brief_from_state, recorded_draft
from macaron_cli.maker.request import MakeRequest, checked_budget, confirm_advice, records_level, refuse_unpriced
from macaron_cli.maker.result import MakeResult, finish, stopped
from macaron_cli.maker.run import MakeRun, Mode, agent_model, mode_named, requested_mode, tests_status
from macaron_cli.maker.session import model_configured
from macaron_cli.maker.state import MakeState, briefed
from macaron_cli.models.failures import ModelFailure


def make_app(request: MakeRequest, settings: config.Settings, progress: Progress | None = None) -> MakeResult:
    """`settings`: the person's, loaded by the command that asked (`macaron make`, the chat)."""
    from macaron_cli.memory import embeddings

    progress = progress or Progress()
    started = time.monotonic()
    embeddings.choose(settings.embedding_model)  # templates are compared by the person's model too
    if request.resume:
        return resume_app(request, progress, settings)
    idea = (request.idea or "").strip()
    if not idea:
        raise UserError('say what to make: macaron make "a water tracker that knows my goal".')
    budget = checked_budget(request, settings)
    from macaron_cli.maker.choose import choose_template, from_app, prefer_lineage, starting_code_cleared

    draft = draft_phases.check_request(request, model_configured(), settings)
    if request.template:
        choose_template(idea, request.template)  # an unknown name: one line before any model is asked
    mode = requested_mode(request, model_configured())
    if mode.uses_claude:
        refuse_unpriced(agent_model(settings), budget, settings)
        containment.require(request.accept_unsandboxed)
    if draft is not None:
        refuse_unpriced(draft.model, budget, settings, draft.url)
        _warm_sdk_import()
    store = open_memory(settings)
    to = mode.destinations(settings, draft.url if draft else None)
    planned, brief = None, None
    if mode.needs_model and not request.from_app:  # the model's spec chooses the template
        progress.phase("brief", "what macaron knows that bears on this")
        brief = build_brief(idea, store, settings, to)
        planned = _planned(brief, mode, settings, draft, progress)
    if request.from_app:
        template = from_app(request.from_app)
    else:
        template = choose_template(idea, request.template, spec=planned.spec if planned else None)
        if not request.template:
            template = prefer_lineage(template)
    if template.fit == "weak":
        progress.note(weak_fit_note(template, request.offline))
    template = starting_code_cleared(template, to, store, progress)
    if brief is None:
        progress.phase("brief", "what macaron knows that bears on this")
        brief = build_brief(idea, store, settings, to, context=template.manifest.get("description", ""))
    confirm_advice(brief, request)
    shared_records = records_level(template.manifest, brief, request)

    from macaron_cli.maker.scaffold import app_title, first_of_its_name, make_slug, scaffold

    apps_root = config.apps_dir()
    slug = make_slug(idea, template.name, apps_root)
    progress.phase("scaffold", f"{template.name} → {apps_root / slug}")
    if first := first_of_its_name(slug, apps_root):
        progress.note(f"  {first} is already an app of yours by that name: this makes a second one, {slug}")
    if template.lineage_reason:
        progress.note(f"  starting from {template.lineage_reason}")
    app = scaffold(template, brief, slug, apps_root)
    state = briefed(
        brief,
        draft,
        idea=idea,
        slug=slug,
        title=app_title(template, brief),
        template=template.name,
        from_app=template.from_app,
        mode=mode.name,
        matched_keywords=template.matched,
        fit=template.fit,
        missing=template.missing,
        similarity=template.similarity,
        budget_usd=budget,
        max_rounds=request.max_rounds,
        timings={"prepare": round(time.monotonic() - started, 3)},  # brief + template + scaffold
    )
    if planned is not None:
        from macaron_cli.maker.model_spec import record_cost

        record_cost(state, planned, settings, by="draft" if mode.uses_draft else "agent")
    _register(app, state, template, brief, shared_records)

    from macaron_cli.checkpoints import AppRepo

    repo = AppRepo.init(app)
    run = MakeRun(app, repo, state, brief, store, settings, progress, request.accept_unsandboxed)
    with repo.lock():
        if not mode.needs_model:
            return _offline(run)
        repo.checkpoint("scaffold", f"scaffold from {template.name}, personalised for the person")
        run.phase_done("scaffold")
        if draft:
            return run_draft_phases(run, draft, request)
        return agent_phases(run)


def _register(app: Path, state: MakeState, template, brief: Brief, records_privacy: str | None = None) -> None:
    """The make's record in the app, the app in the registry, the brief in the ledger."""
    from macaron_cli import apps
    from macaron_cli.maker import state as make_state
    from macaron_cli.memory.records import now_iso

    make_state.save(app, state)
    apps.register(
        state.slug,
        path=str(app),
        idea=state.idea,
        title=state.title,
        template=state.template,
        mode=state.mode,
        created_at=now_iso(),
        **({"from": template.from_app} if template.from_app else {}),
        **({"privacy": records_privacy} if records_privacy else {}),
    )
    _ledger_brief(state.slug, brief, template)


def _planned(brief: Brief, mode: Mode, settings: config.Settings, draft, progress: Progress):
    """The model's spec and title, set on the brief (the scaffold writes them); the rules'
    when the model gives none that holds, said in one line."""
    from macaron_cli.maker.fit import idea_title
    from macaron_cli.maker.model_spec import ask_spec, spec_model
    from macaron_cli.maker.spec_rules import write_spec

    endpoint, destination, max_tokens = spec_model(mode, settings, draft)
    progress.phase("spec", f"{endpoint.model or 'the model'} says what the app tracks")
    rules = write_spec(brief.idea, brief.app_settings, idea_title(brief.idea))
    local = settings if endpoint is draft else None  # a draft server's context is small: the request fits it
    planned = ask_spec(brief, endpoint, destination, rules, max_tokens=max_tokens, draft_settings=local)
    if planned.note:
        progress.note(f"  {planned.note}")
    brief.spec, brief.title = planned.spec, planned.title
    return planned


def _warm_sdk_import() -> None:
    """Import the Agent SDK (seconds of pydantic models) on a side thread while the main
    thread waits on git and the file system; the session then finds it imported."""
    import importlib
    import threading

    threading.Thread(target=importlib.import_module, args=("claude_agent_sdk",), daemon=True).start()


def run_draft_phases(run: MakeRun, draft, request: MakeRequest) -> MakeResult:
    """Phase one by the local model (draft_phases.py); then Claude refines, or with
    --local-only the local model fixes what verification finds."""
    state = run.state
    meter = CostMeter(run.settings, budget_usd=state.budget_usd, cost_usd=state.cost_usd)
    try:
        if "draft" not in state.phases:
            report = draft_phases.draft_phase(run, draft, request)
            message = draft_phases.checkpoint_message(run, "the local model drafted the app")
            _local_checkpoint(run, meter, "draft", message, report)
        else:
            report = run.verify()
        if not draft_phases.fixes_locally(run):
            return agent_phases(run, report=report)
        while state.rounds < state.max_rounds and draft_phases.needs_fix(run, report):
            state.rounds += 1
            phase = f"fix-{state.rounds}"
            report = draft_phases.fix_phase(run, phase, draft, report)
            message = draft_phases.checkpoint_message(run, f"local fix round {state.rounds}")
            _local_checkpoint(run, meter, phase, message, report)
    except ModelFailure as exc:
        _counted(run, meter)  # the local phases' tokens so far stay in the record
        return stopped(run, meter, "model-error", f"The local model failed: {exc}")
    return finish(run, report, meter)


def _counted(run: MakeRun, meter: CostMeter) -> None:
    """The meter holds what the local phases recorded (phase_costs.record adds to the state)."""
    meter.cost_usd = run.state.cost_usd
    meter.tokens.update(run.state.tokens)


def _local_checkpoint(run: MakeRun, meter: CostMeter, phase: str, message: str, report) -> None:
    _counted(run, meter)
    run.checkpoint(phase, message, report, meter)


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
    checkpoint with its brief re-gated, in the same phases."""
    from macaron_cli.checkpoints import AppRepo

    mode = mode_named(state.mode)
    if not _can_resume(mode):
        raise UserError("resuming needs a model: set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL) and retry.")
    if mode.uses_claude:
        containment.require(request.accept_unsandboxed)
    draft = draft_phases.resume_endpoint(state, settings)
    if request.budget is not None:
        if request.budget <= 0:
            raise UserError("--budget must be more than 0 USD.")
        state.budget_usd = request.budget
    if request.max_rounds != 3:
        state.max_rounds = request.max_rounds
    store = open_memory(settings)
    recorded = draft or recorded_draft(state)
    brief = brief_from_state(state, store, mode.destinations(settings, recorded.url if recorded else None))
    repo = AppRepo.open(app)
    run = MakeRun(app, repo, state, brief, store, settings, progress, request.accept_unsandboxed)
    with repo.lock():
        progress.phase("resume", f"{app.name} after {', '.join(state.phases) or 'nothing'}")
        if draft:  # local work left: the draft, or --local-only fix rounds
            return run_draft_phases(run, draft, request)
        return agent_phases(run)


def _can_resume(mode: Mode) -> bool:
    """A make with models left to call: Claude configured, unless only the draft model writes."""
    if not mode.needs_model:
        return False
    return not mode.uses_claude or model_configured()


def open_memory(settings: config.Settings):
    """The person's memory, or None when they have none yet (then the memory engine is
    not even imported: it is the slowest import of a make)."""
    from macaron_cli.memory.store import TABLE, MemoryStore

    uri = config.memory_uri(settings)
    if "://" not in uri and not (Path(uri) / f"{TABLE}.lance").exists():
        return None

    return MemoryStore.open(settings=settings)


def _offline(run: MakeRun) -> MakeResult:
    report = run.verify()
    run.repo.checkpoint(
        "scaffold",
        f"scaffold from {run.state.template}, personalised (no model)",
        tests=tests_status(report),
        cost_usd=0.0,
    )
    run.phase_done("scaffold")
    return finish(run, report, meter=CostMeter(run.settings))


def weak_fit_note(template, offline_asked: bool) -> str:
    """What make says when no template fits the idea well (it still builds the closest)."""
    from macaron_cli.maker.session import reshape_hint

    return (
        f"  no template fits this idea well; starting from the closest, {template.name} "
        f"({reshape_hint(offline_asked)}; or name a template with --template)"
    )


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
