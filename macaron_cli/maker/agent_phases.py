"""The coding agent's phases of a make: build (or, after a local draft, refine) and the
fix rounds, each a turn of the Agent SDK's session, verified and checkpointed. The loop
over them, and how a budget or model stop ends the make, is pipeline.run_phases."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from macaron_cli import config, privacy
from macaron_cli.maker import prompts
from macaron_cli.maker.coder_home import CoderHome
from macaron_cli.maker.phase_costs import answer_problem, record_agent
from macaron_cli.maker.run import AGENT_MODEL, FIX, MakeRun
from macaron_cli.models import registry


@dataclass
class _Agent:
    """What each of the coding agent's turns is given besides its prompt."""

    hook: Any
    server: Any
    model: str | None
    claude: privacy.Destination
    home: CoderHome  # what the CLI writes, and its key: outside the app, for this run only
    session: str | None = None  # this run's session, resumed by its next turn

    def close(self) -> None:
        self.home.close()


class _Turn:
    """A phase that is one turn of the coder: asked, verified, kept as its checkpoint."""

    name: str = ""
    by: str | None = AGENT_MODEL
    doing = ""  # what the progress line says
    did = ""  # the checkpoint's message

    def prompt(self, run: MakeRun, report: Any) -> str:
        raise NotImplementedError

    def run(self, run: MakeRun, report: Any) -> Any:
        _coder(run)  # the brief cleared for Claude is written before anything is asked of it
        run.progress.phase(run.named(self.name), self.doing)
        run.meter.check()
        _turn(run, self.prompt(run, report))
        report = run.verify()
        _checkpoint(run, self.name, self.did, report)
        return report


class Build(_Turn):
    """The coder and its frontend/backend subagents build the app from the brief."""

    name = "build"
    doing, did = "the coder and its frontend/backend subagents", "the coder built the app"

    def prompt(self, run: MakeRun, report: Any) -> str:
        return prompts.build(run.brief, run.state)


class Refine(_Turn):
    """Claude refines the local draft with its verification report."""

    name = "refine"
    doing = "Claude refines the local draft with its verification report"
    did = "Claude refined the local draft"

    def prompt(self, run: MakeRun, report: Any) -> str:
        report = report or run.verify()
        # A draft that wrote nothing: Claude hears it, with the local model's own problem.
        feedback = "\n\n".join(filter(None, [answer_problem(run.state), report.feedback()]))
        return prompts.refine(run.brief, run.state, feedback)


class AgentFixes:
    """Fix rounds by the coder until verification passes or the rounds run out."""

    name: str = FIX
    by: str | None = AGENT_MODEL

    def run(self, run: MakeRun, report: Any) -> Any:
        _coder(run)  # the brief cleared for Claude is written before anything is asked of it
        state = run.state
        while state.rounds < state.max_rounds:
            report = report or run.verify()
            if report.ok:
                break
            state.rounds += 1
            phase = f"fix-{state.rounds}"
            run.progress.phase(run.named(phase), "the verification report goes back to the coder")
            run.meter.check()
            _turn(run, prompts.fix(report.feedback()))
            report = run.verify()
            _checkpoint(run, phase, f"fix round {state.rounds}", report)
        return report


def _agent(run: MakeRun) -> _Agent:
    """The agent's guard, its memory tool and its model; first the brief it reads."""
    from macaron_cli.maker.hooks import log_denial, pre_tool_use
    from macaron_cli.maker.scaffold import write_brief
    from macaron_cli.maker.tools import memory_server
    from macaron_cli.sandbox.walls import memory_places

    coder = registry.coder(run.settings)
    claude = coder.destination
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
    return _Agent(hook=hook, server=server, model=coder.model, claude=claude, home=CoderHome.fresh(run.app))


def _coder(run: MakeRun) -> _Agent:
    """The agent's parts, made once per run by its first phase."""
    if run.coder is None:
        run.coder = _agent(run)
    return run.coder


def _turn(run: MakeRun, prompt: str) -> None:
    from macaron_cli.maker.session import agent_options, run_turn

    state, meter, agent = run.state, run.meter, _coder(run)
    walled = partial(agent_options, home=agent.home, settings=run.settings, accept_unsandboxed=run.accept_unsandboxed)
    # Only this run's session is resumed: its transcript goes when the run ends (coder_home.py).
    options = walled(
        run.app, agent.hook, agent.server, model=agent.model, resume=agent.session, budget_usd=state.budget_usd
    )
    try:
        with run.timed("agent"):
            result = run_turn(options, prompt, meter, run.progress)
    finally:
        state.cost_usd, state.tokens = meter.cost_usd, dict(meter.tokens)
        run.save()
    agent.session = state.session_id = result.session_id or agent.session
    state.subagents.extend(result.subagents)
    run.save()


def _checkpoint(run: MakeRun, phase: str, message: str, report) -> None:
    named, agent, meter = run.named(phase), _coder(run), run.meter
    if not any(p["phase"] == named for p in run.state.phase_costs):  # a resumed phase is costed once
        record_agent(run.state, named, agent.model, meter, agent.claude, run.changed_files())
    run.checkpoint(phase, message, report, meter)


def _ledger_search(slug: str, destination: privacy.Destination):
    """Each memory_search answer is a send of memories to the model: the ledger audits it."""

    def record(query, memories):
        from macaron_cli.ledger.store import Ledger, node

        Ledger.open().record_request(node("brief", slug), destination, memories, purpose="memory_search")

    return record
