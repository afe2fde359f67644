"""The draft-mode phases of a make, and each phase's own tokens, time and cost.

    --draft        scaffold → draft (local model, checkpoint `draft`) → refine (Claude with
                   the verification report, checkpoint `refine`) → fix rounds (Claude)
    --local-only   scaffold → draft → fix rounds by the local model: no cloud call at all
    --variants N   the draft phase drafts N designs; the chosen one becomes `draft`

The local phases are priced from our table (GPU time, see models/prices.py), never from
the Agent SDK's Claude prices; the pipeline owns checkpoints and the agent phases.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from macaron_cli.errors import UserError
from macaron_cli.maker.draft import DraftOutcome, draft
from macaron_cli.maker.state import MakeState
from macaron_cli.models.client import Endpoint, ModelError, draft_endpoint

LOCAL, DRAFT = "local", "draft"  # make modes beside the pipeline's offline and agent


def mode_for(request) -> str | None:
    """LOCAL, DRAFT, or None when the make uses no draft model."""
    if request.local_only:
        return LOCAL
    if request.draft:
        return DRAFT
    return None


def check_request(request, cloud_configured: bool) -> Endpoint | None:
    """Validate the draft options before anything is written; the draft endpoint if used."""
    from macaron_cli.maker.variants import check_request as check_variants

    mode = mode_for(request)
    check_variants(request.variants, request.pick, mode is not None)
    if mode is None:
        return None
    if request.offline:
        raise UserError("--offline uses no model, so it cannot be combined with --draft or --local-only.")
    if mode == DRAFT and not cloud_configured:
        raise UserError(
            "--draft has Claude refine the local draft, but no Claude is configured: set "
            "ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL), or use --local-only."
        )
    endpoint = draft_endpoint()
    with endpoint.client() as client:
        client.list_models()  # nothing listening: one clear line now, before anything is written
    return endpoint


def resume_endpoint(state: MakeState) -> Endpoint | None:
    """The draft endpoint for resuming a make that still has local work to do; None when
    only Claude is left (a --draft make past its draft phase) or no draft model was used."""
    local_work = state.mode == LOCAL or (state.mode == DRAFT and "draft" not in state.phases)
    return draft_endpoint() if local_work else None


# ── per-phase accounting ────────────────────────────────────────────────────────────────
# "where" (local | cloud) is the privacy gate's decision about the phase's model, the same
# one the ledger records; "by" (draft | agent) says which model did it, for the sums.
def record(
    state: MakeState,
    phase: str,
    where: str,
    model: str | None,
    input_tokens: int,
    output_tokens: int,
    seconds: float,
    cost_usd: float,
    by: str = "draft",
) -> dict:
    entry = {
        "phase": phase,
        "where": where,
        "by": by,
        "model": model,
        "input_tokens": int(input_tokens),
        "output_tokens": int(output_tokens),
        "seconds": round(seconds, 2),
        "cost_usd": round(cost_usd, 6),
    }
    state.phase_costs.append(entry)
    # The make's totals include the local phases, so budgets and the summary see them.
    state.cost_usd += cost_usd
    tokens = state.tokens
    tokens["input"] = tokens.get("input", 0) + int(input_tokens)
    tokens["output"] = tokens.get("output", 0) + int(output_tokens)
    return entry


def record_local(state: MakeState, phase: str, outcomes: list[DraftOutcome], endpoint: Endpoint) -> dict:
    """The draft model's share: its tokens, its time (variants run at once: the longest)."""
    from macaron_cli import privacy

    return record(
        state,
        phase,
        privacy.draft(endpoint.url).where,
        outcomes[0].model if outcomes else None,
        sum(o.usage.input_tokens for o in outcomes),
        sum(o.usage.output_tokens for o in outcomes),
        max((o.seconds for o in outcomes), default=0.0),
        sum(o.cost_usd for o in outcomes),
    )


def _by(entry: dict) -> str:
    # Makes recorded before "by" existed said "local" for the draft model, "cloud" for the agent.
    return entry.get("by") or ("draft" if entry.get("where") == "local" else "agent")


def record_agent(state: MakeState, phase: str, model: str | None, meter, destination) -> dict:
    """An agent phase: what the meter and the agent's clock added since the last agent phase;
    `destination` is the gate's decision about the agent's Claude."""
    done = [p for p in state.phase_costs if _by(p) == "agent"]
    local = [p for p in state.phase_costs if _by(p) == "draft"]
    tokens_in = meter.tokens.get("input", 0) + meter.tokens.get("cache_write", 0) + meter.tokens.get("cache_read", 0)
    entry = {
        "phase": phase,
        "where": destination.where,
        "by": "agent",
        "model": model,
        "input_tokens": tokens_in - sum(p["input_tokens"] for p in done + local),
        "output_tokens": meter.tokens.get("output", 0) - sum(p["output_tokens"] for p in done + local),
        "seconds": round(state.timings.get("agent", 0.0) - sum(p["seconds"] for p in done), 2),
        "cost_usd": round(meter.cost_usd - sum(p["cost_usd"] for p in done + local), 6),
    }
    state.phase_costs.append(entry)
    return entry


# ── the phases ──────────────────────────────────────────────────────────────────────────
def draft_phase(
    app: Path,
    state: MakeState,
    brief,
    endpoint: Endpoint,
    request,
    progress,
    verify: Callable[[Path], object],
    remember: Callable | None = None,
):
    """Phase one: the local model drafts (one design, or N to choose from). Returns the report."""
    if request.variants > 1:
        return _variants_phase(app, state, brief, endpoint, request, progress, verify, remember)
    progress.phase("draft", f"{endpoint.model or 'the local model'} at {endpoint.url} writes a first version")
    outcome = draft(app, brief, endpoint)
    _note(progress, outcome)
    record_local(state, "draft", [outcome], endpoint)
    return verify(app)


def fix_phase(app: Path, state: MakeState, phase: str, brief, endpoint: Endpoint, report, progress, verify):
    """A --local-only fix round: the local model gets the verification report."""
    progress.phase(phase, "the verification report goes back to the local model")
    outcome = draft(app, brief, endpoint, feedback=report.feedback())
    _note(progress, outcome)
    record_local(state, phase, [outcome], endpoint)
    return verify(app)


def _note(progress, outcome: DraftOutcome) -> None:
    u = outcome.usage
    progress.note(
        f"  wrote {len(outcome.written)} file(s) ({', '.join(outcome.written[:6])}); "
        f"{u.output_tokens} tokens in {u.seconds:.1f}s"
    )
    for rejected in outcome.rejected:
        progress.note(f"  skipped {rejected}")


def _variants_phase(app, state, brief, endpoint, request, progress, verify, remember):
    from macaron_cli.maker import variants as v

    progress.phase("draft", f"{request.variants} designs at once by {endpoint.model or 'the local model'}")
    drafted = v.draft_variants(app, brief, endpoint, request.variants, verify)
    for variant in drafted:
        progress.note("  " + variant.line())
    outcomes = [x.outcome for x in drafted if x.outcome]
    record_local(state, "draft", outcomes, endpoint)
    if not any(x.outcome and x.outcome.written for x in drafted):
        raise ModelError("the local model drafted no usable design: " + "; ".join(x.line() for x in drafted))
    chosen = v.choose(drafted, request.pick, getattr(request, "choose_variant", None))
    v.adopt(app, chosen)
    state.variant = {
        "picked": chosen.number,
        "of": len(drafted),
        "design": chosen.design,
        "screenshots": [x.screenshot for x in drafted],
    }
    progress.note(f"  using design {chosen.number}: {chosen.design}")
    if remember:
        remember(chosen, len(drafted))
    # The app now holds exactly the files verified in the chosen copy: its report stands.
    return chosen.report if chosen.ok else verify(app)
