"""`macaron checkpoint`, `macaron checkpoints` and `macaron rollback`: thin wrappers that
find the app, call AppRepo and print. Every git decision is in checkpoints.py."""

from __future__ import annotations

import sys

from macaron_cli.apps import resolve_app
from macaron_cli.errors import UserError


def _open(app_ref: str | None):
    from macaron_cli.checkpoints import AppRepo

    return AppRepo.open(resolve_app(app_ref))


def checkpoint(app_ref: str | None, message: str) -> None:
    from macaron_cli.output import console

    repo = _open(app_ref)
    cp = repo.checkpoint("manual", message)
    out = console()
    out.print(f"Checkpoint [bold]{cp.id}[/] saved: {cp.subject} ({_files(cp.files_changed)} changed).")
    _warn(out, repo)


def list_checkpoints(app_ref: str | None, json_out: bool) -> None:
    from macaron_cli.output import console, print_json

    cps = _open(app_ref).checkpoints()
    if json_out:
        print_json([cp.to_json() for cp in cps])
        return
    out = console()
    if not cps:
        out.print("No checkpoints yet. Save one with `macaron checkpoint APP -m \"…\"`.")
        return
    for cp in cps:
        extras = [f"tests {_tests(cp.tests)}" if cp.tests is not None else "",
                  f"${cp.cost_usd:.2f}" if cp.cost_usd is not None else ""]
        detail = ", ".join(e for e in [_files(cp.files_changed), *extras] if e)
        out.print(f"[bold]{cp.id:>3}[/]  {cp.time[:16].replace('T', ' ')}  [cyan]{cp.phase:<12}[/] "
                  f"{cp.subject}  [dim]{detail} · {cp.commit[:8]}[/]", soft_wrap=True)


def rollback(app_ref: str | None, to: int | None, steps: int | None, undo: bool, with_data: bool,
             dry_run: bool, yes: bool) -> None:
    from macaron_cli.output import console

    if undo and (to is not None or steps is not None):
        raise UserError("--undo reverses the last rollback; use it without --to or --steps.")
    if undo and with_data:
        raise UserError("--undo restores data exactly when the rollback did; drop --with-data.")
    repo = _open(app_ref)
    out = console()

    def act(dry: bool):
        return repo.undo(dry_run=dry) if undo else repo.rollback(to=to, steps=steps, with_data=with_data, dry_run=dry)

    plan = act(dry=True)
    what = "Undo the last rollback, back" if undo else "Roll back"
    differ = "1 file differs" if plan.files_changed == 1 else f"{plan.files_changed} files differ"
    out.print(f"{what} to checkpoint [bold]{plan.target.id}[/] ({plan.target.phase}: {plan.target.subject}): "
              f"{differ}{'; the app data is restored too' if plan.with_data else ''}.")
    if plan.diffstat:
        out.print(plan.diffstat, markup=False, highlight=False)
    if plan.blocked:
        out.print(f"[yellow]These git-ignored files are in the way; move them first:[/] {', '.join(plan.blocked)}")
    if dry_run:
        out.print("Dry run: nothing changed.")
        return
    if not yes:
        if not sys.stdin.isatty():
            raise UserError("rollback needs your confirmation; run it in a terminal or add --yes.")
        import typer

        if not typer.confirm("Go ahead? (nothing is lost: `macaron rollback --undo` brings it back)", default=True):
            out.print("Nothing changed.")
            return
    result = act(dry=False)
    from macaron_cli.ledger import signals

    # A rollback says the last change did not serve the person; an undo takes that back.
    signals.app_event(repo.path.name, "undo" if undo else "rollback", to=result.target.id)
    if result.saved:
        out.print(f"Your current state is saved as checkpoint {result.saved.id}.")
    done = f"Now at checkpoint {result.checkpoint.id}, the same files as checkpoint {result.target.id}"
    if result.with_data:
        done += ", with its data" if result.data_restored else " (it had no data snapshot, so the data is as it was)"
    out.print(done + ". Undo with `macaron rollback --undo`.")
    _warn(out, repo)


def _warn(out, repo) -> None:
    for warning in dict.fromkeys(repo.warnings):
        out.print(f"[yellow]Note:[/] {warning}.")


def _files(n: int) -> str:
    return f"{n} file{'s' if n != 1 else ''}"


def _tests(tests) -> str:
    if isinstance(tests, dict):
        return ", ".join(f"{v} {k}" for k, v in tests.items())
    return str(tests)
