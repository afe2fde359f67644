"""The environment a process running app code starts with: an allow-list, never the
person's own variables (their API keys and tokens above all).

Every process that runs what an app folder holds (its tests, its server, its digest, the
coder's shell) gets this and nothing else of the host's; a caller adds only what that
process needs to work (a port, the app's settings file).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"


def for_app_code(home: str, tmpdir: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """PATH, a UTF-8 locale, a HOME and TMPDIR of the walls' own, then `extra`."""
    base = {
        "PATH": os.environ.get("PATH", DEFAULT_PATH),
        "LANG": "C.UTF-8",
        "HOME": home,
        "TMPDIR": tmpdir,
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    return {**base, **(extra or {})}
