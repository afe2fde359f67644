"""`macaron rate`, `why`, `share`, `feedback export`: each called by cli.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from macaron_cli.errors import UserError
from macaron_cli.output import console


def _slug(app_ref: str | None) -> tuple[str, Path]:
    from macaron_cli.apps import resolve_app

    path = resolve_app(app_ref)
    return path.name, path


def rate(app_ref: str, stars: int) -> None:
    if not 1 <= stars <= 5:
        raise UserError(f"a rating is 1 to 5 stars, not {stars}.")
    slug, _ = _slug(app_ref)
    from macaron_cli.ledger import signals
    from macaron_cli.ledger.store import Ledger
    from macaron_cli.memory import MemoryStore

    ledger = Ledger.open()
    signals.app_event(slug, "rate", float(stars), ledger=ledger)
    changed = signals.settle(MemoryStore.open(), ledger)
    console().print(f"Thanks: {slug} rated {stars}/5." + (f" {len(changed)} memories that shaped it were updated." if changed else ""))


def why(target: str) -> None:
    from macaron_cli.ledger.store import Ledger
    from macaron_cli.ledger.why import explain
    from macaron_cli.memory import MemoryStore

    for line in explain(target, Ledger.open(), MemoryStore.open()):
        console().print(line, markup=False)


def share(app_ref: str | None) -> None:
    slug, path = _slug(app_ref)
    from macaron_cli.apps import load_registry
    from macaron_cli.ledger.share import make_bundle

    info = load_registry().get(slug, {})
    lineage = {"app": slug, "template": info.get("template"), "from": info.get("from")}
    bundle = make_bundle(path, Path.cwd(), lineage)
    console().print(f"Bundle: {bundle}\nIt holds the code and its lineage; no data, no brief, no memories. "
                    f"Your friend runs `macaron make --from {bundle.name}`.")


def feedback_export(file: Path | None) -> None:
    from macaron_cli.apps import load_registry
    from macaron_cli.files import atomic_write, check_target
    from macaron_cli.ledger.export import feedback_records
    from macaron_cli.ledger.store import Ledger
    from macaron_cli.memory import MemoryStore

    path = check_target(file) if file else None  # a bad target: one line, nothing written
    records = feedback_records(Ledger.open(), MemoryStore.open(), load_registry())
    lines = [json.dumps(record, ensure_ascii=False) + "\n" for record in records]
    if path is None:
        sys.stdout.writelines(lines)
        return
    with atomic_write(path) as out:
        out.writelines(lines)
    console(stderr=True).print(f"Exported {len(records)} examples to {path}.")
