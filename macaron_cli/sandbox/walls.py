"""The walls every process that runs app code shares: which places it may not see.

Hidden: the person's home, macaron's home (memory, ledger, chats, registry), the memory
store wherever it lies on this machine, the apps folder and every registered app, wherever
it was made, and the machine's shared temporary folders (other programs' files and sockets,
macaron's own: a `macaron run` socket, another app being verified, the coder CLI's inbox).
Shown again inside them: the app itself and the Python installation that runs it. The
coder's walls (maker/containment.py, enforced by the Agent SDK's CLI) and the bubblewrap
backend (verification, digests, `macaron run`, a bundle's tests) both ask here, so no
process that runs app code sees more than the coder does.

Where no sandbox can run, code the person did not write (a coder's, a stranger's bundle)
runs only when they accepted that risk (`ACCEPT_FLAG`); an app macaron made from its own
templates alone, with no model, still runs: its code is macaron's.
"""

from __future__ import annotations

import site
import sys
from pathlib import Path

from macaron_cli import apps, config
from macaron_cli.errors import UserError

ACCEPT_FLAG = "--accept-unsandboxed"
# Every program on the machine leaves files and sockets here; app code gets a temporary
# folder of its own instead (/dev/shm is private in both sandboxes already: a fresh /dev).
SHARED_TEMP = (Path("/tmp"), Path("/var/tmp"))


def hidden_places(memory_uri: str | None = None, app: Path | None = None) -> tuple[Path, ...]:
    """The places app code may not see, resolved, each once (those that exist); never the
    root, never `app` itself. `memory_uri`: the store's (config.memory_uri), else the
    person's settings are read."""
    uri = memory_uri if memory_uri is not None else config.memory_uri(config.load_settings())
    own = app.resolve() if app is not None else None
    places = [Path.home(), *memory_places(uri), config.apps_dir(), *registered_apps(), *SHARED_TEMP]
    hidden: list[Path] = []
    for place in places:
        path = place.expanduser().resolve()
        if len(path.parts) > 1 and path != own and path.exists() and path not in hidden:
            hidden.append(path)
    return tuple(hidden)


def memory_places(memory_uri: str) -> list[Path]:
    """Where the person's memory lies on this machine: macaron's home (the ledger, chats and
    registry too) and the memory store when it is kept elsewhere on disk."""
    if memory_uri.startswith("file://"):
        return [config.home(), Path(memory_uri.removeprefix("file://"))]
    return [config.home()] if "://" in memory_uri else [config.home(), Path(memory_uri)]


def registered_apps() -> list[Path]:
    """Every app in the registry, wherever it lies (a path outside the apps folder too)."""
    return [Path(e["path"]) for e in apps.load_registry().values() if isinstance(e.get("path"), str)]


def python_install_dirs() -> list[Path]:
    """The Python installation running macaron (and its packages), every folder of it,
    resolved and sorted: what runs an app and its tests, and what the coder's shell needs."""
    executable = Path(sys.executable)
    real = executable.resolve()
    candidates: set[str | Path] = {
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        sys.base_exec_prefix,
        executable.parent,
        real.parent,
        real.parent.parent,
        *site.getsitepackages(),
        site.getusersitepackages(),
    }
    return sorted({Path(c).resolve() for c in candidates if Path(c).is_dir()})


def written_by_macaron(app: Path) -> bool:
    """Whether the app's code is macaron's own: made offline from a template, never from
    another app or a bundle, never touched by a model. Read from the registry (macaron's
    home), never from the app folder, which its code could rewrite."""
    app = app.resolve()
    for entry in apps.load_registry().values():
        path = entry.get("path")
        if isinstance(path, str) and Path(path).resolve() == app:
            return entry.get("mode") == "offline" and not entry.get("from") and not entry.get("coded")
    return False


def refuse_unwalled(unavailable: str, what: str, accept_risk: bool) -> None:
    """Refuse (UserError, one line, before anything is written) to run `what`, code the
    person did not write, where no sandbox can: `unavailable` says why there is none."""
    if accept_risk:
        return
    raise UserError(
        f"no sandbox can run here ({unavailable}), and {what} would run unconfined: it could read your "
        f"memory and files and reach the network. Install bubblewrap (sudo apt-get install bubblewrap), "
        f"or pass {ACCEPT_FLAG} to run it anyway."
    )
