"""The environment a process running app code starts with: an allow-list, never the
person's own variables (their API keys and tokens above all).

Every process that runs what an app folder holds (its tests, its server, its digest, the
coder's shell) gets this and nothing else of the host's; a caller adds only what that
process needs to work (a port, the app's settings file).

The coder's CLI is such a process too: its shell inherits the CLI's environment, so the CLI
starts from this allow-list (maker/coder_home.py) with `reach_model`, the few variables it
needs to reach the model from outside its sandbox (a proxy, the certificates).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"
# How a program on this machine reaches the network: kept for a process that talks to the
# model from outside the walls. Inside its sandbox the coder's CLI sets its own proxy
# variables (measured with claude-agent-sdk 0.2.190: bwrap --setenv HTTPS_PROXY …), so a
# proxy named here never reaches the coder's shell as the person set it.
MODEL_REACH = (
    "HTTPS_PROXY",
    "https_proxy",
    "HTTP_PROXY",
    "http_proxy",
    "NO_PROXY",
    "no_proxy",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
)


def for_app_code(
    home: str, tmpdir: str, extra: Mapping[str, str] | None = None, *, reach_model: bool = False
) -> dict[str, str]:
    """PATH, a UTF-8 locale, a HOME and TMPDIR of the walls' own, then `extra`; with
    `reach_model`, the host's MODEL_REACH variables that are set."""
    base = {
        "PATH": os.environ.get("PATH", DEFAULT_PATH),
        "LANG": "C.UTF-8",
        "HOME": home,
        "TMPDIR": tmpdir,
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    if reach_model:
        base.update({name: value for name in MODEL_REACH if (value := os.environ.get(name))})
    return {**base, **(extra or {})}
