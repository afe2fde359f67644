"""The parts of an app's macaron.json that running and verifying it need, checked once.

Fields used here: run and test (argv lists with "{python}" and "{port}"), main_selector
(the element that must render; "#app" when absent), data_files (paths in the app, e.g.
"data/app.db"), digest (the life-log command: argv with "{python}", "{since}", "{today}",
"{period}") and records (what the app's records mean: domain, period, kind, meaning).
The app finds its data directory in MACARON_APP_DATA (default data/).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeGuard

from macaron_cli.apps import APP_MANIFEST
from macaron_cli.errors import UserError

DATA_DIR = "data"


@dataclass
class AppManifest:
    path: Path
    title: str
    run: list[str]
    test: list[str] | None
    main_selector: str = "#app"
    data_files: list[str] = field(default_factory=list)
    digest: list[str] | None = None
    records: dict = field(default_factory=dict)


def read_manifest(app_dir: Path) -> AppManifest:
    path = Path(app_dir) / APP_MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{app_dir} has no {APP_MANIFEST}; is it a macaron app?") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"{path} is not valid JSON ({exc}); fix it or roll the app back.") from None
    if not isinstance(data, dict):
        raise UserError(f"{path} must hold one JSON object.")
    run = data.get("run")
    if not _is_argv(run):
        raise UserError(
            f'{path}: "run" must be a list of strings, '
            'e.g. ["{python}", "-m", "uvicorn", "server.main:app", "--port", "{port}"].'
        )
    if "{port}" not in " ".join(run):
        raise UserError(f'{path}: "run" must contain "{{port}}" so macaron can choose where the app listens.')
    test = data.get("test")
    if test is not None and not _is_argv(test):
        raise UserError(
            f'{path}: "test" must be a list of strings, e.g. ["{{python}}", "-m", "pytest", "-q", "tests"].'
        )
    digest = data.get("digest")
    if digest is not None and not _is_argv(digest):
        raise UserError(
            f'{path}: "digest" must be a list of strings, e.g. '
            '["{python}", "-m", "server.macaron_life", "--since", "{since}", "--today", "{today}"].'
        )
    records = data.get("records")
    return AppManifest(
        path=Path(app_dir),
        title=str(data.get("title") or data.get("name") or Path(app_dir).name),
        run=run,
        test=test,
        main_selector=str(data.get("main_selector") or "#app"),
        data_files=[str(f) for f in data.get("data_files") or []],
        digest=digest,
        records=records if isinstance(records, dict) else {},
    )


def _is_argv(value: object) -> TypeGuard[list[str]]:
    return isinstance(value, list) and bool(value) and all(isinstance(a, str) for a in value)
