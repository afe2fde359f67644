"""The local model's phases of a make (the coding agent's are in agent_phases.py).

    --draft        scaffold → draft (local model, checkpoint `draft`) → refine (Claude with
                   the verification report, checkpoint `refine`) → fix rounds (Claude)
    --local-only   scaffold → draft → fix rounds by the local model: no cloud call at all
    --variants N   the draft phase drafts N designs; the chosen one becomes `draft`

Each phase takes the run, records its own cost (phase_costs.py) and returns the
verification report; modes.py orders them, pipeline.run_phases runs them.
"""

from __future__ import annotations

from typing import Any

from macaron_cli.maker.local_model import FORMAT, LocalOutcome, ask_local_model
from macaron_cli.maker.phase_costs import answer_problem, nothing_written, record_local
from macaron_cli.maker.run import FIX, LOCAL_MODEL, MakeRun
from macaron_cli.models.client import Endpoint
from macaron_cli.models.failures import ModelError


class Draft:
    """Phase one: the local model drafts (one design, or N to choose from: --variants)."""

    name: str = "draft"
    by: str | None = LOCAL_MODEL

    def run(self, run: MakeRun, report: Any) -> Any:
        report = draft_phase(run, _endpoint(run))
        run.checkpoint(self.name, checkpoint_message(run, "the local model drafted the app"), report, run.counted())
        return report


class LocalFixes:
    """--local-only fix rounds: the local model gets the verification report until it passes
    (and has written something) or the rounds run out."""

    name: str = FIX
    by: str | None = LOCAL_MODEL

    def run(self, run: MakeRun, report: Any) -> Any:
        state, endpoint = run.state, _endpoint(run)
        report = report or run.verify()
        while state.rounds < state.max_rounds and needs_fix(run, report):
            state.rounds += 1
            phase = f"fix-{state.rounds}"
            report = fix_phase(run, phase, endpoint, report)
            message = checkpoint_message(run, f"local fix round {state.rounds}")
            run.checkpoint(phase, message, report, run.counted())
        return report


def _endpoint(run: MakeRun) -> Endpoint:
    if run.local_endpoint is None:  # pipeline.begin and resume set it while local work is left
        raise ModelError("no local model is configured for this make's draft phases")
    return run.local_endpoint


def draft_phase(run: MakeRun, endpoint: Endpoint):
    """The local model's draft (one design, or N to choose from). Returns the report."""
    if run.request and run.request.variants > 1:
        return _variants_phase(run, endpoint, run.request)
    run.progress.phase("draft", f"{endpoint.model or 'the local model'} at {endpoint.url} writes a first version")
    outcome = ask_local_model(run.app, run.brief, endpoint, run.settings)
    _note(run.progress, outcome)
    record_local(run.state, "draft", [outcome], endpoint, run.settings)
    return run.verify()


def fix_phase(run: MakeRun, phase: str, endpoint: Endpoint, report):
    """A --local-only fix round: the local model gets the verification report, and what
    was wrong with its last answer when that answer changed nothing."""
    run.progress.phase(phase, "the verification report goes back to the local model")
    outcome = ask_local_model(run.app, run.brief, endpoint, run.settings, feedback=fix_feedback(run, report))
    _note(run.progress, outcome)
    record_local(run.state, phase, [outcome], endpoint, run.settings)
    return run.verify()


def fix_feedback(run: MakeRun, report) -> str:
    problem = answer_problem(run.state)
    parts = [f"{problem}\nAnswer again with the files to change, {FORMAT}."] if problem else []
    if not report.ok:
        parts.append(report.feedback())
    return "\n\n".join(parts)


def needs_fix(run: MakeRun, report) -> bool:
    """Another local round is due: verification failed, or no answer has changed the app yet."""
    return not report.ok or nothing_written(run.state)


def checkpoint_message(run: MakeRun, did: str) -> str:
    """The checkpoint's message says what the phase did, and so when it did nothing."""
    last = run.state.phase_costs[-1] if run.state.phase_costs else {}
    return did if last.get("written") else "the local model wrote no file: the app is as it was"


def _note(progress, outcome: LocalOutcome) -> None:
    u = outcome.usage
    tokens = f"{'about ' if u.estimated else ''}{u.output_tokens} tokens in {u.seconds:.1f}s"
    if outcome.written:
        progress.note(f"  wrote {len(outcome.written)} file(s) ({', '.join(outcome.written[:6])}); {tokens}")
    else:
        progress.note(f"  wrote no file; {tokens}")
    for skipped in outcome.skipped:
        progress.note(f"  skipped {skipped['path']}: {skipped['why']}")
    for note in outcome.notes:
        progress.note(f"  {note}")


def _variants_phase(run: MakeRun, endpoint: Endpoint, request):
    from macaron_cli.maker import variants as v

    state, progress = run.state, run.progress
    progress.phase("draft", f"{request.variants} designs at once by {endpoint.model or 'the local model'}")
    drafted = v.draft_variants(run.app, run.brief, endpoint, run.settings, request.variants, run.verify)
    for variant in drafted:
        progress.note("  " + variant.line())
    outcomes = [x.outcome for x in drafted if x.outcome]
    if not any(x.outcome and x.outcome.written for x in drafted):
        record_local(state, "draft", outcomes, endpoint, run.settings)
        raise ModelError("the local model drafted no usable design: " + "; ".join(x.line() for x in drafted))
    chosen = v.choose(drafted, request.pick, request.choose_variant)
    record_local(state, "draft", outcomes, endpoint, run.settings, kept=chosen.outcome)
    v.adopt(run.app, chosen)
    state.variant = {
        "picked": chosen.number,
        "of": len(drafted),
        "design": chosen.design,
        "screenshots": [x.screenshot for x in drafted],
    }
    progress.note(f"  using design {chosen.number}: {chosen.design}")
    _remember(run, chosen, len(drafted))
    # The app now holds exactly the files verified in the chosen copy: its report stands.
    return chosen.report if chosen.ok else run.verify()


def _remember(run: MakeRun, chosen, count: int) -> None:
    """The chosen design becomes a preference memory for later briefs."""
    from macaron_cli.maker.variants import remember_choice

    remember_choice(run.memory(), run.state.idea, run.state.template, chosen, count)
