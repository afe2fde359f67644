"""The `macaron` command line: parses arguments and hands each command to its module.

Kept thin on purpose: nothing heavy is imported here. Each command imports its
implementation only when it runs, so `macaron --help` stays instant.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Optional

import typer

from macaron_cli import __version__

app = typer.Typer(
    name="macaron",
    help="A friend who remembers you, and a coder who builds your personal mini-apps.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain click help: rich's help renderer alone doubles `--help`'s start-up
    context_settings={"help_option_names": ["-h", "--help"]},
)
memory_app = typer.Typer(rich_markup_mode=None, help="Your personal memory: browse (no subcommand), search and edit it.")
draft_app = typer.Typer(rich_markup_mode=None, help="The local draft model on your own GPU.", no_args_is_help=True)
feedback_app = typer.Typer(rich_markup_mode=None, help="What you told macaron about its work.", no_args_is_help=True)
app.add_typer(memory_app, name="memory")
app.add_typer(draft_app, name="draft")
app.add_typer(feedback_app, name="feedback")


def _run(target: str, /, **kwargs) -> None:
    """Import `module:function` lazily, call it, and map macaron's errors to exit codes."""
    from macaron_cli.errors import MacaronError

    module_name, func_name = target.split(":")
    try:
        func = getattr(importlib.import_module(module_name), func_name)
        result = func(**kwargs)
    except MacaronError as exc:
        _fail(str(exc), exc.exit_code)
    except KeyboardInterrupt:
        _fail("Interrupted.", 130)
    if isinstance(result, int) and result:
        raise typer.Exit(result)


def _fail(message: str, code: int) -> None:
    print(f"macaron: {message}", file=sys.stderr)
    raise typer.Exit(code)


def _version(value: bool) -> None:
    if value:
        print(f"macaron {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
) -> None:
    pass


# ── the friend ──────────────────────────────────────────────────────────────────────────
@app.command()
def chat(model: Optional[str] = typer.Option(None, "--model", help="claude | local | none")) -> None:
    """Talk with your friend, who remembers what matters to you."""
    _run("macaron_cli.friend.commands:chat", model=model)


# ── the coder ───────────────────────────────────────────────────────────────────────────
@app.command()
def make(
    idea: Optional[str] = typer.Argument(None, help="One sentence: the app you want."),
    template: Optional[str] = typer.Option(None, "--template", help="Start from this template."),
    from_app: Optional[str] = typer.Option(None, "--from", help="Start from one of your apps or a shared bundle."),
    draft: bool = typer.Option(False, "--draft", help="Local model drafts first, Claude refines."),
    variants: int = typer.Option(1, "--variants", help="With --draft: how many designs to draft."),
    pick: Optional[int] = typer.Option(None, "--pick", help="With --variants: choose design K without asking."),
    local_only: bool = typer.Option(False, "--local-only", help="Use only the local model: nothing leaves this machine."),
    offline: bool = typer.Option(False, "--offline", help="No model at all: a personalised template."),
    budget: Optional[float] = typer.Option(None, "--budget", help="Stop cleanly at this cost in USD."),
    max_rounds: int = typer.Option(3, "--max-rounds", help="Verify-and-fix rounds at most."),
    resume: Optional[str] = typer.Option(None, "--resume", help="Resume an interrupted make of this app."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Answer yes to confirmations, skip the feedback question."),
    json_out: bool = typer.Option(False, "--json", help="Print one JSON summary only."),
) -> None:
    """Turn one sentence into a personal mini-app in its own git repo."""
    _run(
        "macaron_cli.maker.commands:make",
        idea=idea, template=template, from_app=from_app, draft=draft, variants=variants,
        pick=pick, local_only=local_only, offline=offline, budget=budget,
        max_rounds=max_rounds, resume=resume, yes=yes, json_out=json_out,
    )


@app.command()
def apps(
    json_out: bool = typer.Option(False, "--json", help="Print JSON only."),
    tree: bool = typer.Option(False, "--tree", help="Show lineage with outcomes."),
) -> None:
    """List the apps macaron made for you."""
    _run("macaron_cli.ledger.commands:list_apps", json_out=json_out, tree=tree)


@app.command()
def run(
    app_ref: Optional[str] = typer.Argument(None, metavar="[APP]", help="Slug or path; default: this directory, else the latest."),
    port: Optional[int] = typer.Option(None, "--port", help="Port on 127.0.0.1 (default: a free one)."),
    open_browser: bool = typer.Option(False, "--open", help="Open it in your browser."),
) -> None:
    """Serve an app on this machine until Ctrl-C."""
    _run("macaron_cli.sandbox.commands:run_app", app_ref=app_ref, port=port, open_browser=open_browser)


# ── checkpoints ─────────────────────────────────────────────────────────────────────────
@app.command()
def checkpoint(
    app_ref: Optional[str] = typer.Argument(None, metavar="[APP]"),
    message: str = typer.Option(..., "-m", "--message", help="What this checkpoint is."),
) -> None:
    """Save the app as it is now (every file, however it was changed)."""
    _run("macaron_cli.checkpoint_commands:checkpoint", app_ref=app_ref, message=message)


@app.command()
def checkpoints(
    app_ref: Optional[str] = typer.Argument(None, metavar="[APP]"),
    json_out: bool = typer.Option(False, "--json", help="Print JSON only."),
) -> None:
    """List an app's checkpoints, oldest first."""
    _run("macaron_cli.checkpoint_commands:list_checkpoints", app_ref=app_ref, json_out=json_out)


@app.command()
def rollback(
    app_ref: Optional[str] = typer.Argument(None, metavar="[APP]"),
    to: Optional[int] = typer.Option(None, "--to", help="Checkpoint id to return to."),
    steps: Optional[int] = typer.Option(None, "--steps", help="Go back this many checkpoints."),
    undo: bool = typer.Option(False, "--undo", help="Undo the last rollback."),
    with_data: bool = typer.Option(False, "--with-data", help="Also restore the app's data."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would change; change nothing."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
) -> None:
    """Return an app to a checkpoint. Nothing is lost: --undo brings it all back."""
    _run(
        "macaron_cli.checkpoint_commands:rollback", app_ref=app_ref, to=to, steps=steps,
        undo=undo, with_data=with_data, dry_run=dry_run, yes=yes,
    )


# ── feedback and provenance ─────────────────────────────────────────────────────────────
@app.command()
def rate(
    app_ref: str = typer.Argument(..., metavar="APP"),
    stars: int = typer.Argument(..., metavar="1-5"),
) -> None:
    """Tell macaron how well an app serves you."""
    _run("macaron_cli.ledger.commands:rate", app_ref=app_ref, stars=stars)


@app.command()
def why(target: str = typer.Argument("last", metavar="(MEMORY_ID | APP | last)")) -> None:
    """Why a memory was used, why an app looks as it does, where a memory was sent."""
    _run("macaron_cli.ledger.commands:why", target=target)


@app.command()
def share(app_ref: Optional[str] = typer.Argument(None, metavar="[APP]")) -> None:
    """Bundle an app's code and lineage (no data, no memories) for someone else."""
    _run("macaron_cli.ledger.commands:share", app_ref=app_ref)


@feedback_app.command("export")
def feedback_export(file: Optional[Path] = typer.Argument(None, help="Output JSONL (default: stdout).")) -> None:
    """Export on-policy feedback (private content excluded) for tuning a local model."""
    _run("macaron_cli.ledger.commands:feedback_export", file=file)


# ── memory ──────────────────────────────────────────────────────────────────────────────
@memory_app.callback(invoke_without_command=True)
def memory(ctx: typer.Context) -> None:
    """Browse your memory (a terminal app) when no subcommand is given."""
    if ctx.invoked_subcommand is None:
        _run("macaron_cli.tui.app:browse")


@memory_app.command("add")
def memory_add(
    text: str = typer.Argument(...),
    domain: Optional[str] = typer.Option(None, "--domain"),
    lang: Optional[str] = typer.Option(None, "--lang", help="Language code (detected when omitted)."),
    privacy: str = typer.Option("personal", "--privacy", help="public | personal | private | secret"),
    kind: str = typer.Option("fact", "--kind", help="fact | preference | episode | app | feedback"),
    pin: bool = typer.Option(False, "--pin"),
    json_out: bool = typer.Option(False, "--json"),
) -> None:
    """Remember something."""
    _run(
        "macaron_cli.memory.commands:add", text=text, domain=domain, lang=lang,
        privacy=privacy, kind=kind, pin=pin, json_out=json_out,
    )


@memory_app.command("search")
def memory_search(
    query: Optional[str] = typer.Argument(None),
    k: int = typer.Option(10, "--k"),
    batch: Optional[Path] = typer.Option(None, "--batch", help='JSONL of {"id","query"}; prints JSONL hits.'),
    json_out: bool = typer.Option(False, "--json"),
) -> None:
    """Find memories."""
    _run("macaron_cli.memory.commands:search", query=query, k=k, batch=batch, json_out=json_out)


@memory_app.command("list")
def memory_list(
    limit: int = typer.Option(50, "--limit"),
    json_out: bool = typer.Option(False, "--json"),
) -> None:
    """List memories, newest first."""
    _run("macaron_cli.memory.commands:list_memories", limit=limit, json_out=json_out)


@memory_app.command("forget")
def memory_forget(memory_id: str = typer.Argument(..., metavar="ID")) -> None:
    """Forget a memory for good (no trace left on disk)."""
    _run("macaron_cli.memory.commands:forget", memory_id=memory_id)


@memory_app.command("pin")
def memory_pin(
    memory_id: str = typer.Argument(..., metavar="ID"),
    unpin: bool = typer.Option(False, "--unpin"),
) -> None:
    """Pin a memory so it always weighs more."""
    _run("macaron_cli.memory.commands:pin", memory_id=memory_id, unpin=unpin)


@memory_app.command("edit")
def memory_edit(
    memory_id: str = typer.Argument(..., metavar="ID"),
    text: str = typer.Argument(...),
) -> None:
    """Correct a memory (the old version stays linked)."""
    _run("macaron_cli.memory.commands:edit", memory_id=memory_id, text=text)


@memory_app.command("stats")
def memory_stats(json_out: bool = typer.Option(False, "--json")) -> None:
    """How much macaron remembers, by kind, domain, language and privacy."""
    _run("macaron_cli.memory.commands:stats", json_out=json_out)


@memory_app.command("reembed")
def memory_reembed() -> None:
    """Give every memory a vector of the model in use (resumable; search starts it by itself)."""
    _run("macaron_cli.memory.commands:reembed")


@memory_app.command("import")
def memory_import(file: Path = typer.Argument(..., help="JSONL, one memory per line.")) -> None:
    """Import memories from JSONL (keeps given ids and dates)."""
    _run("macaron_cli.memory.commands:import_jsonl", file=file)


@memory_app.command("export")
def memory_export(file: Optional[Path] = typer.Argument(None, help="Output JSONL (default: stdout).")) -> None:
    """Export every memory to JSONL."""
    _run("macaron_cli.memory.commands:export_jsonl", file=file)


# ── the local draft model ───────────────────────────────────────────────────────────────
@draft_app.command("serve")
def draft_serve(
    engine: Optional[str] = typer.Option(None, "--engine", help="vllm | sglang | llama-server | ollama | llama-cpp"),
    model: Optional[str] = typer.Option(None, "--model", help="Model name or path."),
    gpus: int = typer.Option(1, "--gpus", help="GPUs for tensor parallelism."),
    port: int = typer.Option(8000, "--port"),
    attach: Optional[str] = typer.Option(None, "--attach", help="Use a server already running at this URL."),
) -> None:
    """Start (or attach to) a local model server for drafts."""
    _run(
        "macaron_cli.models.commands:draft_serve", engine=engine, model=model, gpus=gpus,
        port=port, attach=attach,
    )


@draft_app.command("status")
def draft_status(json_out: bool = typer.Option(False, "--json")) -> None:
    """Endpoint, model, wire format and a quick tokens-per-second probe."""
    _run("macaron_cli.models.commands:draft_status", json_out=json_out)


@app.command()
def doctor(json_out: bool = typer.Option(False, "--json")) -> None:
    """What macaron can use on this machine, and how to get what is missing."""
    _run("macaron_cli.doctor:doctor", json_out=json_out)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
