"""`macaron apps digest|privacy|refresh`: each called by cli.py."""

from __future__ import annotations

from macaron_cli.output import Out


def digest(app_ref: str | None, json_out: bool = False) -> None:
    from macaron_cli.apps import resolve_app
    from macaron_cli.sandbox.digest import read_digest

    found = read_digest(resolve_app(app_ref))
    if json_out:
        from macaron_cli.output import print_json

        print_json(found.to_dict())
        return
    out = Out()
    out.line("[bold]{}[/]  [dim]{} {} – {}[/]", found.title, found.period, found.since, found.today)
    for line in found.lines:
        out.text(line)
