"""`macaron feedback export`: on-policy examples for tuning a local draft model.

One JSONL line per app: the brief (only what the privacy gate clears for a file meant to
leave this machine: public and personal memories), the diff from scaffold to now, the
last verification report, the outcome reward and the person's choices. Private and
secret content never leaves in an export: every field written (the idea, the app's name,
the diff, the report) has the text of every memory the gate keeps from it scrubbed, in any
spelling; and an app whose committed files carry the memory store, or an archive holding
a protected text, refuses the export (outgoing.py), as `share` refuses its bundle.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from macaron_cli import privacy
from macaron_cli.ledger.outgoing import committed_files, refuse_carried
from macaron_cli.ledger.reward import outcome_of
from macaron_cli.ledger.store import Ledger, node
from macaron_cli.untrusted import git as untrusted_git


def feedback_records(ledger: Ledger, store, registry: dict) -> list[dict]:
    records = []
    destination = privacy.export("a feedback export")
    # A local model may have written a private memory into the code, or the person pasted
    # one in: none of them is in the diff either, in any spelling.
    held = privacy.not_for(store, destination)
    for made in ledger.events(kind="app_made"):
        app = made["subject"].split(":", 1)[1]
        found = []
        for src in ledger.sources_of(node("brief", app)):
            try:
                found.append(store.get(src.split(":", 1)[1]))
            except Exception:
                continue  # forgotten: it must not come back through an export
        cleared = privacy.release(found, destination).bound_for(destination)
        memories = [{"id": m.id, "text": m.text, "kind": m.kind, "domain": m.domain} for m in cleared]
        info = registry.get(app, {})
        path = Path(info["path"]) if info.get("path") else None
        if path is not None and (path / ".git").exists():
            refuse_carried(path, committed_files(path), held, destination, then="export again", plain=False)
        record = {
            "app": app,
            "idea": info.get("idea"),
            "template": made["data"].get("template"),
            "from": made["data"].get("from"),
            "brief": {"memories": memories},
            "diff": _labelled_out(_diff(path), path, destination),
            "verification": _report(path),
            "reward": round(outcome_of(ledger, made["subject"]).reward, 4),
            "choice": {k: info[k] for k in ("variant", "mode") if k in info},
        }
        records.append(_scrubbed(record, held))
    return records


def _scrubbed(value, held: list):
    """`value` with every string in it (keys too, at any depth) scrubbed of withheld text."""
    if isinstance(value, str):
        return _scrub(value, held)
    if isinstance(value, dict):
        return {_scrubbed(k, held): _scrubbed(v, held) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrubbed(v, held) for v in value]
    return value


def _scrub(text: str, held: list) -> str:
    """`text` with the text of every withheld memory replaced (any spelling: quotes.py)."""
    from macaron_cli.quotes import MIN_QUOTE, normalise, scrub

    if len(text) < MIN_QUOTE:
        return text
    levels = {normalise(m.text): m.privacy for m in held}
    return scrub(text, [m.text for m in held], lambda q: f"[withheld {levels[normalise(q)]} memory]", MIN_QUOTE)


def _labelled_out(diff: str, app_dir: Path | None, destination: privacy.Destination) -> str:
    """The diff without the files a model wrote from memories that may not go out (by their
    label, app_labels.py: such a file may say them in other words)."""
    if not app_dir or not diff:
        return diff
    from macaron_cli import app_labels

    chunks = re.split(r"(?m)^(?=diff --git )", diff)
    for i, chunk in enumerate(chunks):
        name = re.match(r"diff --git a/\S+ b/(\S+)", chunk)
        path = app_dir / name.group(1) if name else None
        if path is None or not path.is_file():
            continue
        level = app_labels.file_level(app_dir, path.read_bytes())
        if name and level and not privacy.may_carry(level, destination):
            rel = name.group(1)
            chunks[i] = f"diff --git a/{rel} b/{rel}\n[withheld: a model wrote it from {level} memories]\n"
    return "".join(chunks)


def _diff(app_dir: Path | None) -> str:
    if not app_dir or not (app_dir / ".git").exists():
        return ""
    first = untrusted_git.run(app_dir, "rev-list", "--max-parents=0", "HEAD", capture_output=True, text=True)
    root = first.stdout.split()[0] if first.stdout.split() else None
    if not root:
        return ""
    diff = untrusted_git.run(
        app_dir,
        *("diff", "--no-textconv", "--no-ext-diff", "--ignore-submodules=all", root, "HEAD"),
        *("--", ".", ":(exclude)config/app.json"),
        capture_output=True,
        text=True,
    )
    return diff.stdout


def _report(app_dir: Path | None) -> dict | None:
    if not app_dir:
        return None
    for name in ("verify.json", "report.json"):
        path = app_dir / ".macaron" / name
        if path.is_file():
            try:
                return json.loads(path.read_text(encoding="utf-8"))
            except json.JSONDecodeError:
                return None
    return None
