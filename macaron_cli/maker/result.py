"""How a make ends: done (or tests red), or stopped with its work kept as a checkpoint;
the MakeResult that `make` prints (and `--json` writes) and the registry's record."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from macaron_cli import app_labels
from macaron_cli.maker import phase_costs
from macaron_cli.maker.cost import CostMeter
from macaron_cli.maker.run import LOCAL_MODEL, MakeRun, tests_status
from macaron_cli.maker.state import MakeState
from macaron_cli.untrusted.pinned import PRIVATE, for_template, safest

UNCHANGED = (
    "No model changed the app: it is the template, personalised from the brief. A model that "
    "follows the draft format (a larger one) may do better; `macaron draft status` shows yours."
)
CHANGE_UNCHANGED = (
    "Nothing changed: the model wrote no file and what the app tracks did not move; the app "
    "is as it was. Try saying what you want another way."
)


@dataclass
class MakeResult:
    app: str
    path: str
    template: str
    mode: str
    # done | tests-failed | unchanged (no model wrote a file; a change its page does not show) |
    # unchecked (a change whose page could not be read) | budget | model-error
    status: str = "done"
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
    fit: str = "good"  # "partial": its page shows part of what was asked; "weak": no template fitted well
    spec: dict | None = None  # what the app tracks (macaron.json's spec)
    missing: list = field(default_factory=list)  # what was asked and its page does not show (page_verdict.py)
    phases: list = field(default_factory=list)  # each phase's tokens, seconds, cost, local or cloud, files
    notes: list = field(default_factory=list)  # what the person should know: a phase that wrote nothing …

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
            "notes": self.notes,
            "status": self.status,
            "message": self.message,
            "fit": self.fit,
            "missing": self.missing,
        }


def stopped(run: MakeRun, meter: CostMeter, status: str, message: str) -> MakeResult:
    """Keep everything done so far as a checkpoint (its record and registry entry: the cost
    so far), and say how to go on."""
    if run.changed_files():
        app_labels.record(run.app, run.brief.memories)
        kept = run.said(f"{status}: work in progress kept")
        run.repo.checkpoint(run.named("stopped"), kept, cost_usd=round(meter.cost_usd, 6))
    run.state.status, run.state.cost_usd, run.state.tokens = status, meter.cost_usd, dict(meter.tokens)
    run.save()
    registered(run.state, run.app)
    result = _result(run, None, meter)
    result.status = status
    slug = run.state.slug
    again = f"macaron change {slug} --resume" if run.state.change else f"macaron make --resume {slug}"
    if status == "budget" and run.state.budget_usd:
        # The budget counts what was spent so far: going on under the same one stops at once.
        again += f" --budget {meter.cost_usd + run.state.budget_usd:.2f}"
    result.message = f"{message.rstrip('. ')}. Everything so far is saved; continue with `{again}`."
    return result


def finish(run: MakeRun, report, meter: CostMeter) -> MakeResult:
    """The ending, as verification and the page (page_verdict.py: what was asked and is not
    shown; a change the page does not show, undone) say it."""
    from macaron_cli.maker.page_verdict import judged

    state = run.state
    unchanged = _unchanged(run)
    state.status = "tests-failed" if not report.ok else "unchanged" if unchanged else "done"
    verdict = judged(run, report)
    state.status = verdict.status or state.status
    state.cost_usd, state.tokens = meter.cost_usd, dict(meter.tokens)
    if state.change is not None:  # a change by rules may verify on its tests' last pass: say so
        state.change = replace(state.change, tests_reused=bool(report.tests_reused))
    run.save()
    registered(state, run.app, report)
    result = _result(run, report, meter)
    result.status = state.status
    if not report.ok:
        result.message = "The app does not pass verification yet: " + "; ".join(report.problems[:3])
    elif unchanged:
        result.message = CHANGE_UNCHANGED if state.change is not None else UNCHANGED
    if verdict.message:
        result.message = f"{result.message} {verdict.message}".strip()
    return result


def _unchanged(run: MakeRun) -> bool:
    """Did this make or change end with nothing of the person's asking done? A make by the
    local model that wrote nothing is the template as it was (a coder that wrote nothing is
    in the notes: its make still ends on verification, after a draft, tests, chat). A change
    by a model whose models wrote nothing and whose spec and settings did not move changed
    nothing at all, whoever wrote it."""
    state = run.state
    if not phase_costs.nothing_written(state):
        return False
    if state.change is None:
        return run.mode.fixed_by == LOCAL_MODEL
    change = state.change
    settings_now = _settings(run.app)
    return change.before == change.after and dict(change.config) == settings_now


def _settings(app: Path) -> dict:
    import json

    from macaron_cli.maker.scaffold import APP_CONFIG

    try:
        found = json.loads((app / APP_CONFIG).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def registry_entry(state: MakeState, app: Path, report=None) -> dict:
    """The app's entry in apps.json, derived from its make's record (and once it is verified,
    `report`): what the app is, what it cost, its tests. A change's record updates only what a
    change moves: the title, the tests, the cost (what the app cost before and this change)."""
    change = state.change
    if change:
        entry: dict = {"title": state.title} if state.title else {}
        if state.mode != "offline":  # a model wrote code: no longer macaron's own (sandbox/walls.py)
            entry["coded"] = True
    else:
        entry = {"path": str(app), "idea": state.idea, "title": state.title, "template": state.template}
        entry |= {"mode": state.mode, **({"from": state.from_app} if state.from_app else {})}
        # What decides its privacy and data is the template's, kept where the coder cannot write;
        # a stranger's bundle names its template itself, so its records start private.
        pins = for_template(state.template) or safest()
        if (state.from_app or "").startswith("bundle:"):
            pins = replace(pins, privacy=PRIVATE)
        entry["pinned"] = pins.to_json()
    if change or report is not None:
        before = change.app_cost_usd if change else 0.0
        entry["cost_usd"] = round(before + state.cost_usd, 6)
    if report is not None:
        screenshot = str(report.screenshot) if report.screenshot else None
        entry |= {"tests": tests_status(report), "opened": bool(report.opened), "screenshot": screenshot}
        if not change or state.memory_ids:  # a change whose brief held none (by rules) keeps the make's
            entry["memory_ids"] = state.memory_ids
    return entry


def registered(state: MakeState, app: Path, report=None) -> None:
    """The app's apps.json entry after a make or a change (a stopped one too: its cost so
    far), written from its record (registry_entry)."""
    from macaron_cli.apps import register

    register(state.slug, **registry_entry(state, app, report))


def _result(run: MakeRun, report, meter: CostMeter) -> MakeResult:
    state = run.state
    return MakeResult(
        app=state.slug,
        path=str(run.app),
        template=state.template,
        mode=state.mode,
        checkpoints=[c.to_json() for c in run.repo.checkpoints()],
        tests=tests_status(report),
        opened=bool(report and report.opened),
        screenshot=str(report.screenshot) if report and report.screenshot else None,
        cost_usd=meter.cost_usd,
        tokens={
            **meter.tokens,
            "total": meter.total_tokens,
            "estimated": any(p.get("estimated") for p in state.phase_costs),
        },
        problems=list(report.problems) if report else [],
        memory_ids=state.memory_ids,
        subagents=sorted(set(state.subagents)),
        language=state.language,
        title=state.title,
        fit=state.fit,
        spec=_spec_json(run.app),
        missing=state.missing,
        phases=state.phase_costs,
        notes=phase_costs.notes(state.phase_costs),
    )


def _spec_json(app: Path) -> dict | None:
    from macaron_cli.spec import app_spec

    spec = app_spec(app)
    return spec.to_json() if spec else None


def phase_lines(result: MakeResult) -> list[str]:
    """Each phase's tokens, time and cost; local phases priced from our own table."""
    lines = []
    width = max([9, *(len(p["phase"]) for p in result.phases)])
    for p in result.phases:
        # local or cloud as the privacy gate decided it (a loopback proxy to Claude is cloud)
        model = p["model"] or (
            "claude" if p.get("by", "agent" if p["where"] == "cloud" else "draft") == "agent" else ""
        )
        where = f"{p['where']} {model}".strip()
        tokens = f"{p['input_tokens'] + p['output_tokens']:>9,} tokens" + (" (estimated)" if p.get("estimated") else "")
        written = p.get("written")
        files = "" if written is None else f"  wrote {len(written)} file(s)" if written else "  wrote no file"
        cost = f"{p['seconds']:>7.1f} s  ${p['cost_usd']:.4f}"
        lines.append(f"    {p['phase']:<{width}} {where:<28} {tokens} {cost}{files}")
    return lines


def ending_lines(result: MakeResult) -> list[str]:
    """What a make's or a change's summary ends with: its notes, its first problems, its message."""
    lines = [f"  ! {note}" for note in result.notes]
    lines += [f"  ✗ {problem}" for problem in result.problems[:5]]
    return lines + ([result.message] if result.message else [])
