"""The `macaron` command line: parses arguments and hands each command to its module.

Kept thin on purpose: nothing heavy is imported here. Each command imports its
implementation only when it runs, so `macaron --help` stays instant.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from macaron_cli import __version__


class _Macaron(TyperGroup):
    """The root command: the one place where whatever a command raises becomes an exit code."""

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except _UsageError as exc:
            _usage_error(exc)

    def invoke(self, ctx):
        try:
            result = super().invoke(ctx)
        except KeyboardInterrupt:
            _fail("Interrupted.", 130)
        except _UsageError as exc:
            _usage_error(exc)
        except BrokenPipeError:
            _closed_pipe()
        except Exception as exc:  # the one top-level handler
            if _is_click(exc):
                raise
            from macaron_cli.errors import exit_for

            code, message = exit_for(exc, verbose=bool(ctx.params.get("verbose")))
            _fail(message, code)
        if isinstance(result, int) and not isinstance(result, bool) and result:
            raise typer.Exit(result)
        return result


class _TextMayStartWithADash(TyperCommand):
    """Text that begins with a dash ("-----BEGIN … KEY-----", "- buy milk") is what to
    remember, not an option: only a word-like `-x`/`--name` is taken for one (a mistyped
    option is still an error, and no text is stored by mistake)."""

    def parse_args(self, ctx, args):
        import re

        option = re.compile(r"--?[A-Za-z][\w-]*(?:=.*)?\Z", re.S)
        if "--" not in args:
            text = [a for a in args if a.startswith("-") and a != "-" and not option.match(a)]
            if text:
                args = [a for a in args if a not in text] + ["--", *text]
        return super().parse_args(ctx, args)


def _closed_pipe() -> NoReturn:
    """The reader went away (`macaron apps | head -1`): it has what it wanted, so exit 0,
    quietly; what is still buffered goes nowhere instead of failing again at exit."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    raise typer.Exit(0)


def _plain_usage(self) -> str:
    """An argument in a usage line as the conventions write it: ID, [APP], FILE... (Typer
    writes a required one as {ID}, which reads like a placeholder to fill in literally)."""
    name = self.display_name_raw if self.metavar else (self.name or "").upper()
    if not self.required and not name.startswith("["):
        name = f"[{name}]"
    return name + ("..." if self.nargs != 1 else "")


TyperArgument._usage_display_name = _plain_usage  # type: ignore[method-assign]  # Typer has no hook for it

# Typer may bundle its own Click: find its UsageError through a class Typer exports.
_UsageError: type[Exception] = next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")


def _usage_error(exc) -> NoReturn:
    """Click's bad-usage message (a missing argument, a number out of range) as one line, exit 2."""
    if type(exc).__name__ == "NoArgsIsHelpError":  # a bare `macaron`: Click shows the help
        raise exc
    import re

    from macaron_cli.memory.redact import redact

    # Click quotes what it could not parse, and that can be a key pasted as an argument,
    # its lines escaped (\n, \x0a): the key is found with its lines, then put on one again
    quoted = re.sub(r"\\(?:n|x0a)", "\n", exc.format_message())
    message = redact(quoted)[0].rstrip(".").replace("\n", "\\n")
    where = f" (see `{exc.ctx.command_path} -h`)" if getattr(exc, "ctx", None) else ""
    _fail(message[:1].lower() + message[1:] + where + ".", exc.exit_code)


def _is_click(exc: BaseException) -> bool:
    """Click's own exits and usage errors (exit 0/2, already one clear message): let Click show them."""
    return any(c.__module__.split(".")[0] in ("click", "typer") for c in type(exc).__mro__)


app = typer.Typer(
    name="macaron",
    cls=_Macaron,
    help="A friend who remembers you, and a coder who builds your personal mini-apps.",
    no_args_is_help=True,
    add_completion=True,  # `macaron --install-completion` for bash, zsh, fish, PowerShell
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain click help: rich's help renderer alone doubles `--help`'s start-up
    context_settings={"help_option_names": ["-h", "--help"]},
)
memory_app = typer.Typer(
    rich_markup_mode=None, help="Your personal memory: browse (no subcommand), search and edit it."
)
draft_app = typer.Typer(rich_markup_mode=None, help="The local draft model on your own GPU.", no_args_is_help=True)
feedback_app = typer.Typer(rich_markup_mode=None, help="What you told macaron about its work.", no_args_is_help=True)
apps_app = typer.Typer(rich_markup_mode=None, help="Your apps: list them, read what they recorded, tune them.")
app.add_typer(apps_app, name="apps")
app.add_typer(memory_app, name="memory")
app.add_typer(draft_app, name="draft")
app.add_typer(feedback_app, name="feedback")

# Upper bounds keep numbers where the code below can use them (a 14-digit --k overflowed
# LanceDB); they are far above anything a person needs.
_MAX_COUNT = 1_000_000_000


def _complete_app(incomplete: str) -> list[str]:
    """Tab completion of APP: the person's app slugs."""
    from macaron_cli.apps import slugs_starting

    return slugs_starting(incomplete)


def _run(func: Callable[..., object], /, *, finish_forgets: bool = True, **kwargs) -> int | None:
    """Call a command's implementation once its arguments are known to be text and
    macaron's folders to be folders: a bad one is refused before anything is written.
    A forget a crash cut short ends first, before any command can read what it removes
    (`forget` itself finishes them, its own among them)."""
    from macaron_cli.errors import UserError, check_homes

    for name, value in kwargs.items():
        if isinstance(value, str) and _has_surrogate(value):
            what = _ARGUMENTS.get(name, "--" + name.replace("_", "-"))
            raise UserError(
                f"the {what} you gave is not valid UTF-8 text; type it again (or fix the terminal's encoding)."
            )
    check_homes()
    if finish_forgets:
        from macaron_cli.forgetting import finish_pending

        finish_pending(_open_store)
    result = func(**kwargs)
    return result if isinstance(result, int) else None


def _open_store():
    """The person's memory, opened with their settings (a forget a crash cut short is finished in it)."""
    from macaron_cli import config
    from macaron_cli.memory import MemoryStore

    return MemoryStore.open(settings=config.load_settings())


_ARGUMENTS = {
    "memory_id": "ID",
    "app_ref": "APP",
    "text": "text",
    "idea": "idea",
    "request": "REQUEST",
    "query": "query",
    "target": "MEMORY_ID, APP, mcp or last",
}


def _has_surrogate(text: str) -> bool:
    """Bytes that are not UTF-8 reach Python as lone surrogates; nothing can store or print them."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _fail(message: str, code: int) -> NoReturn:
    from macaron_cli.output import safe_text

    if len(message) > 2000:  # a message that quotes a huge argument stays readable
        message = message[:1000] + " … " + message[-500:]
    print(f"macaron: {safe_text(message)}", file=sys.stderr)
    raise typer.Exit(code)


def _version(value: bool) -> None:
    if value:
        print(f"macaron {__version__}")
        raise typer.Exit()


def _finite(value: float | None) -> float | None:
    import math

    if value is not None and not math.isfinite(value):
        raise typer.BadParameter("give a number of USD, like 1.50.")
    return value


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True, help="Show the version."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="On an unexpected error, show the traceback."),
) -> None:
    pass


# ── the friend ──────────────────────────────────────────────────────────────────────────
@app.command()
def chat(model: str | None = typer.Option(None, "--model", help="claude | local | none")) -> int | None:
    """Talk with your friend, who remembers what matters to you."""
    from macaron_cli.friend import commands as friend

    return _run(friend.chat, model=model)


# ── the coder ───────────────────────────────────────────────────────────────────────────
# The model's options, one declaration for `make` and `change`.
_DRAFT = typer.Option(False, "--draft", help="Local model drafts first, Claude refines.")
_LOCAL_ONLY = typer.Option(False, "--local-only", help="Use only the local model: nothing leaves this machine.")
_BUDGET = typer.Option(None, "--budget", callback=_finite, help="Stop cleanly at this cost in USD.")
_MAX_ROUNDS = typer.Option(3, "--max-rounds", min=0, max=100, help="Verify-and-fix rounds at most.")
_UNSANDBOXED = typer.Option(
    False,
    "--accept-unsandboxed",
    help="Where bubblewrap or socat is missing, let the coder run unconfined: it could read your files.",
)
_UNSANDBOXED_APP = typer.Option(
    False,
    "--accept-unsandboxed",
    help="Where no sandbox can run, run the app's code unconfined: it could read your files.",
)


@app.command()
def make(
    idea: str | None = typer.Argument(None, help="One sentence: the app you want."),
    template: str | None = typer.Option(None, "--template", help="Start from this template."),
    from_app: str | None = typer.Option(None, "--from", help="Start from one of your apps or a shared bundle."),
    draft: bool = _DRAFT,
    variants: int = typer.Option(1, "--variants", min=1, max=100, help="With --draft: how many designs to draft."),
    pick: int | None = typer.Option(
        None, "--pick", min=1, max=100, help="With --variants: choose design K without asking."
    ),
    local_only: bool = _LOCAL_ONLY,
    offline: bool = typer.Option(False, "--offline", help="No model at all: a personalised template."),
    budget: float | None = _BUDGET,
    max_rounds: int = _MAX_ROUNDS,
    resume: str | None = typer.Option(None, "--resume", help="Resume an interrupted make of this app."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Answer yes to confirmations, skip the feedback question."),
    accept_unsandboxed: bool = _UNSANDBOXED,
    json_out: bool = typer.Option(False, "--json", help="Print one JSON summary only."),
) -> int | None:
    """Turn one sentence into a personal mini-app in its own git repo."""
    from macaron_cli.maker import commands as maker

    return _run(
        maker.make,
        idea=idea,
        template=template,
        from_app=from_app,
        draft=draft,
        variants=variants,
        pick=pick,
        local_only=local_only,
        offline=offline,
        budget=budget,
        max_rounds=max_rounds,
        resume=resume,
        yes=yes,
        accept_unsandboxed=accept_unsandboxed,
        json_out=json_out,
    )


@app.command()
def change(
    app_ref: str | None = typer.Argument(
        None, metavar="[APP]", autocompletion=_complete_app, help="Slug or path; default: here, else the latest."
    ),
    request: str | None = typer.Argument(None, metavar="REQUEST", help='What to change: "add my pulse".'),
    offline: bool = typer.Option(False, "--offline", help="No model: change the app's spec by rules."),
    draft: bool = _DRAFT,
    local_only: bool = _LOCAL_ONLY,
    budget: float | None = _BUDGET,
    max_rounds: int = _MAX_ROUNDS,
    resume: bool = typer.Option(False, "--resume", help="Go on with a change that a budget or model error stopped."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
    accept_unsandboxed: bool = _UNSANDBOXED,
    json_out: bool = typer.Option(False, "--json", help="Print one JSON summary only."),
) -> int | None:
    """Change one of your apps by asking; your records are kept."""
    from macaron_cli.maker import commands as maker

    if request is None and not resume:  # one argument: the request, for the app you are in (else the newest)
        app_ref, request = None, app_ref or ""
    return _run(
        maker.change,
        app_ref=app_ref,
        request=request or "",
        offline=offline,
        yes=yes,
        json_out=json_out,
        draft=draft,
        local_only=local_only,
        budget=budget,
        max_rounds=max_rounds,
        resume=resume,
        accept_unsandboxed=accept_unsandboxed,
    )


@apps_app.callback(invoke_without_command=True)
def apps(
    ctx: typer.Context,
    json_out: bool = typer.Option(False, "--json", help="Print JSON only."),
    tree: bool = typer.Option(False, "--tree", help="Show lineage with outcomes."),
) -> int | None:
    """List the apps macaron made for you (no subcommand), or read and tune one."""
    if ctx.invoked_subcommand is not None:
        return None
    from macaron_cli.lifelog import commands as lifelog

    return _run(lifelog.list_apps, json_out=json_out, tree=tree)


@apps_app.command("digest")
def apps_digest(
    app_ref: str | None = typer.Argument(
        None, metavar="[APP]", autocompletion=_complete_app, help="Slug or path; default: here, else the latest."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print JSON only."),
    accept_unsandboxed: bool = _UNSANDBOXED_APP,
) -> int | None:
    """What the app recorded this period, summarised by the app itself (run in the sandbox)."""
    from macaron_cli.lifelog import commands as lifelog

    return _run(lifelog.digest, app_ref=app_ref, json_out=json_out, accept_unsandboxed=accept_unsandboxed)


@apps_app.command("privacy")
def apps_privacy(
    app_ref: str = typer.Argument(..., metavar="APP", autocompletion=_complete_app, help="Slug or path."),
    level: str | None = typer.Argument(
        None, metavar="[LEVEL]", help="public | personal | private | secret; none: show the app's level"
    ),
) -> int | None:
    """How private what the app records is: which models may hear its digests."""
    from macaron_cli.lifelog import commands as lifelog

    return _run(lifelog.privacy, app_ref=app_ref, level=level)


@apps_app.command("refresh")
def apps_refresh(
    app_ref: str | None = typer.Argument(
        None, metavar="[APP]", autocompletion=_complete_app, help="Slug or path; default: here, else the latest."
    ),
) -> int | None:
    """Bring the app's settings (units, currency, language) up to date with what macaron remembers."""
    from macaron_cli.lifelog import commands as lifelog

    return _run(lifelog.refresh, app_ref=app_ref)


@app.command()
def run(
    app_ref: str | None = typer.Argument(
        None,
        metavar="[APP]",
        autocompletion=_complete_app,
        help="Slug or path; default: this directory, else the latest.",
    ),
    port: int | None = typer.Option(None, "--port", min=1, max=65535, help="Port on 127.0.0.1 (default: a free one)."),
    open_browser: bool = typer.Option(False, "--open", help="Open it in your browser."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show the app server's own log, a line per request."),
    accept_unsandboxed: bool = _UNSANDBOXED_APP,
) -> int | None:
    """Serve an app on this machine until Ctrl-C."""
    from macaron_cli import run_command

    return _run(
        run_command.run_app,
        app_ref=app_ref,
        port=port,
        open_browser=open_browser,
        verbose=verbose,
        accept_unsandboxed=accept_unsandboxed,
    )


# ── checkpoints ─────────────────────────────────────────────────────────────────────────
@app.command()
def checkpoint(
    app_ref: str | None = typer.Argument(None, metavar="[APP]", autocompletion=_complete_app),
    message: str = typer.Option(..., "-m", "--message", help="What this checkpoint is."),
) -> int | None:
    """Save the app as it is now (every file, however it was changed)."""
    from macaron_cli import checkpoint_commands

    return _run(checkpoint_commands.checkpoint, app_ref=app_ref, message=message)


@app.command()
def checkpoints(
    app_ref: str | None = typer.Argument(None, metavar="[APP]", autocompletion=_complete_app),
    json_out: bool = typer.Option(False, "--json", help="Print JSON only."),
) -> int | None:
    """List an app's checkpoints, oldest first."""
    from macaron_cli import checkpoint_commands

    return _run(checkpoint_commands.list_checkpoints, app_ref=app_ref, json_out=json_out)


@app.command()
def rollback(
    app_ref: str | None = typer.Argument(None, metavar="[APP]", autocompletion=_complete_app),
    to: int | None = typer.Option(None, "--to", min=1, max=_MAX_COUNT, help="Checkpoint id to return to."),
    steps: int | None = typer.Option(None, "--steps", min=1, max=_MAX_COUNT, help="Go back this many checkpoints."),
    undo: bool = typer.Option(False, "--undo", help="Undo the last rollback."),
    with_data: bool = typer.Option(False, "--with-data", help="Also restore the app's data."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would change; change nothing."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
) -> int | None:
    """Return an app to a checkpoint. Nothing is lost: --undo brings it all back."""
    from macaron_cli import checkpoint_commands

    return _run(
        checkpoint_commands.rollback,
        app_ref=app_ref,
        to=to,
        steps=steps,
        undo=undo,
        with_data=with_data,
        dry_run=dry_run,
        yes=yes,
    )


# ── feedback and provenance ─────────────────────────────────────────────────────────────
@app.command()
def rate(
    app_ref: str = typer.Argument(..., metavar="APP", autocompletion=_complete_app),
    stars: int = typer.Argument(..., metavar="1-5"),
) -> int | None:
    """Tell macaron how well an app serves you."""
    from macaron_cli.ledger import commands as ledger

    return _run(ledger.rate, app_ref=app_ref, stars=stars)


@app.command()
def why(target: str = typer.Argument("last", metavar="(MEMORY_ID | APP | mcp[:CLIENT] | last)")) -> int | None:
    """Why a memory was used, why an app looks as it does, where a memory was sent, what MCP clients asked."""
    from macaron_cli.ledger import commands as ledger

    return _run(ledger.why, target=target)


@app.command()
def share(app_ref: str | None = typer.Argument(None, metavar="[APP]", autocompletion=_complete_app)) -> int | None:
    """Bundle an app's code and lineage (no data, no memories) for someone else."""
    from macaron_cli.ledger import commands as ledger

    return _run(ledger.share, app_ref=app_ref)


@feedback_app.command("export")
def feedback_export(file: Path | None = typer.Argument(None, help="Output JSONL (default: stdout).")) -> int | None:
    """Export on-policy feedback (private content excluded) for tuning a local model."""
    from macaron_cli.ledger import commands as ledger

    return _run(ledger.feedback_export, file=file)


# ── memory ──────────────────────────────────────────────────────────────────────────────
@memory_app.callback(invoke_without_command=True)
def memory(ctx: typer.Context) -> int | None:
    """Browse your memory (a terminal app) when no subcommand is given."""
    if ctx.invoked_subcommand is None:
        from macaron_cli.tui import app as tui

        return _run(tui.browse)
    return None


@memory_app.command("add", cls=_TextMayStartWithADash)
def memory_add(
    text: str = typer.Argument(..., metavar="TEXT"),
    domain: str | None = typer.Option(None, "--domain"),
    lang: str | None = typer.Option(None, "--lang", help="Language code (detected when omitted)."),
    privacy: str = typer.Option("personal", "--privacy", help="public | personal | private | secret"),
    kind: str = typer.Option("fact", "--kind", help="fact | preference | episode | app | feedback"),
    pin: bool = typer.Option(False, "--pin"),
    json_out: bool = typer.Option(False, "--json"),
) -> int | None:
    """Remember something."""
    from macaron_cli.memory import commands as memory_commands

    return _run(
        memory_commands.add,
        text=text,
        domain=domain,
        lang=lang,
        privacy=privacy,
        kind=kind,
        pin=pin,
        json_out=json_out,
    )


@memory_app.command("serve")
def memory_serve(
    http: bool = typer.Option(False, "--http", help="Streamable HTTP on 127.0.0.1 (with a token) instead of stdio."),
    port: int = typer.Option(8765, "--port", min=0, max=65535, help="The port for --http (0: any free one)."),
    show_token: bool = typer.Option(False, "--show-token", help="Print the token --http requires, and exit."),
) -> int | None:
    """Your memory as an MCP server for other agents (Claude Code, Cursor, …)."""
    from macaron_cli.mcp_server import commands as mcp_commands

    return _run(mcp_commands.serve, http=http, port=port, show_token=show_token)


@memory_app.command("search")
def memory_search(
    query: str | None = typer.Argument(None),
    limit: int = typer.Option(10, "--limit", "-n", min=1, max=10_000, help="How many memories at most."),
    k: int | None = typer.Option(None, "--k", min=1, max=10_000, hidden=True),  # the older name of --limit
    batch: Path | None = typer.Option(None, "--batch", help='JSONL of {"id","query"}; prints JSONL hits.'),
    nearest: bool = typer.Option(
        False, "--nearest", help="Below the matches, the nearest in meaning too (≈), as chat and the browser list them."
    ),
    show_all: bool = typer.Option(False, "--all", help="Older memories that newer ones replaced too, marked."),
    json_out: bool = typer.Option(False, "--json"),
) -> int | None:
    """Find memories (the current ones; --all the history too)."""
    from macaron_cli.memory import commands as memory_commands

    return _run(
        memory_commands.search,
        query=query,
        k=k or limit,
        batch=batch,
        json_out=json_out,
        nearest=nearest,
        show_all=show_all,
    )


@memory_app.command("list")
def memory_list(
    limit: int = typer.Option(50, "--limit", "-n", min=1, max=_MAX_COUNT, help="How many memories at most."),
    show_all: bool = typer.Option(False, "--all", help="Older versions too (a newer one replaced them), marked."),
    json_out: bool = typer.Option(False, "--json"),
) -> int | None:
    """List memories, newest first (the live versions; --all shows the replaced ones too)."""
    from macaron_cli.memory import commands as memory_commands

    return _run(memory_commands.list_memories, limit=limit, json_out=json_out, show_all=show_all)


@memory_app.command("forget")
def memory_forget(
    memory_id: str = typer.Argument(..., metavar="ID"),
    json_out: bool = typer.Option(False, "--json", help="Print what was forgotten as JSON."),
) -> int | None:
    """Forget a memory for good (no trace left on disk)."""
    from macaron_cli.forget_command import forget_command

    return _run(forget_command, memory_id=memory_id, json_out=json_out, finish_forgets=False)


@memory_app.command("pin")
def memory_pin(
    memory_id: str = typer.Argument(..., metavar="ID"),
    unpin: bool = typer.Option(False, "--unpin"),
    json_out: bool = typer.Option(False, "--json", help="Print the memory as JSON."),
) -> int | None:
    """Pin a memory so it always weighs more."""
    from macaron_cli.memory import commands as memory_commands

    return _run(memory_commands.pin, memory_id=memory_id, unpin=unpin, json_out=json_out)


@memory_app.command("edit")
def memory_edit(
    memory_id: str = typer.Argument(..., metavar="ID"),
    text: str = typer.Argument(..., metavar="TEXT"),
    json_out: bool = typer.Option(False, "--json", help="Print the new version as JSON."),
) -> int | None:
    """Correct a memory: a new version replaces it (the old one stays linked). Edit the live
    version; an older one is refused, naming the id to edit."""
    from macaron_cli.memory import commands as memory_commands

    return _run(memory_commands.edit, memory_id=memory_id, text=text, json_out=json_out)


@memory_app.command("stats")
def memory_stats(json_out: bool = typer.Option(False, "--json")) -> int | None:
    """How much macaron remembers, by kind, domain, language and privacy."""
    from macaron_cli.memory import commands as memory_commands

    return _run(memory_commands.stats, json_out=json_out)


@memory_app.command("reembed")
def memory_reembed() -> int | None:
    """Give every memory a vector of the model in use (resumable; search starts it by itself)."""
    from macaron_cli.memory import commands as memory_commands

    return _run(memory_commands.reembed)


@memory_app.command("import")
def memory_import(
    file: Path = typer.Argument(
        ...,
        help="A ChatGPT or Claude export (conversations.json or the export's .zip), JSONL (one memory "
        "per line, as `memory export` writes) or a conversation (`Name: what they said` lines).",
    ),
    json_out: bool = typer.Option(False, "--json", help="Print what was done to each record as JSON."),
    dry_run: bool = typer.Option(
        False, "--dry-run", help="A ChatGPT or Claude export: show what would be kept and how labelled; write nothing."
    ),
) -> int | None:
    """Import memories from a ChatGPT or Claude export, JSONL or a plain-text conversation; says
    what was added, updated, skipped and not kept (and why).

    A record whose id is already there with another text becomes a new version (the old text is
    kept, superseded); one that says nothing new is skipped, so importing a file twice adds nothing.
    """
    from macaron_cli.memory import commands as memory_commands

    return _run(memory_commands.import_file, file=file, json_out=json_out, dry_run=dry_run)


@memory_app.command("export")
def memory_export(
    file: Path | None = typer.Argument(None, help="Output JSONL (default: stdout)."),
    json_out: bool = typer.Option(False, "--json", help="With FILE: print where and how many, as JSON."),
    show_all: bool = typer.Option(False, "--all", help="Older versions too (a newer one replaced them)."),
) -> int | None:
    """Export every memory to JSONL (the live versions; --all the replaced ones too)."""
    from macaron_cli.memory import commands as memory_commands

    return _run(memory_commands.export_jsonl, file=file, json_out=json_out, show_all=show_all)


# ── the local draft model ───────────────────────────────────────────────────────────────
@draft_app.command("serve")
def draft_serve(
    engine: str | None = typer.Option(None, "--engine", help="vllm | sglang | llama-server | ollama | llama-cpp"),
    model: str | None = typer.Option(None, "--model", help="Model name or path."),
    gpus: int = typer.Option(1, "--gpus", min=1, max=1024, help="GPUs for tensor parallelism."),
    port: int = typer.Option(8000, "--port", min=1, max=65535),
    attach: str | None = typer.Option(None, "--attach", help="Use a server already running at this URL."),
) -> int | None:
    """Start (or attach to) a local model server for drafts."""
    from macaron_cli.models import commands as models

    return _run(
        models.draft_serve,
        engine=engine,
        model=model,
        gpus=gpus,
        port=port,
        attach=attach,
    )


@draft_app.command("status")
def draft_status(json_out: bool = typer.Option(False, "--json")) -> int | None:
    """Endpoint, model, wire format and a quick tokens-per-second probe."""
    from macaron_cli.models import commands as models

    return _run(models.draft_status, json_out=json_out)


@app.command()
def doctor(json_out: bool = typer.Option(False, "--json")) -> int | None:
    """What macaron can use on this machine, and how to get what is missing."""
    from macaron_cli import doctor as doctor_module

    return _run(doctor_module.doctor, json_out=json_out)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
