"""An app's macaron.json as running and verifying it need it: the manifest (read and typed
in macaron_cli/manifest.py) with a `run` command macaron can place on a port.

The app finds its data directory in MACARON_APP_DATA (default data/).
"""

from __future__ import annotations

from pathlib import Path

from macaron_cli.errors import UserError
from macaron_cli.manifest import MANIFEST, Manifest, read_manifest

DATA_DIR = "data"


def runnable_manifest(app_dir: Path) -> Manifest:
    """The app's manifest, refused in one line unless it says how to run the app."""
    manifest = read_manifest(app_dir)
    path = Path(app_dir) / MANIFEST
    if manifest.run is None:
        raise UserError(
            f'{path}: "run" must be a list of strings, '
            'e.g. ["{python}", "-m", "uvicorn", "server.main:app", "--port", "{port}"].'
        )
    if "{port}" not in " ".join(manifest.run):
        raise UserError(f'{path}: "run" must contain "{{port}}" so macaron can choose where the app listens.')
    return manifest
