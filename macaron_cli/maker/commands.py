"""`macaron make`: parse nothing (cli.py did), run the pipeline, show the result, ask once."""

from __future__ import annotations

import sys

from macaron_cli.asking import question
from macaron_cli.maker.modes import OFFLINE
from macaron_cli.maker.pipeline import make_app
from macaron_cli.maker.request import MakeRequest
from macaron_cli.maker.result import MakeResult, ending_lines, phase_lines
from macaron_cli.maker.understood import Declined
from macaron_cli.output import Out, escaped

VERDICT_REWARD = 0.2  # how much one "did it fit you?" answer (the person's verdict) moves the memories it used


def make(json_out: bool = False, **options) -> int:
    """`options` are MakeRequest's fields as cli.py parsed them; asking belongs here."""
    from macaron_cli.maker.progress import run_shown

    interactive = sys.stdin.isatty() and not json_out
    request = MakeRequest(
        **options,
        confirm=_ask_advice if interactive else None,
        choose_variant=_ask_variant if interactive else None,
        share_records=_ask_share_records if interactive else None,
        understood=_ask_understood if interactive and sys.stdout.isatty() and not options.get("yes") else None,
    )
    from macaron_cli import config

    settings = config.load_settings()
    try:
        result = run_shown(lambda progress: make_app(request, settings, progress), json_out, _summary)
    except Declined as declined:  # the person's no: nothing written, said as a declined change is
        Out().text(str(declined))
        return 2
    if not json_out and result.ok and interactive and not request.yes:
        _ask_verdict(result, settings)
    return 0 if result.ok else 1


@question
def _ask_advice(kind: str) -> bool:
    from rich.prompt import Confirm

    return Confirm.ask(
        f"This app would give {kind} advice. It will say it is not professional advice. Build it?", default=False
    )


@question
def _ask_share_records(kind: str) -> bool:
    from rich.prompt import Confirm

    return Confirm.ask(
        f"This is a {kind} app, so what you record in it stays on this machine and with local models. "
        "May your friend's cloud model (Claude) hear it too, to answer questions about it?",
        default=False,
    )


@question
def _ask_understood(summary: str, answers: str) -> str:
    """What the make understood, and the person's answer: yes, no, or what to change."""
    from rich.prompt import Prompt

    out = Out(stderr=True)
    out.text(summary)
    return Prompt.ask(escaped(answers), console=out.console, default="", show_default=False)


@question
def _ask_variant(variants) -> int:
    from rich.prompt import IntPrompt

    from macaron_cli.output import Out

    out = Out(stderr=True)
    out.line("[bold]The designs the local model drafted[/] (open the screenshots to compare):")
    for variant in variants:
        out.text("  " + variant.line())
    choices = [str(v.number) for v in variants]
    return IntPrompt.ask(
        "Which one shall macaron keep?",
        choices=choices,
        console=out.console,
        default=next((v.number for v in variants if v.ok), 1),
    )


def _summary(result: MakeResult) -> None:
    from macaron_cli.maker.session import CONNECT_A_MODEL, model_configured, reshape_hint
    from macaron_cli.output import Out

    out = Out()
    if result.mode == OFFLINE.name:
        why = "you asked for --offline" if model_configured() else f"no model is connected; {CONNECT_A_MODEL}"
        out.line(
            "[bold]No model customised this app[/]: it is the template, personalised from what macaron "
            "knows about you ({}).",
            why,
        )
    mark = (
        "[green]✓[/]"
        if result.ok
        else "[yellow]■[/]"
        if result.status in ("budget", "model-error", "unchanged")
        else "[red]✗[/]"
    )
    out.line(
        mark + " [bold]{}[/] from the {} template  [dim]{}[/]", result.title or result.app, result.template, result.path
    )
    if result.fit == "weak":
        out.line(
            "  [yellow]no template fits this idea well[/]: {} was the closest; {}",
            result.template,
            reshape_hint(result.mode == OFFLINE.name and model_configured()),
        )
    if result.missing:
        from macaron_cli.maker.page_judge import said_missing
        from macaron_cli.spec import in_words

        out.line("  [yellow]{}[/]", said_missing(result.language, [in_words(need) for need in result.missing]))
    if result.subagents:
        out.text(f"  built by the coder with: {', '.join(result.subagents)}")
    if result.tests is not None:
        out.text(f"  tests {result.tests}; opens in a browser: {'yes' if result.opened else 'no'}")
    if result.screenshot:
        out.text(f"  screenshot: {result.screenshot}")
    out.text(f"  checkpoints: {', '.join(c['phase'] for c in result.checkpoints)}")
    out.text(f"  cost: ${result.cost_usd:.4f} ({result.tokens.get('total', 0):,} tokens)")
    for line in phase_lines(result):
        out.text(line)
    for line in ending_lines(result):
        out.text(line)
    if result.ok or result.status in ("tests-failed", "unchanged"):
        out.line("Run it: [bold]macaron run {}[/]", result.app)


@question
def _ask_verdict(result: MakeResult, settings) -> None:
    from rich.prompt import Prompt

    from macaron_cli.memory import MemoryStore

    answer = Prompt.ask("Did it fit you?", choices=["y", "n", "skip"], default="skip")
    if answer == "skip":
        return
    record_verdict(result.app, result.memory_ids, answer == "y", MemoryStore.open(settings=settings))


def record_verdict(app: str, memory_ids: list[str], liked: bool, store) -> int:
    """The person's answer: the memories that shaped the app gain or lose reward."""
    from macaron_cli.apps import register
    from macaron_cli.errors import UserError
    from macaron_cli.ledger import signals

    changed = 0
    for memory_id in memory_ids:
        try:
            memory = store.get(memory_id)
        except UserError:
            continue
        store.update(memory_id, reward=memory.reward + (VERDICT_REWARD if liked else -VERDICT_REWARD))
        changed += 1
    register(app, fit=liked)  # apps.json's key stays "fit", as the ledger's event
    signals.app_event(app, "fit", 1.0 if liked else 0.0)
    return changed


def change(app_ref: str | None, request: str, offline: bool, yes: bool, json_out: bool, **options) -> int:
    """`macaron change APP "REQUEST"`: the settings loaded once, the change in maker/change.py;
    `options` the model's as cli.py parsed them (MakeRequest's fields), and `resume`."""
    from macaron_cli import config
    from macaron_cli.maker import change as changing

    resume = bool(options.pop("resume", False))
    model = MakeRequest(**options, yes=yes)
    return changing.change(app_ref, request, offline, yes, json_out, config.load_settings(), model, resume)
