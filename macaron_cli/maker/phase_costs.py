"""Each phase's own tokens, time and cost, in the make's record (`state.phase_costs`).

"where" (local | cloud) is the privacy gate's decision about the phase's model, the same
one the ledger records; "by" (draft | agent) says which model did it, for the sums. The
local phases are priced from our table (GPU time, see models/prices.py), never from the
Agent SDK's Claude prices.
"""

from __future__ import annotations

from macaron_cli import config, privacy
from macaron_cli.maker.draft import DraftOutcome
from macaron_cli.maker.state import MakeState
from macaron_cli.models.client import Endpoint


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


def record_local(
    state: MakeState, phase: str, outcomes: list[DraftOutcome], endpoint: Endpoint, settings: config.Settings
) -> dict:
    """The draft model's share: its tokens, its time (variants run at once: the longest)."""
    return record(
        state,
        phase,
        privacy.draft(endpoint.url, settings).where,
        outcomes[0].model if outcomes else None,
        sum(o.usage.input_tokens for o in outcomes),
        sum(o.usage.output_tokens for o in outcomes),
        max((o.seconds for o in outcomes), default=0.0),
        sum(o.cost_usd for o in outcomes),
    )


def _by(entry: dict) -> str:
    # Makes recorded before "by" existed said "local" for the draft model, "cloud" for the agent.
    return entry.get("by") or ("draft" if entry.get("where") == "local" else "agent")


def record_agent(state: MakeState, phase: str, model: str | None, meter, destination: privacy.Destination) -> dict:
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
