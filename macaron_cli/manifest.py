"""An app's and a template's macaron.json on macaron's side, and the one place that opens
the file (tests/test_manifest.py fails on a read of it anywhere else).

Its shape, and the digest's, are declared once in templates/_shared/server/app_manifest.py,
which every app carries; the names below are that file's, typed for mypy from it and
loaded from the installed templates at run time as spec.py loads the spec.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from macaron_cli.errors import UserError

if TYPE_CHECKING:
    from app_manifest import (
        KEYS,
        MANIFEST,
        PERIODS,
        Digest,
        Manifest,
        ManifestError,
        Records,
        digest_problem,
    )
else:
    from macaron_cli.resources import shared_module

    _declared = shared_module("app_manifest")
    Manifest, Records, ManifestError, Digest = (
        _declared.Manifest,
        _declared.Records,
        _declared.ManifestError,
        _declared.Digest,
    )
    MANIFEST, PERIODS, KEYS = _declared.MANIFEST, _declared.PERIODS, _declared.KEYS
    digest_problem = _declared.digest_problem

__all__ = [
    "KEYS",
    "MANIFEST",
    "PERIODS",
    "Digest",
    "Manifest",
    "ManifestError",
    "Records",
    "digest_problem",
    "manifest_or_none",
    "read_manifest",
    "template_manifests",
    "write_manifest",
]


def read_manifest(folder: Path) -> Manifest:
    """The app's manifest; a UserError saying what to fix when it is missing or broken."""
    try:
        return Manifest.load(Path(folder))
    except FileNotFoundError:
        raise UserError(f"{folder} has no {MANIFEST}; is it a macaron app?") from None
    except OSError as exc:
        raise UserError(f"{Path(folder) / MANIFEST} cannot be read ({exc.strerror}).") from None
    except ManifestError as exc:
        raise UserError(f"{str(exc).rstrip('.')}; fix it or roll the app back (`macaron rollback`).") from None


def manifest_or_none(folder: Path) -> Manifest | None:
    """The manifest in `folder`, None when there is none or it is broken (for readers that
    go on without one: listing apps, a title, the spec of an app made before specs)."""
    try:
        return Manifest.load(Path(folder))
    except (OSError, ManifestError):
        return None


def write_manifest(folder: Path, manifest: Manifest) -> None:
    """Write the manifest into `folder` as macaron.json (indented, every key kept)."""
    path = Path(folder) / MANIFEST
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(manifest.to_json(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def template_manifests(root: Path | None = None) -> list[Manifest]:
    """Every template's manifest under `root` (the installed templates), in folder order.
    A broken one is left out: it must not break make for every other idea."""
    from macaron_cli.resources import templates_dir

    root = root or templates_dir()
    found = (manifest_or_none(path.parent) for path in sorted(root.glob(f"*/{MANIFEST}")))
    return [m for m in found if m is not None]
