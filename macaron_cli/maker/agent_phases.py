"""The coding agent's phases of a make: build (or, after a local draft, refine) and the
fix rounds, each a turn of the Agent SDK's session, verified and checkpointed."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from macaron_cli import config, privacy
from macaron_cli.maker import prompts
from macaron_cli.maker.cost import BudgetExceeded, CostMeter
from macaron_cli.maker.phase_costs import answer_problem, record_agent
from macaron_cli.maker.result import MakeResult, finish, stopped
from macaron_cli.maker.run import MakeRun, agent_model
from macaron_cli.models.failures import ModelFailure


@dataclass
class _Agent:
    """What each of the coding agent's turns is given besides its prompt."""

    hook: Any
    server: Any
    model: str | None
    claude: privacy.Destination


def agent_phases(run: MakeRun, report=None) -> MakeResult:
    """Build (or refine a draft, with its verification `report`), then fix rounds until
    verification passes or the rounds run out."""
    state, progress = run.state, run.progress
    meter = CostMeter(run.settings, budget_usd=state.budget_usd, cost_usd=state.cost_usd)
    meter.tokens.update(state.tokens)
    agent = _agent(run)
    refines = "refine" in run.mode.phases
    try:
        if refines and "refine" not in state.phases:
            progress.phase(run.named("refine"), "Claude refines the local draft with its verification report")
            meter.check()
            report = report or run.verify()
            # A draft that wrote nothing: Claude hears it, with the local model's own problem.
            feedback = "\n\n".join(filter(None, [answer_problem(state), report.feedback()]))
            _turn(run, meter, agent, prompts.refine(run.brief, state, feedback))
            report = run.verify()
            _checkpoint(run, agent, "refine", "Claude refined the local draft", report, meter)
        elif not refines and "build" not in state.phases:
            progress.phase(run.named("build"), "the coder and its frontend/backend subagents")
            meter.check()
            _turn(run, meter, agent, prompts.build(run.brief, state))
            report = run.verify()
            _checkpoint(run, agent, "build", "the coder built the app", report, meter)
        while state.rounds < state.max_rounds:
            report = report or run.verify()
            if report.ok:
                break
            state.rounds += 1
            phase = f"fix-{state.rounds}"
            progress.phase(run.named(phase), "the verification report goes back to the coder")
            meter.check()
            _turn(run, meter, agent, prompts.fix(report.feedback()))
            report = run.verify()
            _checkpoint(run, agent, phase, f"fix round {state.rounds}", report, meter)
        report = report or run.verify()
    except BudgetExceeded as exc:
        return stopped(run, meter, "budget", f"Stopped: {exc}")
    except ModelFailure as exc:
        return stopped(run, meter, "model-error", f"The model failed: {exc}")
    except KeyboardInterrupt:
        stopped(run, meter, "interrupted", "Interrupted")  # keep the work, then stop
        raise
    return finish(run, report, meter)


def _agent(run: MakeRun) -> _Agent:
    """The agent's guard, its memory tool and its model; first the brief it reads."""
    from macaron_cli.maker.containment import memory_places
    from macaron_cli.maker.hooks import log_denial, pre_tool_use
    from macaron_cli.maker.scaffold import write_brief
    from macaron_cli.maker.tools import memory_server

    claude = privacy.claude(run.settings)
    # The agent reads the brief from .macaron/brief.md (CLAUDE.md imports it): write the
    # text cleared for Claude before its first request (a resumed make re-gated it).
    write_brief(run.app, run.brief, claude)
    private = run.app / ".macaron"

    def on_deny(name, tool_input, reason):
        log_denial(private / "denied.jsonl")(name, tool_input, reason)
        run.progress.note(f"  ⛔ refused {name}: {reason}")

    server = memory_server(run.store, claude, private / "memory_calls.jsonl", _ledger_search(run.state.slug, claude))
    # The guard's second line: the sandbox (containment.py) is the first.
    hook = pre_tool_use(run.app, memory_places(config.memory_uri(run.settings)), on_deny)
    return _Agent(hook=hook, server=server, model=agent_model(run.settings), claude=claude)


def _turn(run: MakeRun, meter: CostMeter, agent: _Agent, prompt: str) -> None:
    from macaron_cli.maker.session import agent_options, run_turn

    state = run.state
    walled = partial(agent_options, settings=run.settings, accept_unsandboxed=run.accept_unsandboxed)
    options = walled(
        run.app, agent.hook, agent.server, model=agent.model, resume=state.session_id, budget_usd=state.budget_usd
    )
    try:
        with run.timed("agent"):
            result = run_turn(options, prompt, meter, run.progress)
    finally:
        state.cost_usd, state.tokens = meter.cost_usd, dict(meter.tokens)
        run.save()
    state.session_id = result.session_id or state.session_id
    state.subagents.extend(result.subagents)
    run.save()


def _checkpoint(run: MakeRun, agent: _Agent, phase: str, message: str, report, meter: CostMeter) -> None:
    named = run.named(phase)
    if not any(p["phase"] == named for p in run.state.phase_costs):  # a resumed phase is costed once
        record_agent(run.state, named, agent.model, meter, agent.claude, run.changed_files())
    run.checkpoint(phase, message, report, meter)


def _ledger_search(slug: str, destination: privacy.Destination):
    """Each memory_search answer is a send of memories to the model: the ledger audits it."""

    def record(query, memories):
        from macaron_cli.ledger.store import Ledger, node

        Ledger.open().record_request(node("brief", slug), destination, memories, purpose="memory_search")

    return record
