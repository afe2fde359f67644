"""One make in progress (`MakeRun`), the way it is made (`Mode`: an ordered tuple of
`Phase`s), and the first phase of every make (`Scaffold`: the app's first checkpoint).

A mode's phases name the models a make uses, in the order they write: its brief goes to all
of them (the gate clears it once for every destination), the last one gets the fix rounds,
and no model at all means the template alone (offline). The modes themselves are declared
in modes.py; each phase takes the run (the app and its repo, the make's record, the brief,
the memory, the command's settings, progress) and the last verification report, and
returns the next. pipeline.run_phases is the one loop over them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from macaron_cli import app_labels, config, privacy
from macaron_cli.maker import state as make_state
from macaron_cli.maker.brief import Brief
from macaron_cli.maker.cost import CostMeter
from macaron_cli.maker.progress import Progress
from macaron_cli.maker.state import MakeState
from macaron_cli.models import registry
from macaron_cli.untrusted import git as untrusted_git

if TYPE_CHECKING:
    from macaron_cli.checkpoints import AppRepo
    from macaron_cli.maker.request import MakeRequest
    from macaron_cli.memory import MemoryStore
    from macaron_cli.models.client import Endpoint

# The local model (its "draft" is the value make.json records, kept); Claude through the Agent SDK
LOCAL_MODEL, AGENT_MODEL = "draft", "agent"
SCAFFOLD, FIX = "scaffold", "fix"  # the first phase of a make; the fix rounds (checkpoints fix-1, fix-2…)


class Phase(Protocol):
    """One step of a make: `name` is its checkpoint (a change's: MakeRun.named) and what the
    make's record lists once it is done (the fix rounds list each round, `fix-1`…, and run
    again on resume until their rounds are spent); `by` the model that writes in it."""

    name: str
    by: str | None  # LOCAL_MODEL, AGENT_MODEL, or None: no model writes

    def run(self, run: MakeRun, report: Any) -> Any:
        """Do the phase's work, checkpoint it, and return the verification report (or None)."""
        ...


@dataclass(frozen=True)
class Mode:
    name: str  # what make.json, `make --json` and the registry record
    phases: tuple[Phase, ...]  # in order; a change's are a make's without the scaffold

    @property
    def models(self) -> tuple[str, ...]:
        """LOCAL_MODEL and AGENT_MODEL, in the order they write the app."""
        return tuple(dict.fromkeys(phase.by for phase in self.phases if phase.by))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(phase.name for phase in self.phases)

    @property
    def needs_model(self) -> bool:
        return bool(self.models)

    @property
    def uses_local_model(self) -> bool:
        return LOCAL_MODEL in self.models

    @property
    def uses_claude(self) -> bool:
        return AGENT_MODEL in self.models

    @property
    def fixed_by(self) -> str | None:
        """The model that gets the fix rounds: the last to write."""
        return self.models[-1] if self.models else None

    @property
    def main_phase(self) -> str | None:
        """The phase whose checkpoint is the work itself (before the fix rounds): build, refine
        after a draft, or the local draft alone."""
        work = [name for name in self.names if name not in (SCAFFOLD, FIX)]
        return work[-1] if work else None

    def destinations(self, settings: config.Settings, local_url: str | None = None) -> tuple[privacy.Destination, ...]:
        """Every model this make's brief goes to (the gate clears it for all of them); the
        app folder when none does."""
        found = []
        if self.uses_local_model:
            found.append(privacy.local_model(local_url, settings))
        if self.uses_claude:
            found.append(privacy.claude(settings))
        return tuple(found) or (privacy.app_folder(),)


class Scaffold:
    """The template, personalised, kept as checkpoint `scaffold`; with no model to write, it
    is the app: verified first, its checkpoint holds the tests' verdict."""

    name: str = SCAFFOLD
    by: str | None = None

    def run(self, run: MakeRun, report: Any) -> Any:
        template = run.state.template
        if run.mode.needs_model:
            run.repo.checkpoint(SCAFFOLD, f"scaffold from {template}, personalised for the person")
        else:
            report = run.verify()
            message = f"scaffold from {template}, personalised (no model)"
            run.repo.checkpoint(SCAFFOLD, message, tests=tests_status(report), cost_usd=0.0)
        run.phase_done(SCAFFOLD)
        return report


class Rerendered:
    """A change by rules (maker/change.py): the app as the rules re-rendered it from its new
    spec, verified (the tests' last pass standing where nothing they read changed) and kept
    as the change's checkpoint, `change-N`."""

    name: str = "rules"
    by: str | None = None

    def run(self, run: MakeRun, report: Any) -> Any:
        report = run.verify(reuse_tests=True)
        run.checkpoint(self.name, "re-rendered by the rules", report, run.meter)
        return report


def agent_model(settings: config.Settings) -> str | None:
    """The Claude model config.toml names for the agent; None lets the SDK choose."""
    model = registry.coder(settings).model
    return model if isinstance(model, str) else None


def tests_status(report) -> str | None:
    if report is None:
        return None
    return "passed" if report.tests_ok else "failed"


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
    mode: Mode
    accept_unsandboxed: bool = False  # the person let the coder run without its sandbox
    local_endpoint: Endpoint | None = None  # the local model's, while it has phases left to write
    request: MakeRequest | None = None  # what was asked: the draft phase reads --variants, --pick
    coder: Any = None  # the coding agent's guard, tools and model, made by its first phase
    meter: CostMeter = field(init=False)

    def __post_init__(self) -> None:
        state = self.state
        # Every phase counts on one meter; the local phases' own records are added as they end.
        self.meter = CostMeter(self.settings, budget_usd=state.budget_usd, cost_usd=state.cost_usd)
        self.meter.tokens.update(state.tokens)

    def release(self) -> None:
        """What the run kept outside the app goes with it: the coder's folder (its transcripts
        and key, maker/coder_home.py)."""
        if self.coder is not None:
            self.coder.close()

    def counted(self) -> CostMeter:
        """The meter, holding what the local phases recorded (phase_costs.record adds to the state)."""
        self.meter.cost_usd = self.state.cost_usd
        self.meter.tokens.update(self.state.tokens)
        return self.meter

    def memory(self) -> MemoryStore:
        """The person's memory to write to, made now if this make began without one."""
        if self.store is not None:
            return self.store
        from macaron_cli.memory import MemoryStore

        return MemoryStore.open(settings=self.settings)

    def save(self) -> None:
        """The record, as the make goes. A change no model makes keeps none: nothing resumes
        it and no brief went out, so `.macaron/change.json` stays the last model's change
        (one that stopped waits there for `macaron change APP --resume`)."""
        if self.state.change and not self.mode.needs_model:
            return
        make_state.save(self.app, self.state)

    def phase_done(self, phase: str) -> None:
        self.state.phases.append(phase)
        self.save()

    @contextmanager
    def timed(self, key: str) -> Iterator[None]:
        """Add the block's wall time to state.timings[key] (the summary and bench read it)."""
        start = time.monotonic()
        try:
            yield
        finally:
            timings = self.state.timings
            timings[key] = round(timings.get(key, 0.0) + time.monotonic() - start, 3)

    def verify(self, app: Path | None = None, reuse_tests: bool = False):
        """Verify the app (or a variant's copy of it at `app`); `reuse_tests`: the tests' last
        pass stands where nothing they read changed (a change of only the person's settings)."""
        from macaron_cli.sandbox.verify import verify_app

        self.progress.phase("verify", "tests, then open it in a headless browser")
        with self.timed("verify"):
            report = verify_app(
                app or self.app,
                screenshot=True,
                settings=self.settings,
                reuse_tests=reuse_tests,
                accept_unsandboxed=self.accept_unsandboxed,
            )
        verdict = "passed" if report.ok else f"{len(report.problems)} problem(s)"
        reused = " (tests: nothing they read changed, their last pass stands)" if report.tests_reused else ""
        self.progress.phase("verify", verdict + reused)
        return report

    def changed_files(self) -> list[str]:
        """The files changed since the last checkpoint (git-ignored data and .macaron aside)."""
        out = untrusted_git.run(
            self.app,
            *("status", "--porcelain", "-z", "--untracked-files=all", "--ignore-submodules=all"),
            capture_output=True,
            text=True,
        ).stdout
        entries, changed = out.split("\0"), []
        i = 0
        while i < len(entries):
            entry = entries[i]
            if len(entry) > 3:
                changed.append(entry[3:])
                i += 1 if entry[0] not in "RC" else 2  # a rename is followed by its old path
            else:
                i += 1
        return sorted(changed)

    def named(self, phase: str) -> str:
        """The checkpoint a phase is kept as: its own name in a make; in a change, `change-N`
        for the main phase and `change-N-fix-1`, `change-N-draft`… for the others."""
        change = self.state.change
        if not change:
            return phase
        return change.checkpoint + ("" if phase == self.mode.main_phase else f"-{phase}")

    def said(self, message: str, phase: str | None = None) -> str:
        """A checkpoint's message; a change's is its request (and, past its main phase, what
        the phase did)."""
        change = self.state.change
        if not change:
            return message
        return f"change: {change.request}" + ("" if phase == self.mode.main_phase else f" ({message})")

    def checkpoint(self, phase: str, message: str, report, meter: CostMeter) -> None:
        """Commit the phase's work as its checkpoint (`named`), with its tests and the cost so far."""
        app_labels.record(self.app, self.brief.memories)  # what a model wrote is as private as its brief
        tests, cost = tests_status(report), round(meter.cost_usd, 6)
        self.repo.checkpoint(self.named(phase), self.said(message, phase), tests=tests, cost_usd=cost)
        self.phase_done(phase)
