"""The registry of apps macaron made, and how a command finds the app it means.

The registry is `$MACARON_HOME/apps.json`: {slug: {path, idea, template, created_at, …}}.
A path or slug always wins; with none, the app containing the current directory, else
the most recently made one.
"""

from __future__ import annotations

import json
from pathlib import Path

from macaron_cli import config
from macaron_cli.errors import UserError

# Every macaron app is a git repo with a tracked manifest (macaron.json: template, run and
# test commands, data files) and a git-ignored `.macaron/` folder for private state
# (the brief with the person's memories, data snapshots, screenshots, the lock).
APP_MANIFEST = "macaron.json"
PRIVATE_DIR = ".macaron"


def registry_path() -> Path:
    return config.home() / "apps.json"


def load_registry() -> dict[str, dict]:
    path = registry_path()
    if not path.exists():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise UserError(f"{path} is damaged; fix it or move it away (your apps themselves are untouched).") from None


def register(slug: str, **info) -> None:
    """Add or update an app's entry (atomically: a crash never leaves half a file)."""
    data = load_registry()
    data[slug] = {**data.get(slug, {}), **info}
    config.ensure_private_dir(config.home())
    from macaron_cli.files import write_atomic

    write_atomic(registry_path(), json.dumps(data, ensure_ascii=False, indent=2))


def is_app(path: Path) -> bool:
    return (path / APP_MANIFEST).is_file() and (path / ".git").exists()


def resolve_app(ref: str | None) -> Path:
    """The app directory `ref` names (slug or path), or the one we are in, or the latest."""
    if ref:
        candidate = Path(ref).expanduser()
        if candidate.is_dir():
            if not is_app(candidate.resolve()):
                raise UserError(f"{candidate} is not a macaron app (no {APP_MANIFEST} in a git repo).")
            return candidate.resolve()
        entry = load_registry().get(ref)
        if entry:
            return Path(entry["path"])
        by_dir = config.apps_dir() / ref
        if is_app(by_dir):
            return by_dir
        raise UserError(f"no app named {ref!r}; `macaron apps` lists yours.")
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        if is_app(folder):
            return folder
    apps = load_registry()
    if not apps:
        raise UserError("no apps yet; make one with `macaron make \"…\"`.")
    latest = max(apps.values(), key=lambda e: e.get("created_at", ""))
    return Path(latest["path"])


def notice_deleted(apps: dict[str, dict]) -> list[str]:
    """Apps whose folder the person removed: a signal for the ledger, recorded once."""
    gone = [slug for slug, info in apps.items() if not info.get("deleted") and not Path(info.get("path", "")).exists()]
    if gone:
        from macaron_cli.ledger import signals

        from macaron_cli.memory import MemoryStore

        for slug in gone:
            signals.app_event(slug, "deleted")
            register(slug, deleted=True)
            apps[slug]["deleted"] = True
        signals.settle(MemoryStore.open())  # the memories behind a deleted app lose credit now
    return gone


def list_apps(json_out: bool = False, tree: bool = False) -> None:
    from macaron_cli.output import console, print_json

    apps = load_registry()
    notice_deleted(apps)
    rows = [{"app": slug, **info} for slug, info in sorted(apps.items(), key=lambda kv: kv[1].get("created_at", ""))]
    if tree:
        return _print_tree(rows, json_out)
    if json_out:
        print_json(rows)
        return
    out = console()
    if not rows:
        out.print("No apps yet. Try `macaron make \"a water tracker\"`.")
    for row in rows:
        gone = " [dim](deleted)[/]" if row.get("deleted") else ""
        out.print(f"[bold]{row['app']}[/]{gone}  {row.get('idea', '')}  [dim]{row.get('path', '')}[/]")


def _print_tree(rows: list[dict], json_out: bool) -> None:
    """Lineage: each app under the app (or shared bundle) it was made from, with its outcome."""
    from macaron_cli.ledger import Ledger, node
    from macaron_cli.ledger.reward import outcome_of
    from macaron_cli.output import console, print_json

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
            label = f"{row['app']}{gone}  [dim]{row.get('template', '')}[/]  outcome {row['outcome']:+.2f}"
            grow(branch.add(label), row["app"])

    grow(root, None)
    console().print(root)
