"""Apps keep up with the person: their settings follow what macaron remembers now.

`macaron apps refresh APP` (and `macaron run`, each time) reads the person's current
memories about measures, money and their language, and brings the app's settings
(config/app.json: units, currency, language, colour) up to date without touching its code
or its data. A change is saved as a checkpoint, so `macaron rollback` undoes it.

The memories go through the gate for the app folder (privacy.app_folder): what a later
cloud session in the app could read, so private memories never shape a tracked file.
The newest memory that says something wins: "I switched to ounces" after "I use ml".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from macaron_cli.apps import APP_MANIFEST

APP_CONFIG = "config/app.json"
MEMORY_SCAN = 2000  # the newest facts and preferences looked at; older ones were overridden long ago


@dataclass
class Refreshed:
    app: str
    changes: dict = field(default_factory=dict)  # setting → (old, new)
    checkpoint: int | None = None


def wanted_settings(memories: list, current: dict, person_language: str | None) -> dict:
    """The settings the person's memories (newest first) ask for, where they say anything."""
    from macaron_cli.maker.personal import LANGUAGES, currency_said, units_said

    wanted: dict = {}
    for memory in memories:
        text = memory.text
        if "units" not in wanted and "units" in current and (units := units_said(text)):
            wanted["units"] = units
        if "currency" not in wanted and "currency" in current and (code := currency_said(text)):
            wanted["currency"] = code
    if person_language in LANGUAGES and "language" in current:
        wanted["language"] = person_language
    return wanted


def settings_memories(store) -> list:
    """The person's current facts and preferences that may shape a tracked file, newest first."""
    from macaron_cli import privacy

    superseded = store.superseded_ids()
    found = [
        m
        for m in store.list(limit=MEMORY_SCAN, where="kind IN ('fact', 'preference') AND valid_until IS NULL")
        if m.id not in superseded
    ]
    return privacy.release(found, privacy.app_folder()).memories


def refresh_app(app_dir: Path, store=None, checkpoint: bool = True) -> Refreshed:
    """Bring the app's settings up to date with the person's memories; the changes made."""
    from macaron_cli import config
    from macaron_cli.errors import UserError

    app_dir = Path(app_dir)
    path = app_dir / APP_CONFIG
    if not (app_dir / APP_MANIFEST).is_file():
        raise UserError(f"{app_dir} is not a macaron app (no {APP_MANIFEST}).")
    try:
        current = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise UserError(f"{path} is missing or not valid JSON; fix it or `macaron rollback {app_dir.name}`.") from None
    if not isinstance(current, dict):
        raise UserError(f"{path} must hold one JSON object; fix it or `macaron rollback {app_dir.name}`.")
    if store is None:
        from macaron_cli.memory import MemoryStore

        store = MemoryStore.open()
    wanted = wanted_settings(settings_memories(store), current, config.load_settings().language)
    changes = {k: (current.get(k), v) for k, v in wanted.items() if current.get(k) != v}
    done = Refreshed(app_dir.name, changes)
    if not changes:
        return done
    from macaron_cli.checkpoints import AppRepo
    from macaron_cli.files import write_atomic

    repo = AppRepo.open(app_dir) if checkpoint else None
    if repo is not None and not repo.checkpoints():
        repo.checkpoint("refresh", "before macaron refreshed the settings")
    updated = {**current, **{k: new for k, (_old, new) in changes.items()}}
    write_atomic(path, json.dumps(updated, ensure_ascii=False, indent=2) + "\n")
    if repo is not None:
        said = ", ".join(f"{k} {new}" for k, (_old, new) in changes.items())
        done.checkpoint = repo.checkpoint("refresh", f"settings from your memories: {said}").id
    return done
