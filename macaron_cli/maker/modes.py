"""The ways a make is made, each an ordered tuple of phases (run.Mode): adding a mode is
one Mode here; adding a phase is a class with a name, `by` and run(run, report) (run.Phase).

    offline   scaffold (verified: the template alone, personalised from the brief)
    agent     scaffold → build (Claude) → fix rounds (Claude)
    draft     scaffold → draft (local model) → refine (Claude) → fix rounds (Claude)
    local     scaffold → draft (local model) → fix rounds (local model): no cloud call

A change to a made app by a model (maker/change_model.py) is the same phases over the
existing app, without the scaffold (CHANGE_OF): its checkpoints are `change-N`,
`change-N-fix-1`…; a change by rules (maker/change.py) is CHANGE_OFFLINE, its one phase the
app re-rendered, verified and kept as `change-N`. pipeline.run_phases runs them all.
"""

from __future__ import annotations

from macaron_cli.maker.agent_phases import AgentFixes, Build, Refine
from macaron_cli.maker.local_phases import Draft, LocalFixes
from macaron_cli.maker.run import Mode, Rerendered, Scaffold

OFFLINE = Mode("offline", (Scaffold(),))
AGENT = Mode("agent", (Scaffold(), Build(), AgentFixes()))
DRAFT = Mode("draft", (Scaffold(), Draft(), Refine(), AgentFixes()))
LOCAL = Mode("local", (Scaffold(), Draft(), LocalFixes()))


def _change(mode: Mode, name: str) -> Mode:
    return Mode(name, mode.phases[1:])


CHANGE = _change(AGENT, "change")
CHANGE_DRAFT = _change(DRAFT, "change-draft")
CHANGE_LOCAL = _change(LOCAL, "change-local")
# A change by rules (maker/change.py): the rules' edit written as the change begins
# (pipeline.begin_change), then verified and kept. Named as its result and ledger say it
# ("offline"), it is not in MODES: nothing resumes it (it keeps no record: MakeRun.save).
CHANGE_OFFLINE = Mode("offline", (Rerendered(),))
CHANGE_OF = {AGENT.name: CHANGE, DRAFT.name: CHANGE_DRAFT, LOCAL.name: CHANGE_LOCAL}
MODES = {mode.name: mode for mode in (OFFLINE, AGENT, DRAFT, LOCAL, CHANGE, CHANGE_DRAFT, CHANGE_LOCAL)}


def mode_named(name: str) -> Mode:
    """The mode a make recorded (a name this macaron does not know builds like the agent)."""
    return MODES.get(name, AGENT)


def requested_mode(request, cloud_configured: bool) -> Mode:
    """The mode a `macaron make` asks for: --local-only, --draft, else the agent when Claude
    is configured and the make is not --offline."""
    if request.local_only:
        return LOCAL
    if request.draft:
        return DRAFT
    return OFFLINE if request.offline or not cloud_configured else AGENT
