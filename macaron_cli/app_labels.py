"""Labels on an app's files: how private is the code a model wrote, and may it go somewhere?

A file a model wrote from a brief that held private memories (a `--local-only` draft, a
fix round on this machine) is as private as that brief, even when it quotes none of them.
After each phase the files it changed are labelled in `.macaron/labels.json`, keyed by
the hash of their content, not by their name: `.macaron/` is git-ignored, so a rollback
leaves the file alone, and the hash keeps it right (the old content brings its old label
back, an edit by the person is the person's). `make --from` carries the labels to the new
app with the code.

What reads them: `make --from` (and an earlier app chosen as the base) before the code
goes to a cloud agent, `share` before a bundle leaves. Both also look for the text of
every memory that may not go (quotes.py), for the lines the person pasted in.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

from macaron_cli import privacy
from macaron_cli.files import write_atomic
from macaron_cli.quotes import MIN_QUOTE, quoted_in
from macaron_cli.untrusted import git as untrusted_git

LABELS = Path(".macaron") / "labels.json"


def content_key(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def load(app: Path) -> dict[str, dict]:
    """content hash → {"level", "path", "sources"}; empty for an app with none (or a damaged file)."""
    try:
        data = json.loads((app / LABELS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(app: Path, labels: dict[str, dict]) -> None:
    (app / LABELS).parent.mkdir(parents=True, exist_ok=True)
    write_atomic(app / LABELS, json.dumps(labels, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8"))


def _changed(app: Path) -> list[str]:
    """Files changed since the last commit (the phase's work), git-ignored ones aside."""
    status = untrusted_git.run(
        app,
        *("status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=all"),
        capture_output=True,
        check=False,
    )
    entries = status.stdout.decode("utf-8", errors="surrogateescape").split("\0")
    found, skip = [], False
    for entry in entries:
        if skip or len(entry) < 4:
            skip = False
            continue
        code, path = entry[:2], entry[3:]
        skip = "R" in code or "C" in code  # the next entry is the old name
        if "D" not in code:
            found.append(path)
    return found


def record(app: Path, made_from: Iterable, files: Iterable[str] | None = None) -> int:
    """Label the files a model just wrote (`files`, else those changed since the last commit)
    as private as what it was `made_from` (the memories its brief held). Returns how many."""
    made_from = list(made_from)
    level = privacy.level_from(made_from)
    if level == privacy.FLOOR:
        return 0  # what any model may see: nothing to remember
    sources = sorted({getattr(getattr(m, "memory", m), "id", "") for m in made_from} - {""})
    labels, count = load(app), 0
    for rel in _changed(app) if files is None else files:
        path = app / rel
        if not path.is_file() or path.is_symlink():
            continue
        labels[content_key(path.read_bytes())] = {"level": level, "path": rel, "sources": sources}
        count += 1
    if count:
        _save(app, labels)
    return count


def carry(source: Path, app: Path) -> None:
    """The labels of `source` (an app made `--from`) kept by the new app, with its code."""
    labels = load(source)
    if labels:
        _save(app, {**labels, **load(app)})


def file_level(app: Path, data: bytes) -> str | None:
    """The label of a file with this content, if a model wrote it from memories."""
    entry = load(app).get(content_key(data))
    return privacy.level_of(entry.get("level", privacy.SECRET)) if isinstance(entry, dict) else None


def written_from(app: Path, ids: set[str]) -> list[Path]:
    """The app's files, as they are now, that a model wrote from any of the memories `ids`."""
    labels = load(app)
    found = []
    for rel in sorted({str(e.get("path", "")) for e in labels.values() if isinstance(e, dict)} - {""}):
        path = app / rel
        if not path.is_file() or path.is_symlink():
            continue
        entry = labels.get(content_key(path.read_bytes()))
        if isinstance(entry, dict) and set(entry.get("sources") or []) & ids:
            found.append(path)
    return found


def tracked(app: Path) -> list[str]:
    listing = untrusted_git.run(app, "ls-files", "-z", capture_output=True, check=False).stdout
    return [rel for rel in listing.decode("utf-8", errors="surrogateescape").split("\0") if rel]


def held_back(app: Path, destination: privacy.Destination, memories: list, files: Iterable[str] | None = None):
    """The app's files (tracked, unless `files`) that may not go to `destination`, each with
    why: a label it forbids, or the text of one of `memories` (those that may not go there)."""
    labels = load(app)
    found: list[tuple[str, str]] = []
    for rel in tracked(app) if files is None else files:
        path = app / rel
        if not path.is_file() or path.is_symlink():
            continue
        data = path.read_bytes()
        entry = labels.get(content_key(data))
        if isinstance(entry, dict) and not privacy.may_carry(entry.get("level", privacy.SECRET), destination):
            level = privacy.level_of(entry.get("level", privacy.SECRET))
            found.append((rel, f"was written by a model from your {level} memories"))
            continue
        quoted = quoted_in(data.decode("utf-8", errors="ignore"), memories, MIN_QUOTE)
        if quoted:
            found.append((rel, f"holds your {quoted[0].privacy} memory {quoted[0].id}"))
    return found
