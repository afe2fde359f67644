"""`macaron apps` and `apps digest|privacy|refresh`: each called by cli.py."""

from __future__ import annotations

from pathlib import Path

from macaron_cli import config
from macaron_cli.output import Out
from macaron_cli.privacy import other_app_level, who_hears


def list_apps(json_out: bool = False, tree: bool = False) -> None:
    """`macaron apps`: every app, oldest first, with its privacy and latest digest (or the tree)."""
    from macaron_cli.apps import load_registry
    from macaron_cli.ledger.commands import notice_deleted, print_tree
    from macaron_cli.output import print_json

    apps = load_registry()
    notice_deleted(apps)
    rows = [{"app": slug, **info} for slug, info in sorted(apps.items(), key=lambda kv: kv[1].get("created_at", ""))]
    if tree:
        return print_tree(rows, json_out)
    _add_privacy_and_digest(rows)
    if json_out:
        print_json(rows)
        return
    out = Out()
    if not rows:
        out.text('No apps yet. Try `macaron make "a water tracker"`.')
    for row in rows:
        gone = " [dim](deleted)[/]" if row.get("deleted") else ""
        out.line(
            "[bold]{}[/]" + gone + "  {}  [dim]{} · {}[/]",
            row["app"],
            row.get("idea", ""),
            row.get("privacy") or "",
            row.get("path", ""),
        )
        if row.get("digest"):
            out.line("  [dim]last digest:[/] {}", row["digest"])


def _add_privacy_and_digest(rows: list[dict]) -> None:
    """Each app's privacy now and what its latest digest said (the person's own records: shown
    to them whatever the level)."""
    from macaron_cli.errors import MacaronError
    from macaron_cli.lifelog.memories import app_privacy, latest_digests

    live = [row for row in rows if not row.get("deleted") and Path(row.get("path", "")).is_dir()]
    for row in live:
        try:
            row["privacy"] = app_privacy(row["app"], Path(row["path"]), row)
        except MacaronError:
            row["privacy"] = None
    if not live:
        return
    from macaron_cli.memory import MemoryStore

    digests = latest_digests(MemoryStore.open(settings=config.load_settings()))
    for row in live:
        if found := digests.get(row["app"]):
            row["digest"] = found.text


def digest(app_ref: str | None, json_out: bool = False, accept_unsandboxed: bool = False) -> None:
    """Show the app's digest, and keep it as the app's memory for this period."""
    from macaron_cli.apps import pinned, resolve_app
    from macaron_cli.lifelog.memories import app_privacy, remember
    from macaron_cli.memory import MemoryStore
    from macaron_cli.sandbox.digest import read_digest

    settings = config.load_settings()
    path = resolve_app(app_ref)
    found = read_digest(path, settings=settings, accept_unsandboxed=accept_unsandboxed)
    domain = pinned(path).records.domain
    memory = remember(MemoryStore.open(settings=settings), found, app_privacy(found.app, path), domain)
    if json_out:
        from macaron_cli.output import print_json

        print_json({**found.to_dict(), "memory": memory.id, "privacy": memory.privacy})
        return
    out = Out()
    out.line("[bold]{}[/]  [dim]{} {} – {}[/]", found.title, found.period, found.since, found.today)
    for line in found.lines:
        out.text(line)
    out.line("[dim]Kept as memory {} ({}).[/]", memory.id, memory.privacy)


def privacy(app_ref: str | None, level: str | None) -> None:
    from macaron_cli.lifelog.memories import set_privacy

    if level is None:
        show_privacy(app_ref)
        return
    slug, changed = set_privacy(app_ref, level, config.load_settings())
    again = f"; {changed} memor{'y' if changed == 1 else 'ies'} of its digests relabelled" if changed else ""
    Out().text(f"{slug} is now {level}: {who_hears(level)}{again}.")


def show_privacy(app_ref: str | None) -> None:
    """`macaron apps privacy APP`: the app's level now, and the command that changes it."""
    from macaron_cli.apps import resolve_app
    from macaron_cli.lifelog.memories import app_privacy

    path = resolve_app(app_ref)
    level = app_privacy(path.name, path)
    other = other_app_level(level)
    Out().text(f"{path.name} is {level}: {who_hears(level)}. `macaron apps privacy {path.name} {other}` changes it.")


def refresh(app_ref: str | None) -> None:
    from macaron_cli.apps import resolve_app
    from macaron_cli.lifelog.refresh import describe, refresh_app

    done = refresh_app(resolve_app(app_ref), config.load_settings())
    out = Out()
    for unread in done.unread:
        out.text(f"{done.app}: {unread}.")
    for kept in done.kept:
        out.text(f"{kept}.")
    if not done.changes:
        fits = "" if done.kept else " already fits what I remember about you;"
        out.text(f"{done.app}{fits} nothing changed.")
        return
    for key, (old, new) in done.changes.items():
        out.text(f"{done.app}: {describe(key, old, new)}")
    out.text(
        f"Saved as checkpoint {done.checkpoint}; `macaron rollback {done.app} --steps 1` undoes it."
        " Your data is untouched."
    )
