"""Where generated code runs: `get_sandbox()` picks the strongest backend this machine has.

Strongest first: docker (a container), bubblewrap (namespaces, read-only system), process
(resource limits only). `MACARON_SANDBOX=docker|bubblewrap|process` forces one; forcing
one that cannot run here is a UserError. Backends import their heavy parts (the docker
SDK) only when used. `sandbox_for_untrusted` is how code the person did not write asks for
one: where none has walls (walls.py), it is refused unless they accepted the risk.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from macaron_cli.errors import UserError
from macaron_cli.sandbox.base import Result, Sandbox, SandboxUnavailable
from macaron_cli.sandbox.bubblewrap import BubblewrapSandbox
from macaron_cli.sandbox.container import DockerSandbox, image_name
from macaron_cli.sandbox.process import ProcessSandbox
from macaron_cli.sandbox.walls import refuse_unwalled, written_by_macaron

if TYPE_CHECKING:
    from macaron_cli.config import Settings

__all__ = [
    "BACKENDS",
    "Result",
    "Sandbox",
    "SandboxUnavailable",
    "describe_backends",
    "get_sandbox",
    "sandbox_for_untrusted",
]

BACKENDS: dict[str, type[Sandbox]] = {
    "docker": DockerSandbox,
    "bubblewrap": BubblewrapSandbox,
    "process": ProcessSandbox,
}


@dataclass
class BackendStatus:
    name: str
    available: bool
    active: bool
    reason: str  # why it is unavailable, or what it protects against
    forced: bool = False


def _unavailable_reason(cls: type[Sandbox], settings: Settings | None) -> str | None:
    try:
        cls.check_available(settings)
    except SandboxUnavailable as exc:
        return str(exc)
    return None


def _forced() -> str | None:
    name = os.environ.get("MACARON_SANDBOX", "").strip().lower()
    if name and name not in BACKENDS:
        raise UserError(f"MACARON_SANDBOX={name!r} is not a sandbox; use one of {', '.join(BACKENDS)} or unset it.")
    return name or None


def get_sandbox(serving: bool = False, settings: Settings | None = None) -> Sandbox:
    """The sandbox to run app code in. `serving=True` skips backends that cannot keep a
    long-running server reachable from this machine (docker runs commands to completion).
    `settings`: the person's (their `docker_image`); the defaults when None."""
    forced = _forced()
    if forced:
        reason = _unavailable_reason(BACKENDS[forced], settings)
        if reason:
            raise UserError(
                f"MACARON_SANDBOX={forced} but {forced} is unavailable: {reason}; "
                "unset MACARON_SANDBOX to use the strongest available."
            )
        if not (serving and forced == "docker"):
            return _made(BACKENDS[forced], settings)
    for name, cls in BACKENDS.items():
        if serving and name == "docker":
            continue
        if _unavailable_reason(cls, settings) is None:
            return _made(cls, settings)
    return ProcessSandbox()


def sandbox_for_untrusted(
    what: str, accept_risk: bool, app: Path | None = None, serving: bool = False, settings: Settings | None = None
) -> Sandbox:
    """The sandbox to run `what` in, code the person did not write (the app at `app`, a
    bundle's tests): refused (UserError) where no backend has walls, unless the app's code
    is macaron's own (sandbox/walls.py) or the person accepted the risk."""
    sandbox = get_sandbox(serving=serving, settings=settings)
    if sandbox.walled or (app is not None and written_by_macaron(app)):
        return sandbox
    forced = _forced()
    why = f"MACARON_SANDBOX={forced}" if forced else _unavailable_reason(BubblewrapSandbox, settings)
    refuse_unwalled(why or "no backend keeps the code in", what, accept_risk)
    return sandbox


def _made(cls: type[Sandbox], settings: Settings | None) -> Sandbox:
    return DockerSandbox(image_name(settings)) if cls is DockerSandbox else cls()


def describe_backends(settings: Settings | None = None) -> list[BackendStatus]:
    """Every backend: available or not (and why), and which one `get_sandbox()` uses."""
    forced = _forced()
    statuses, chosen = [], None
    for name, cls in BACKENDS.items():
        reason = _unavailable_reason(cls, settings)
        available = reason is None
        active = chosen is None and available and (forced in (None, name))
        if active:
            chosen = name
        statuses.append(BackendStatus(name, available, active, reason or cls.describe(), forced == name))
    return statuses
