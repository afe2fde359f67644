"""Each model phase's record in the make (`state.phase_costs`, `make --json` "phases"):
its own tokens, time and cost, and what it wrote.

"where" (local | cloud, and `local`) is the privacy gate's decision about the phase's
model, the same one the ledger records; "by" (draft | agent) says which model did it, for
the sums. The local phases are priced from our table (GPU time, see models/prices.py),
never from the Agent SDK's Claude prices. "written" lists the files the phase changed,
"skipped" the files its answer named but that were not written (each with why), "notes"
what the person should know about the answer (cut short, no files); "estimated" marks
token counts the server did not give. A phase that wrote nothing is not a success:
`notes()` says so, and `answer_problem()` is what the next round is told.
"""

from __future__ import annotations

from macaron_cli import config, privacy
from macaron_cli.maker.local_model import LocalOutcome
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
    *,
    written: list[str] | None = None,
    skipped: list[dict] | None = None,
    notes: list[str] | None = None,
    estimated: bool = False,
) -> dict:
    entry = {
        "phase": phase,
        "name": phase,
        "where": where,
        "local": where == "local",
        "by": by,
        "model": model,
        "input_tokens": int(input_tokens),
        "output_tokens": int(output_tokens),
        "estimated": estimated,
        "seconds": round(seconds, 2),
        "cost_usd": round(cost_usd, 6),
        "written": list(written or []),
        "skipped": list(skipped or []),
        "notes": list(notes or []),
    }
    state.phase_costs.append(entry)
    # The make's totals include the local phases, so budgets and the summary see them.
    state.cost_usd += cost_usd
    tokens = state.tokens
    tokens["input"] = tokens.get("input", 0) + int(input_tokens)
    tokens["output"] = tokens.get("output", 0) + int(output_tokens)
    return entry


def record_local(
    state: MakeState,
    phase: str,
    outcomes: list[LocalOutcome],
    endpoint: Endpoint,
    settings: config.Settings,
    kept: LocalOutcome | None = None,
) -> dict:
    """The draft model's share: its tokens, its time (variants run at once: the longest);
    what it wrote is the `kept` outcome's (the chosen variant; the only one otherwise)."""
    kept = kept or (outcomes[0] if len(outcomes) == 1 else None)
    return record(
        state,
        phase,
        privacy.local_model(endpoint.url, settings).where,
        outcomes[0].model if outcomes else None,
        sum(o.usage.input_tokens for o in outcomes),
        sum(o.usage.output_tokens for o in outcomes),
        max((o.seconds for o in outcomes), default=0.0),
        sum(o.cost_usd for o in outcomes),
        written=kept.written if kept else [],
        skipped=kept.skipped if kept else [],
        notes=kept.notes if kept else [n for o in outcomes for n in o.notes],
        estimated=any(o.usage.estimated for o in outcomes),
    )


# Phases that ask a model something and write no file by design (model_spec.py's "spec").
ASKING = frozenset({"spec"})


def wrote_nothing(entry: dict) -> bool:
    """The phase's model changed no file (records from before "written" was kept: unknown, False)."""
    return entry.get("phase") not in ASKING and "written" in entry and not entry["written"]


def _writing(state: MakeState) -> list[dict]:
    return [p for p in state.phase_costs if p.get("phase") not in ASKING]


def nothing_written(state: MakeState) -> bool:
    """No model phase of this make has changed a file yet: the app is the template."""
    writing = _writing(state)
    return bool(writing) and all(wrote_nothing(p) for p in writing)


def answer_problem(state: MakeState) -> str | None:
    """What the next round is told when the last model phase wrote nothing."""
    writing = _writing(state)
    last = writing[-1] if writing else None
    if not last or not wrote_nothing(last):
        return None
    who = "the local model" if _by(last) == "draft" else "the coder"
    why = "; ".join(last.get("notes") or []) or "no file was changed"
    return f"In the {last['phase']} phase {who} changed no file: {why}. The app is still as it was before it."


def notes(phases: list[dict]) -> list[str]:
    """One line per thing the person should know: a phase that wrote nothing, an answer cut."""
    lines = []
    for p in phases:
        who = "the local model" if _by(p) == "draft" else "the coder"
        said = p.get("notes") or []
        if wrote_nothing(p):
            lines.append(f"{p['phase']}: {who} wrote no file" + (f" ({'; '.join(said)})" if said else ""))
        else:
            lines += [f"{p['phase']}: {note}" for note in said]
    return lines


def _by(entry: dict) -> str:
    # Makes recorded before "by" existed said "local" for the draft model, "cloud" for the agent.
    return entry.get("by") or ("draft" if entry.get("where") == "local" else "agent")


def record_agent(
    state: MakeState, phase: str, model: str | None, meter, destination: privacy.Destination, written: list[str]
) -> dict:
    """An agent phase: what the meter and the agent's clock added since the last agent phase;
    `destination` is the gate's decision about the agent's Claude; `written`: the files it changed."""
    done = [p for p in state.phase_costs if _by(p) == "agent"]
    local = [p for p in state.phase_costs if _by(p) == "draft"]
    tokens_in = meter.tokens.get("input", 0) + meter.tokens.get("cache_write", 0) + meter.tokens.get("cache_read", 0)
    entry = {
        "phase": phase,
        "name": phase,
        "where": destination.where,
        "local": destination.local,
        "by": "agent",
        "model": model,
        "input_tokens": tokens_in - sum(p["input_tokens"] for p in done + local),
        "output_tokens": meter.tokens.get("output", 0) - sum(p["output_tokens"] for p in done + local),
        "seconds": round(state.timings.get("agent", 0.0) - sum(p["seconds"] for p in done), 2),
        "cost_usd": round(meter.cost_usd - sum(p["cost_usd"] for p in done + local), 6),
        "estimated": False,  # the Agent SDK reports Claude's usage
        "written": list(written),
        "skipped": [],
        "notes": [],
    }
    state.phase_costs.append(entry)
    return entry
