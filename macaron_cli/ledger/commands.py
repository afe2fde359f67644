"""`macaron rate`, `why`, `share`, `feedback export` (and the lineage of `apps --tree`): each called by cli.py."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from macaron_cli import config
from macaron_cli.errors import UserError
from macaron_cli.output import Out


def _memory():
    """The person's memory, opened with their settings (each command opens it once)."""
    from macaron_cli.memory import MemoryStore

    return MemoryStore.open(settings=config.load_settings())


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

    ledger = Ledger.open()
    change = last_change(ledger, slug)
    rated = {"change": change["data"].get("checkpoint"), "request": change["data"].get("request")} if change else {}
    signals.app_event(slug, "rate", float(stars), ledger=ledger, **rated)
    # Only the memories this app's brief used: rating one app says nothing about the others'.
    changed = signals.settle(_memory(), ledger, app=slug)
    shaped = (
        " 1 memory that shaped it was updated."
        if len(changed) == 1
        else f" {len(changed)} memories that shaped it were updated."
    )
    what = f"{slug}'s {rated['change']} (“{rated['request']}”)" if rated else slug
    Out().text(f"Thanks: {what} rated {stars}/5." + (shaped if changed else ""))


def last_change(ledger, slug: str) -> dict | None:
    """The app's newest change, when it came after its make: what a rating now rates."""
    from macaron_cli.ledger.store import node

    changes = ledger.events(subject=node("app", slug), kind="change", limit=1)
    made = ledger.events(subject=node("app", slug), kind="app_made", limit=1)
    if changes and (not made or changes[0]["id"] > made[0]["id"]):
        return changes[0]
    return None


def why(target: str) -> None:
    from macaron_cli.ledger.store import FILE, Ledger
    from macaron_cli.ledger.why import explain, explain_memory

    if not (config.home() / FILE).exists():  # refuse before opening creates it
        if target.startswith("m_"):  # a memory never used yet still has its story (what replaced it)
            for line in explain_memory(target, None, _memory()):
                Out().text(line)
            return
        raise UserError("nothing to explain yet: no memory has been used and no app made; chat or make one first.")

    for line in explain(target, Ledger.open(), _memory()):
        Out().text(line)


def share(app_ref: str | None) -> None:
    slug, path = _slug(app_ref)
    from macaron_cli.apps import load_registry
    from macaron_cli.ledger.share import make_bundle

    info = load_registry().get(slug, {})
    lineage = {"app": slug, "template": info.get("template"), "from": info.get("from")}
    bundle = make_bundle(path, Path.cwd(), lineage, withheld=_unshareable())
    # A make needs an idea: the app's title, which the bundle shows anyway, so the command runs as printed.
    idea = shlex.quote(str(info.get("title") or slug))
    Out().text(
        f"Bundle of {slug}: {bundle}\nIt holds the code and its lineage; no data, no brief, no memories. "
        f"Your friend runs `macaron make --from {shlex.quote(bundle.name)} {idea}` where the bundle is."
    )


def _unshareable() -> list:
    """Every memory the privacy gate keeps from a file meant to leave this machine: not only
    those that shaped the app's brief (the person may have pasted one into the code)."""
    from macaron_cli import privacy

    return privacy.not_for(_memory(), privacy.export("a share bundle"))


def feedback_export(file: Path | None) -> None:
    from macaron_cli.apps import load_registry
    from macaron_cli.files import atomic_write, check_target
    from macaron_cli.ledger.export import feedback_records
    from macaron_cli.ledger.store import Ledger

    path = check_target(file) if file else None  # a bad target: one line, nothing written
    records = feedback_records(Ledger.open(), _memory(), load_registry())
    lines = [json.dumps(record, ensure_ascii=False) + "\n" for record in records]
    if path is None:
        sys.stdout.writelines(lines)
        return
    with atomic_write(path) as out:
        out.writelines(lines)
    Out(stderr=True).text(f"Exported {len(records)} examples to {path}.")


def notice_deleted(apps: dict[str, dict]) -> list[str]:
    """Apps whose folder the person removed: a signal for the ledger, recorded once."""
    gone = [slug for slug, info in apps.items() if not info.get("deleted") and not Path(info.get("path", "")).exists()]
    if gone:
        from macaron_cli import apps as apps_registry
        from macaron_cli.ledger import signals

        for slug in gone:
            signals.app_event(slug, "deleted")
            apps_registry.register(slug, deleted=True)
            apps[slug]["deleted"] = True
        # The memories behind a deleted app lose credit now.
        signals.settle(_memory())
    return gone


def print_tree(rows: list[dict], json_out: bool) -> None:
    """Lineage: each app under the app (or shared bundle) it was made from, with its outcome."""
    from macaron_cli.ledger import Ledger, node
    from macaron_cli.ledger.reward import outcome_of
    from macaron_cli.output import markup, print_json

    ledger = Ledger.open()
    for row in rows:
        row["outcome"] = round(outcome_of(ledger, node("app", row["app"])).reward, 3)
    if json_out:
        print_json(rows)
        return
    from rich.tree import Tree

    known = {r["app"] for r in rows}
    children: dict[str | None, list[dict]] = {}
    for row in rows:
        parent = row.get("from") if row.get("from") in known else None
        children.setdefault(parent, []).append(row)
    root = Tree("your apps")

    def grow(branch, parent):
        for row in children.get(parent, []):
            gone = " (deleted)" if row.get("deleted") else ""
            label = markup(
                "{}{}  [dim]{}[/]  outcome {:+.2f}", row["app"], gone, row.get("template", ""), row["outcome"]
            )
            grow(branch.add(label), row["app"])

    grow(root, None)
    Out().render(root)
