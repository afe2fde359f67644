"""`macaron checkpoint`, `macaron checkpoints` and `macaron rollback`: thin wrappers that
find the app, call AppRepo and print. Every git decision is in checkpoints/."""

from __future__ import annotations

import sys

from macaron_cli.apps import ref_for, resolve_app
from macaron_cli.asking import question
from macaron_cli.errors import UserError


def _open(app_ref: str | None):
    from macaron_cli.checkpoints import AppRepo

    return AppRepo.open(resolve_app(app_ref))


def checkpoint(app_ref: str | None, message: str) -> None:
    from macaron_cli.output import Out

    repo = _open(app_ref)
    cp = repo.checkpoint("manual", message)
    out = Out()
    out.line(
        "Checkpoint [bold]{}[/] of {} saved: {} ({} changed).",
        cp.id,
        ref_for(repo.path),
        cp.subject,
        _files(cp.files_changed),
    )
    _warn(out, repo)


def list_checkpoints(app_ref: str | None, json_out: bool) -> None:
    from macaron_cli.output import Out, print_json

    repo = _open(app_ref)
    cps = repo.checkpoints()
    for n, what in repo.damaged.items():
        Out(stderr=True).text(f"Checkpoint {n} is damaged ({what}); rollback cannot go there, the others are intact.")
    if json_out:
        print_json([cp.to_json() for cp in cps])
        return
    out = Out()
    app = ref_for(repo.path)
    if not cps:
        out.text(f'{app} has no checkpoints yet. Save one with `macaron checkpoint {app} -m "…"`.')
        return
    out.line("Checkpoints of [bold]{}[/] ({}):", app, repo.path)
    for cp in cps:
        extras = [
            f"tests {_tests(cp.tests)}" if cp.tests is not None else "",
            f"${cp.cost_usd:.2f}" if cp.cost_usd is not None else "",
        ]
        detail = ", ".join(e for e in [_files(cp.files_changed), *extras] if e)
        out.line(
            "[bold]{:>3}[/]  {}  [cyan]{:<12}[/] {}  [dim]{} · {}[/]",
            cp.id,
            cp.time[:16].replace("T", " "),
            cp.phase,
            cp.subject,
            detail,
            cp.commit[:8],
        )


def rollback(
    app_ref: str | None, to: int | None, steps: int | None, undo: bool, with_data: bool, dry_run: bool, yes: bool
) -> None:
    from macaron_cli.output import Out

    if undo and (to is not None or steps is not None):
        raise UserError("--undo reverses the last rollback; use it without --to or --steps.")
    if undo and with_data:
        raise UserError("--undo restores data exactly when the rollback did; drop --with-data.")
    repo = _open(app_ref)
    out = Out()

    def act(dry: bool):
        return repo.undo(dry_run=dry) if undo else repo.rollback(to=to, steps=steps, with_data=with_data, dry_run=dry)

    plan = act(dry=True)
    app = ref_for(repo.path)
    what = f"Undo the last rollback of {app}, back" if undo else f"Roll back {app}"
    differ = "1 file differs" if plan.files_changed == 1 else f"{plan.files_changed} files differ"
    out.line(
        "{} to checkpoint [bold]{}[/] ({}: {}): {}{}.",
        what,
        plan.target.id,
        plan.target.phase,
        plan.target.subject,
        differ,
        "; the app data is restored too" if plan.with_data else "",
    )
    if plan.diffstat:
        out.text(plan.diffstat)
    if plan.blocked:
        out.line("[yellow]These git-ignored files are in the way; move them first:[/] {}", ", ".join(plan.blocked))
    if dry_run:
        out.text("Dry run: nothing changed.")
        return
    if not yes:
        if not sys.stdin.isatty():
            raise UserError("rollback needs your confirmation; run it in a terminal or add --yes.")
        if not _go_ahead(f"Go ahead? (nothing is lost: `macaron rollback {app} --undo` brings it back)"):
            out.text("Nothing changed.")
            return
    result = act(dry=False)
    from macaron_cli.ledger import signals

    # A rollback says the last change did not serve the person; an undo takes that back.
    signals.app_event(repo.path.name, "undo" if undo else "rollback", to=result.target.id)
    if result.saved:
        out.line("Your current state is saved as checkpoint {}.", result.saved.id)
    done = f"Now at checkpoint {result.checkpoint.id}, the same files as checkpoint {result.target.id}"
    if result.with_data:
        done += ", with its data" if result.data_restored else " (it had no data snapshot, so the data is as it was)"
    out.text(done + f". Undo with `macaron rollback {app} --undo`.")
    _warn(out, repo)


def _warn(out, repo) -> None:
    for warning in dict.fromkeys(repo.warnings):
        out.line("[yellow]Note:[/] {}.", warning)


def _files(n: int) -> str:
    return f"{n} file{'s' if n != 1 else ''}"


def _tests(tests) -> str:
    if isinstance(tests, dict):
        return ", ".join(f"{v} {k}" for k, v in tests.items())
    return str(tests)


@question
def _go_ahead(asked: str) -> bool:
    import typer

    return typer.confirm(asked, default=True)
