"""An app's macaron.json as running and verifying it need it: the manifest (read and typed
in macaron_cli/manifest.py) with macaron's pinned data, records and commands in place of
the app's own (apps.trusted_manifest), and a `run` command macaron can place on a port.

The app finds its data directory in MACARON_APP_DATA (default data/).
"""

from __future__ import annotations

from pathlib import Path

from macaron_cli.apps import trusted_manifest
from macaron_cli.errors import UserError
from macaron_cli.manifest import MANIFEST, Manifest
from macaron_cli.untrusted.data_paths import DATA_DIR

__all__ = ["DATA_DIR", "runnable_manifest"]


def runnable_manifest(app_dir: Path) -> Manifest:
    """The app's manifest, refused in one line unless it says how to run the app."""
    manifest = trusted_manifest(app_dir)
    path = Path(app_dir) / MANIFEST
    if manifest.run is None:
        raise UserError(
            f'{path}: "run" must be a list of strings, '
            'e.g. ["{python}", "-m", "uvicorn", "server.main:app", "--port", "{port}"].'
        )
    if "{port}" not in " ".join(manifest.run):
        raise UserError(f'{path}: "run" must contain "{{port}}" so macaron can choose where the app listens.')
    return manifest
