"""The make pipeline, shared by `macaron make` and `macaron chat`:

brief → template → scaffold (checkpoint `scaffold`) → agent builds (checkpoint `build`) →
verify → fix with the report (checkpoints `fix-1`, `fix-2`, …) → registry.

Offline (or with no model configured) the template alone, personalised from the brief,
is verified and checkpointed. A budget stop or a model error ends the run with the repo
at a checkpoint holding all work so far, resumable with `macaron make --resume APP`.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from macaron_cli import config, privacy
from macaron_cli.errors import UserError
from macaron_cli.maker import draft_phases
from macaron_cli.maker import state as make_state
from macaron_cli.maker.brief import Brief, build_brief
from macaron_cli.maker.cost import BudgetExceeded, CostMeter
from macaron_cli.maker.progress import Progress
from macaron_cli.maker.session import ModelError, model_configured
from macaron_cli.maker.state import MakeState
from macaron_cli.models.client import ModelFailure

if TYPE_CHECKING:
    from macaron_cli.checkpoints import AppRepo
    from macaron_cli.memory import MemoryStore

OFFLINE, AGENT = "offline", "agent"


@dataclass
class MakeRequest:
    idea: str | None = None
    template: str | None = None
    from_app: str | None = None
    draft: bool = False
    variants: int = 1
    pick: int | None = None
    local_only: bool = False
    offline: bool = False
    budget: float | None = None
    max_rounds: int = 3
    resume: str | None = None
    yes: bool = False
    # Asked before building an app that gives medical or financial advice; None = no one
    # to ask (then only `yes` confirms).
    confirm: Callable[[str], bool] | None = None
    # With --variants and no --pick: shown the drafted designs, returns the number chosen.
    choose_variant: Callable[[list], int] | None = None


@dataclass
class MakeResult:
    app: str
    path: str
    template: str
    mode: str
    status: str = "done"  # done | tests-failed | budget | model-error
    message: str = ""
    checkpoints: list = field(default_factory=list)
    tests: str | None = None  # passed | failed | None (not run)
    opened: bool = False
    screenshot: str | None = None
    cost_usd: float = 0.0
    tokens: dict = field(default_factory=dict)
    problems: list = field(default_factory=list)
    memory_ids: list = field(default_factory=list)
    subagents: list = field(default_factory=list)
    language: str = "en"
    title: str = ""
    fit: str = "good"  # "partial": its template renders part of the spec; "weak": none fitted well
    spec: dict | None = None  # what the app tracks (macaron.json's spec)
    missing: list = field(default_factory=list)  # what the spec needs that the template does not render
    phases: list = field(default_factory=list)  # each phase's tokens, seconds and cost, local or cloud

    @property
    def ok(self) -> bool:
        return self.status == "done"

    def to_json(self) -> dict:
        """The `make --json` object (DESIGN.md)."""
        return {
            "app": self.app,
            "path": self.path,
            "title": self.title,
            "template": self.template,
            "spec": self.spec,
            "mode": self.mode,
            "checkpoints": self.checkpoints,
            "tests": self.tests,
            "opened": self.opened,
            "screenshot": self.screenshot,
            "cost_usd": round(self.cost_usd, 6),
            "tokens": self.tokens,
            "phases": self.phases,
            "fit": self.fit,
            "missing": self.missing,
        }


@dataclass
class MakeRun:
    """One make in progress: the app and its repo, its record (saved as it goes), and what
    every phase reads."""

    app: Path
    repo: AppRepo
    state: MakeState
    brief: Brief
    store: MemoryStore | None
    settings: config.Settings
    progress: Progress

    def save(self) -> None:
        make_state.save(self.app, self.state)


@dataclass
class _Agent:
    """What each of the coding agent's turns is given besides its prompt."""

    hook: Any
    server: Any
    model: str | None


def _validate(request: MakeRequest, settings) -> float | None:
    if request.max_rounds < 0:
        raise UserError("--max-rounds must be 0 or more.")
    budget = request.budget if request.budget is not None else settings.budget_usd
    if budget is not None and budget <= 0:
        raise UserError("--budget must be more than 0 USD.")
    return budget


def _confirm_advice(brief: Brief, request: MakeRequest) -> None:
    if not brief.advice or request.yes:
        return
    if request.confirm and request.confirm(brief.advice):
        return
    raise UserError(
        f"this app would give {brief.advice} advice, which needs your confirmation: "
        "rerun with --yes if you want it (it will say it is not professional advice)."
    )


def make_app(request: MakeRequest, progress: Progress | None = None) -> MakeResult:
    import warnings

    # Verification forks processes while the memory store is open; lancedb warns about it,
    # but the child never touches the store.
    warnings.filterwarnings("ignore", message="lancedb fork support")
    progress = progress or Progress()
    started = time.monotonic()
    settings = config.load_settings()
    if request.resume:
        return resume_app(request, progress, settings)
    idea = (request.idea or "").strip()
    if not idea:
        raise UserError('say what to make: macaron make "a water tracker that knows my goal".')
    budget = _validate(request, settings)
    from macaron_cli.maker.choose import choose_template, from_app, prefer_lineage

    draft = draft_phases.check_request(request, model_configured())
    if request.from_app:
        template = from_app(request.from_app)
    else:
        template = choose_template(idea, request.template)
        if not request.template:
            template = prefer_lineage(template)
    if template.fit == "weak":
        progress.note(weak_fit_note(template))
    mode = draft_phases.mode_for(request) or (OFFLINE if request.offline or not model_configured() else AGENT)
    if mode in (AGENT, draft_phases.DRAFT):
        _refuse_unpriced(_agent_model(), budget)
    if draft is not None:
        _refuse_unpriced(draft.model, budget, draft.url)
        _warm_sdk_import()
    store = _open_memory()
    progress.phase("brief", "what macaron knows that bears on this")
    brief = build_brief(
        idea, store, settings, destinations(mode, draft, settings), context=template.manifest.get("description", "")
    )
    _confirm_advice(brief, request)

    from macaron_cli.maker.scaffold import app_title, make_slug, scaffold

    apps_root = config.apps_dir()
    slug = make_slug(idea, template.name, apps_root)
    progress.phase("scaffold", f"{template.name} → {apps_root / slug}")
    if template.lineage_reason:
        progress.note(f"  starting from {template.lineage_reason}")
    app = scaffold(template, brief, slug, apps_root)
    state = MakeState(
        idea=idea,
        slug=slug,
        title=app_title(template, brief),
        template=template.name,
        from_app=template.from_app,
        mode=mode,
        language=brief.language,
        accent=brief.accent,
        settings=brief.settings,
        advice=brief.advice,
        memory_ids=brief.memory_ids,
        matched_keywords=template.matched,
        fit=template.fit,
        missing=template.missing,
        similarity=template.similarity,
        budget_usd=budget,
        max_rounds=request.max_rounds,
        draft={"url": draft.url, "model": draft.model, "api": draft.api} if draft else None,
        timings={"prepare": round(time.monotonic() - started, 3)},  # brief + template + scaffold
    )
    make_state.save(app, state)
    from macaron_cli.apps import register
    from macaron_cli.memory.records import now_iso

    register(
        slug,
        path=str(app),
        idea=idea,
        title=state.title,
        template=state.template,
        mode=mode,
        created_at=now_iso(),
        **({"from": template.from_app} if template.from_app else {}),
    )
    _ledger_brief(slug, brief, mode, template, settings)

    from macaron_cli.checkpoints import AppRepo

    repo = AppRepo.init(app)
    run = MakeRun(app, repo, state, brief, store, settings, progress)
    with repo.lock():
        if mode == OFFLINE:
            return _offline(run)
        repo.checkpoint("scaffold", f"scaffold from {template.name}, personalised for the person")
        _phase_done(run, "scaffold")
        if draft:
            return _draft_phases(run, draft, request)
        return _agent_phases(run)


def destinations(mode: str, draft, settings) -> tuple[privacy.Destination, ...]:
    """Every model the brief of a make in `mode` goes to (the gate clears it for all of them):
    the agent's Claude, the draft model, both with --draft, the app folder offline."""
    if mode == OFFLINE:
        return (privacy.app_folder(),)
    if mode == draft_phases.LOCAL:
        return (privacy.draft(draft.url, settings),)
    if mode == draft_phases.DRAFT:
        return (privacy.draft(draft.url, settings), privacy.claude(settings))
    return (privacy.claude(settings),)


def _warm_sdk_import() -> None:
    """Import the Agent SDK (seconds of pydantic models) on a side thread while the main
    thread waits on git and the file system; the session then finds it imported."""
    import importlib
    import threading

    threading.Thread(target=importlib.import_module, args=("claude_agent_sdk",), daemon=True).start()


def _draft_phases(run: MakeRun, draft, request: MakeRequest) -> MakeResult:
    """Phase one by the local model (draft_phases.py); then Claude refines, or with
    --local-only the local model fixes what verification finds."""
    app, state = run.app, run.state
    verify = lambda path: _verify(run, path)  # noqa: E731
    meter = CostMeter(budget_usd=state.budget_usd, cost_usd=state.cost_usd)

    def remember(chosen, count):
        from macaron_cli.maker.variants import remember_choice
        from macaron_cli.memory import MemoryStore

        remember_choice(run.store or MemoryStore.open(), state.idea, state.template, chosen, count)

    try:
        if "draft" not in state.phases:
            report = draft_phases.draft_phase(app, state, run.brief, draft, request, run.progress, verify, remember)
            _local_checkpoint(run, meter, "draft", "the local model drafted the app", report)
        else:
            report = _verify(run)
        if state.mode == draft_phases.DRAFT:
            return _agent_phases(run, report=report)
        while state.rounds < state.max_rounds and not report.ok:
            state.rounds += 1
            phase = f"fix-{state.rounds}"
            report = draft_phases.fix_phase(app, state, phase, run.brief, draft, report, run.progress, verify)
            _local_checkpoint(run, meter, phase, f"local fix round {state.rounds}", report)
    except ModelFailure as exc:
        return _stopped(run, meter, "model-error", f"The local model failed: {exc}")
    return _finish(run, report, meter)


def _local_checkpoint(run: MakeRun, meter: CostMeter, phase: str, message: str, report) -> None:
    meter.cost_usd = run.state.cost_usd
    meter.tokens.update(run.state.tokens)
    _checkpoint(run, phase, message, report, meter)


def resume_app(request: MakeRequest, progress: Progress, settings) -> MakeResult:
    from macaron_cli.apps import resolve_app
    from macaron_cli.checkpoints import AppRepo

    app = resolve_app(request.resume)
    state = make_state.load(app)
    if state is None:
        raise UserError(f"{app.name} has no interrupted make to resume (no .macaron/make.json).")
    if state.status == "done":
        raise UserError(f'{app.name} is already made; change it with `macaron make --from {app.name} "…"`.')
    local_only = state.mode == draft_phases.LOCAL
    if state.mode == OFFLINE or not (local_only or model_configured()):
        raise UserError("resuming needs a model: set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL) and retry.")
    draft = draft_phases.resume_endpoint(state)
    if request.budget is not None:
        if request.budget <= 0:
            raise UserError("--budget must be more than 0 USD.")
        state.budget_usd = request.budget
    if request.max_rounds != 3:
        state.max_rounds = request.max_rounds
    store = _open_memory()
    brief = _brief_from_state(state, store, destinations(state.mode, draft or _state_draft(state), settings))
    repo = AppRepo.open(app)
    run = MakeRun(app, repo, state, brief, store, settings, progress)
    with repo.lock():
        progress.phase("resume", f"{app.name} after {', '.join(state.phases) or 'nothing'}")
        if draft:  # local work left: the draft, or --local-only fix rounds
            return _draft_phases(run, draft, request)
        return _agent_phases(run)


def _state_draft(state: MakeState):
    """The draft endpoint a make recorded (its URL decides where a --draft brief went)."""
    from macaron_cli.models.client import Endpoint

    saved = state.draft or {}
    return Endpoint(url=saved["url"], model=saved.get("model"), api=saved.get("api")) if saved.get("url") else None


def _brief_from_state(state: MakeState, store, to: tuple) -> Brief:
    """The brief again, from the memory ids the make recorded, through the gate again: a
    memory made private (or forgotten) since does not come back."""
    memories = []
    for memory_id in state.memory_ids if store is not None else []:
        try:
            memories.append(store.get(memory_id))
        except UserError:
            continue  # forgotten since: it stays forgotten
    return Brief(
        idea=state.idea,
        language=state.language,
        accent=state.accent,
        settings=state.settings,
        memories=privacy.release(memories, *to),
        advice=state.advice,
    )


def write_brief_again(app: Path, store) -> bool:
    """Write an app's brief again from its make record, through the gate again, for the
    models that make sent it to (after a forget: what is gone stays out). False when the
    app has no make record."""
    from macaron_cli.maker.scaffold import write_brief

    state = make_state.load(app)
    if state is None:
        return False
    draft = _state_draft(state)
    to = (
        destinations(state.mode, draft, config.load_settings())
        if draft or state.mode in (OFFLINE, AGENT)
        else (privacy.app_folder(),)
    )
    brief = _brief_from_state(state, store, to)
    state.memory_ids = brief.memory_ids
    make_state.save(app, state)
    write_brief(app, brief)
    return True


def _open_memory():
    """The person's memory, or None when they have none yet (then the memory engine is
    not even imported: it is the slowest import of a make)."""
    from macaron_cli.memory.store import TABLE, MemoryStore

    uri = config.memory_uri()
    if "://" not in uri and not (Path(uri) / f"{TABLE}.lance").exists():
        return None

    return MemoryStore.open()


def _phase_done(run: MakeRun, phase: str) -> None:
    run.state.phases.append(phase)
    run.save()


def _tests_status(report) -> str | None:
    if report is None:
        return None
    return "passed" if report.tests_ok else "failed"


@contextmanager
def timed(state: MakeState, key: str):
    """Add the block's wall time to state.timings[key] (the summary and bench read it)."""
    start = time.monotonic()
    try:
        yield
    finally:
        state.timings[key] = round(state.timings.get(key, 0.0) + time.monotonic() - start, 3)


def _verify(run: MakeRun, app: Path | None = None):
    """Verify the app (or a variant's copy of it at `app`)."""
    from macaron_cli.sandbox.verify import verify_app

    run.progress.phase("verify", "tests, then open it in a headless browser")
    with timed(run.state, "verify"):
        report = verify_app(app or run.app, screenshot=True)
    run.progress.phase("verify", "passed" if report.ok else f"{len(report.problems)} problem(s)")
    return report


def _offline(run: MakeRun) -> MakeResult:
    report = _verify(run)
    run.repo.checkpoint(
        "scaffold",
        f"scaffold from {run.state.template}, personalised (no model)",
        tests=_tests_status(report),
        cost_usd=0.0,
    )
    _phase_done(run, "scaffold")
    return _finish(run, report, meter=CostMeter())


def _agent_phases(run: MakeRun, report=None) -> MakeResult:
    from macaron_cli.maker import prompts
    from macaron_cli.maker.hooks import log_denial, pre_tool_use
    from macaron_cli.maker.tools import memory_server

    app, state, progress = run.app, run.state, run.progress
    meter = CostMeter(budget_usd=state.budget_usd, cost_usd=state.cost_usd)
    meter.tokens.update(state.tokens)
    claude = privacy.claude(run.settings)
    # The agent reads the brief from .macaron/brief.md (CLAUDE.md imports it): write the
    # text cleared for Claude before its first request (a resumed make re-gated it above).
    from macaron_cli.maker.scaffold import write_brief

    write_brief(app, run.brief, claude)
    private = app / ".macaron"

    def on_deny(name, tool_input, reason):
        log_denial(private / "denied.jsonl")(name, tool_input, reason)
        progress.note(f"  ⛔ refused {name}: {reason}")

    server = memory_server(run.store, claude, private / "memory_calls.jsonl", _ledger_search(state.slug, claude))
    agent = _Agent(hook=pre_tool_use(app, [config.home()], on_deny), server=server, model=_agent_model())
    try:
        if state.mode == draft_phases.DRAFT and "refine" not in state.phases:
            progress.phase("refine", "Claude refines the local draft with its verification report")
            meter.check()
            report = report or _verify(run)
            _turn(run, meter, agent, prompts.refine(run.brief, state, report.feedback()))
            report = _verify(run)
            _checkpoint(run, "refine", "Claude refined the local draft", report, meter)
        elif "build" not in state.phases and state.mode != draft_phases.DRAFT:
            progress.phase("build", "the coder and its frontend/backend subagents")
            meter.check()
            _turn(run, meter, agent, prompts.build(run.brief, state))
            report = _verify(run)
            _checkpoint(run, "build", "the coder built the app", report, meter)
        while state.rounds < state.max_rounds:
            report = report or _verify(run)
            if report.ok:
                break
            state.rounds += 1
            phase = f"fix-{state.rounds}"
            progress.phase(phase, "the verification report goes back to the coder")
            meter.check()
            _turn(run, meter, agent, prompts.fix(report.feedback()))
            report = _verify(run)
            _checkpoint(run, phase, f"fix round {state.rounds}", report, meter)
        report = report or _verify(run)
    except BudgetExceeded as exc:
        return _stopped(run, meter, "budget", f"Stopped: {exc}")
    except (ModelError, ModelFailure) as exc:
        return _stopped(run, meter, "model-error", f"The model failed: {exc}")
    except KeyboardInterrupt:
        _stopped(run, meter, "interrupted", "Interrupted")  # keep the work, then stop
        raise
    return _finish(run, report, meter)


def _turn(run: MakeRun, meter: CostMeter, agent: _Agent, prompt: str) -> None:
    from macaron_cli.maker.session import agent_options, run_turn

    state = run.state
    options = agent_options(
        run.app, agent.hook, agent.server, model=agent.model, resume=state.session_id, budget_usd=state.budget_usd
    )
    try:
        with timed(state, "agent"):
            result = run_turn(options, prompt, meter, run.progress)
    finally:
        state.cost_usd, state.tokens = meter.cost_usd, dict(meter.tokens)
        run.save()
    state.session_id = result.session_id or state.session_id
    state.subagents.extend(result.subagents)
    run.save()


def _checkpoint(run: MakeRun, phase: str, message: str, report, meter: CostMeter) -> None:
    if not any(p["phase"] == phase for p in run.state.phase_costs):  # an agent phase
        draft_phases.record_agent(run.state, phase, _agent_model(), meter, privacy.claude())
    run.repo.checkpoint(phase, message, tests=_tests_status(report), cost_usd=round(meter.cost_usd, 6))
    _phase_done(run, phase)


def _refuse_unpriced(model: str | None, budget: float | None, url: str | None = None) -> None:
    """A budget cannot hold for a model we cannot price: say so before anything is made.
    (A model the SDK picks itself is checked on its first answer, by the meter.) A draft
    model on this machine (`url` local) is priced by GPU time instead."""
    from macaron_cli.models.prices import is_priced, own_prices, price_for, unpriced_message

    own_prices()  # a malformed [prices] table is refused now, not halfway through a make
    priced = is_priced(url, model) if url else price_for(model) is not None
    if budget is not None and model and not priced:
        raise UserError(unpriced_message(model) + ".")


def _agent_model() -> str | None:
    model = config.load_settings().raw.get("model")
    return model if isinstance(model, str) else None


def _dirty(app: Path) -> bool:
    out = subprocess.run(["git", "-C", str(app), "status", "--porcelain"], capture_output=True, text=True)
    return bool(out.stdout.strip())


def _stopped(run: MakeRun, meter: CostMeter, status: str, message: str) -> MakeResult:
    """Keep everything done so far as a checkpoint, and say how to go on."""
    if _dirty(run.app):
        run.repo.checkpoint("stopped", f"{status}: work in progress kept", cost_usd=round(meter.cost_usd, 6))
    run.state.status, run.state.cost_usd, run.state.tokens = status, meter.cost_usd, dict(meter.tokens)
    run.save()
    result = _result(run, None, meter)
    result.status = status
    result.message = (
        f"{message.rstrip('. ')}. Everything so far is saved; continue with `macaron make --resume {run.state.slug}`."
    )
    return result


def _finish(run: MakeRun, report, meter: CostMeter) -> MakeResult:
    state = run.state
    state.status = "done" if report.ok else "tests-failed"
    state.cost_usd, state.tokens = meter.cost_usd, dict(meter.tokens)
    run.save()
    from macaron_cli.apps import register

    register(
        state.slug,
        tests=_tests_status(report),
        opened=bool(report.opened),
        screenshot=str(report.screenshot) if report.screenshot else None,
        cost_usd=round(meter.cost_usd, 6),
        memory_ids=state.memory_ids,
    )
    result = _result(run, report, meter)
    if not report.ok:
        result.status = "tests-failed"
        result.message = "The app does not pass verification yet: " + "; ".join(report.problems[:3])
    return result


def _result(run: MakeRun, report, meter: CostMeter) -> MakeResult:
    state = run.state
    return MakeResult(
        app=state.slug,
        path=str(run.app),
        template=state.template,
        mode=state.mode,
        checkpoints=[c.to_json() for c in run.repo.checkpoints()],
        tests=_tests_status(report),
        opened=bool(report and report.opened),
        screenshot=str(report.screenshot) if report and report.screenshot else None,
        cost_usd=meter.cost_usd,
        tokens={**meter.tokens, "total": meter.total_tokens},
        problems=list(report.problems) if report else [],
        memory_ids=state.memory_ids,
        subagents=sorted(set(state.subagents)),
        language=state.language,
        title=state.title,
        fit=state.fit,
        spec=_spec_json(run.app),
        missing=state.missing,
        phases=state.phase_costs,
    )


def _spec_json(app: Path) -> dict | None:
    from macaron_cli.maker.spec import app_spec

    spec = app_spec(app)
    return spec.to_json() if spec else None


def weak_fit_note(template) -> str:
    """What make says when no template fits the idea well (it still builds the closest)."""
    return (
        f"  no template fits this idea well; starting from the closest, {template.name} "
        "(a model can reshape it: make without --offline, or name one with --template)"
    )


def _ledger_brief(slug, brief, mode, template, settings) -> None:
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


def _ledger_search(slug: str, destination: privacy.Destination):
    """Each memory_search answer is a send of memories to the model: the ledger audits it."""

    def record(query, memories):
        from macaron_cli.ledger.store import Ledger, node

        Ledger.open().record_request(node("brief", slug), destination, memories, purpose="memory_search")

    return record


def _domain(brief: Brief) -> str:
    domains = [m.domain for m in brief.memories if m.domain and m.domain != "general"]
    return max(set(domains), key=domains.count) if domains else "general"
