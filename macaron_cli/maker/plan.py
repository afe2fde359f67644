"""One make, decided before anything is written: the `Plan`.

What `macaron make` (or chat's hand-off) asked, checked; the mode and its models; the brief,
cleared by the gate for every model it goes to; the template; the app's title and spec
(each computed here, once); where the app goes. The pipeline then writes what the plan says
(pipeline.begin) and runs the mode's phases (pipeline.run_phases). A change is a plan over
an existing app that carries its `Change` (reading/change.py: the request read, its
checkpoint, the spec before and after; maker/change.py by rules, change_model.py by a model).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from macaron_cli import config
from macaron_cli.errors import UserError
from macaron_cli.maker import containment
from macaron_cli.maker.brief import Brief, build_brief
from macaron_cli.maker.modes import mode_named, requested_mode
from macaron_cli.maker.progress import Progress
from macaron_cli.maker.request import (
    MakeRequest,
    checked_budget,
    checked_request,
    confirm_advice,
    records_level,
    refuse_unpriced,
)
from macaron_cli.maker.run import LOCAL_MODEL, Mode, agent_model
from macaron_cli.maker.session import model_configured
from macaron_cli.maker.state import MakeState
from macaron_cli.models.client import Endpoint
from macaron_cli.models.registry import local_endpoint
from macaron_cli.sandbox import sandbox_for_untrusted

if TYPE_CHECKING:
    from macaron_cli.maker.choose import Template
    from macaron_cli.memory import MemoryStore
    from macaron_cli.reading.change import Change
    from macaron_cli.reading.idea import Reading
    from macaron_cli.spec import AppSpec


@dataclass(frozen=True)
class Plan:
    """A make (or a change) before anything is written."""

    request: MakeRequest
    mode: Mode
    app: Path  # where the app goes (a change: where it is)
    slug: str
    template: Template | None  # None: over a made app, a change or a resume (its template is `template_name`)
    template_name: str
    brief: Brief
    spec: AppSpec | None  # None: a resumed make of an app made before specs
    title: str
    budget: float | None
    local_endpoint: Endpoint | None = None  # the local model's, with --draft or --local-only
    store: MemoryStore | None = None
    records_privacy: str | None = None  # the level the person chose for a health or money app's records
    asked: Any = None  # the model's answer for the spec (model_spec.Planned): its cost is the first phase's
    change: Change | None = None  # a change: the request read, its checkpoint `change-N`, the spec before and after…
    started: float = 0.0  # time.monotonic() when the command began (state.timings["prepare"])
    reading: Reading | None = None  # the idea read once (a make); None: over a made app
    # config/app.json keys the person corrected in words before anything was written (units,
    # currency, language, title: maker/understood.py); written over what the idea implied.
    corrected: dict | None = None
    checked: bool = False  # a change by a model: its budget and local model checked (change_model.check)

    def record(self) -> MakeState:
        """The make's record (make.json, or a change's change.json), begun from the plan."""
        brief, template, local = self.brief, self.template, self.local_endpoint
        return MakeState(
            idea=brief.idea,
            slug=self.slug,
            title=self.title,
            template=self.template_name,
            from_app=template.from_app if template else None,
            mode=self.mode.name,
            language=brief.language,
            accent=brief.accent,
            app_settings=brief.app_settings,
            advice=brief.advice,
            memory_ids=brief.memory_ids,
            matched_keywords=template.matched if template else [],
            fit=template.fit if template else "good",
            missing=template.missing if template else [],
            similarity=template.similarity if template else None,
            budget_usd=self.budget,
            max_rounds=self.request.max_rounds,
            local_endpoint={"url": local.url, "model": local.model, "api": local.api} if local else None,
            timings={"prepare": round(time.monotonic() - self.started, 3)} if self.started else {},
            change=self.change,
        )


def plan_make(request: MakeRequest, settings: config.Settings, progress: Progress) -> Plan:
    """Everything a make decides, checked and asked before anything is written (UserError
    for what is wrong, one line)."""
    from macaron_cli.maker.choose import from_app, prefer_lineage, starting_code_cleared, template_named
    from macaron_cli.maker.scaffold import app_spec_for, app_title, make_slug
    from macaron_cli.reading.idea import read_idea

    started = time.monotonic()
    idea = checked_request(request.idea, 'say what to make: macaron make "a water tracker that knows my goal".')
    budget = checked_budget(request, settings)
    local = checked_local_endpoint(request, model_configured(), settings)
    if request.template:
        template_named(request.template)  # an unknown name: one line before any model is asked
    mode = requested_mode(request, model_configured())
    if mode.uses_claude:
        refuse_unpriced(agent_model(settings), budget, settings)
        containment.require(request.accept_unsandboxed)
    untrusted = untrusted_code(request, mode)
    if untrusted:
        sandbox_for_untrusted(untrusted, request.accept_unsandboxed, settings=settings)
    if local is not None:
        refuse_unpriced(local.model, budget, settings, local.url)
        _warm_sdk_import()
    store = open_memory(settings)
    to = mode.destinations(settings, local.url if local else None)
    reading = read_idea(idea)  # the one read of the idea: the template, the spec, the app's units
    asked, brief, spec, title = None, None, None, ""
    if request.from_app:
        template = from_app(request.from_app)
    else:  # the spec, written once for this person (or the model's), chooses the template
        progress.phase("brief", "what macaron knows that bears on this")
        brief = build_brief(idea, store, settings, to)
        asked = _asked_spec(brief, reading, mode, settings, local, progress) if mode.needs_model else None
        template, spec, title = chosen_for(reading, brief, request.template)
        if not request.template:
            template = prefer_lineage(template)
    if template.fit == "weak":
        progress.note(weak_fit_note(template, request.offline))
    template = starting_code_cleared(template, to, store, progress)
    if brief is None:
        progress.phase("brief", "what macaron knows that bears on this")
        brief = build_brief(idea, store, settings, to, context=template.manifest.description)
    confirm_advice(brief, request)
    apps_root = config.apps_dir()
    title = title or app_title(template, brief)
    slug = make_slug(idea, template.name, apps_root, title)
    return Plan(
        request=request,
        mode=mode,
        app=apps_root / slug,
        slug=slug,
        template=template,
        template_name=template.name,
        brief=brief,
        spec=spec if spec is not None and not template.from_app else app_spec_for(template, brief, title, reading),
        title=title,
        budget=budget,
        local_endpoint=local,
        store=store,
        records_privacy=records_level(template.manifest, brief, request),
        asked=asked,
        started=started,
        reading=reading,
    )


def chosen_for(reading: Reading, brief: Brief, name: str | None = None) -> tuple[Template, AppSpec, str]:
    """The template, the spec and the title for an idea's Reading: the title the model gave
    (on the brief), else the idea's; the spec the model planned, else the one the rules write
    for this person, written once; the template chosen on it (`name`: the one the person
    named), before its lone measure is called by the title (a title is no thing the app keeps)."""
    from macaron_cli.maker.choose import choose_template
    from macaron_cli.reading.fit import idea_title
    from macaron_cli.reading.spec_rules import titled, write_spec

    title = brief.title or idea_title(reading.idea)
    spec = brief.spec or write_spec(reading, brief.app_settings, "")
    return choose_template(reading, name, spec=spec), brief.spec or titled(spec, title), title


def untrusted_code(request: MakeRequest, mode: Mode) -> str | None:
    """What of this make's code the person did not write and verification will run (a
    bundle's, a coder's app's, a model's), or None. The cloud coder's own shell needs the
    CLI's sandbox besides (containment.require)."""
    from macaron_cli.apps import resolve_app
    from macaron_cli.ledger.share import is_bundle
    from macaron_cli.sandbox.walls import written_by_macaron

    if request.from_app and is_bundle(request.from_app):
        return "the shared bundle's code and tests"
    if request.from_app and not written_by_macaron(resolve_app(request.from_app)):
        return "the code and tests of the app it starts from"
    if mode.needs_model:
        return "the code and tests a model writes"
    return None


def plan_resume(app: Path, state: MakeState, request: MakeRequest, settings: config.Settings) -> Plan:
    """A recorded make (or change) as its Plan again, to go on from its last checkpoint: the
    record read back (Plan.record wrote it), its mode checked again for a model left to call,
    the budget asked now (else recorded), the local endpoint while local work is left, the
    brief re-gated from the memories it recorded. Nothing written; the record goes on."""
    from macaron_cli.maker.rebrief import brief_from_state, recorded_local_endpoint
    from macaron_cli.spec import app_spec

    mode = mode_named(state.mode)
    if not _can_resume(mode):
        raise UserError("resuming needs a model: set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL) and retry.")
    if mode.uses_claude:
        containment.require(request.accept_unsandboxed)
    local = resume_endpoint(state, settings)
    if request.budget is not None and request.budget <= 0:
        raise UserError("--budget must be more than 0 USD.")
    store = open_memory(settings)
    recorded = local or recorded_local_endpoint(state)
    brief = brief_from_state(state, store, mode.destinations(settings, recorded.url if recorded else None))
    budget = request.budget if request.budget is not None else state.budget_usd
    return Plan(
        request, mode, app, state.slug, None, state.template, brief, app_spec(app), state.title, budget,
        local_endpoint=local, store=store, change=state.change,
    )  # fmt: skip


def _can_resume(mode: Mode) -> bool:
    """A make with models left to call: Claude configured, unless only the local model writes."""
    if not mode.needs_model:
        return False
    return not mode.uses_claude or model_configured()


def _asked_spec(brief: Brief, reading: Reading, mode: Mode, settings: config.Settings, local, progress: Progress):
    """The model's spec and title, set on the brief (the plan's spec and title read them);
    the rules' when the model gives none that holds, said in one line."""
    from macaron_cli.maker.model_spec import ask_spec, spec_model
    from macaron_cli.reading.fit import idea_title
    from macaron_cli.reading.spec_rules import write_spec

    endpoint, destination, max_tokens = spec_model(mode, settings, local)
    progress.phase("spec", f"{endpoint.model or 'the model'} says what the app tracks")
    rules = write_spec(reading, brief.app_settings, idea_title(brief.idea))
    local_settings = settings if endpoint is local else None  # a local server's context is small: the request fits it
    asked = ask_spec(brief, endpoint, destination, rules, max_tokens=max_tokens, local_settings=local_settings)
    if asked.note:
        progress.note(f"  {asked.note}")
    brief.spec, brief.title = asked.spec, asked.title
    return asked


def checked_local_endpoint(request, cloud_configured: bool, settings: config.Settings) -> Endpoint | None:
    """Validate the local model's options before anything is written; its endpoint if used."""
    from macaron_cli.maker.variants import check_request as check_variants

    mode = requested_mode(request, cloud_configured)
    check_variants(request.variants, request.pick, mode.uses_local_model)
    if not mode.uses_local_model:
        return None
    if request.offline:
        raise UserError("--offline uses no model, so it cannot be combined with --draft or --local-only.")
    if mode.uses_claude and not cloud_configured:
        raise UserError(
            "--draft has Claude refine the local draft, but no Claude is configured: set "
            "ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL), or use --local-only."
        )
    endpoint = local_endpoint(settings)
    with endpoint.client() as client:
        client.list_models()  # nothing listening: one clear line now, before anything is written
    return endpoint


def resume_endpoint(state: MakeState, settings: config.Settings) -> Endpoint | None:
    """The local model's endpoint for resuming a make that still has local work to do; None when
    only Claude is left (a --draft make past its draft phase) or no local model was used."""
    mode = mode_named(state.mode)
    local_work = mode.fixed_by == LOCAL_MODEL or (mode.uses_local_model and "draft" not in state.phases)
    return local_endpoint(settings) if local_work else None


def _warm_sdk_import() -> None:
    """Import the Agent SDK (seconds of pydantic models) on a side thread while the main
    thread waits on git and the file system; the session then finds it imported."""
    import importlib
    import threading

    threading.Thread(target=importlib.import_module, args=("claude_agent_sdk",), daemon=True).start()


def open_memory(settings: config.Settings):
    """The person's memory, or None when they have none yet (then the memory engine is
    not even imported: it is the slowest import of a make)."""
    from macaron_cli.memory.store import TABLE, MemoryStore

    uri = config.memory_uri(settings)
    if "://" not in uri and not (Path(uri) / f"{TABLE}.lance").exists():
        return None

    return MemoryStore.open(settings=settings)


def weak_fit_note(template, offline_asked: bool) -> str:
    """What make says when no template fits the idea well (it still builds the closest)."""
    from macaron_cli.maker.session import reshape_hint

    return (
        f"  no template fits this idea well; starting from the closest, {template.name} "
        f"({reshape_hint(offline_asked)}; or name a template with --template)"
    )
