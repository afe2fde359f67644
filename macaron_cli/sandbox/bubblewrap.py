"""The bubblewrap backend: a read-only view of the system, one writable directory, no network.

bwrap (Debian package `bubblewrap`) runs the command in fresh namespaces: the whole
filesystem read-only, a private /tmp and /dev/shm, only `cwd` writable, no network but a
loopback of its own (so an app's server and a browser inside the same sandbox can talk),
its own PID namespace (when bwrap dies, everything inside dies with it). What the walls
hide (sandbox/walls.py: the person's home, macaron's home, the memory store wherever it
lies, the apps folder and every registered app) is covered by empty read-only folders;
only the Python installation running macaron is shown again, read-only, wherever it lies
(under /tmp too), and the working folder.

`serve` keeps the network off too: the app listens on a unix socket in a folder bound into
the sandbox, and macaron forwards 127.0.0.1:PORT to it (sandbox/forward.py).
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import tempfile
from pathlib import Path

from macaron_cli import config
from macaron_cli.sandbox.base import Sandbox, SandboxUnavailable, Serving
from macaron_cli.sandbox.walls import hidden_places, python_install_dirs

SANDBOX_HOME = "/tmp/.home"


class BubblewrapSandbox(Sandbox):
    name = "bubblewrap"
    walled = True
    strength = "read-only system, only the app folder writable, your files hidden, no network"

    @classmethod
    def check_available(cls, settings: config.Settings | None = None) -> None:
        problem = _probe()
        if problem:
            raise SandboxUnavailable(problem)

    def home(self) -> str:
        return SANDBOX_HOME

    def serve(self, cmd, cwd, port: int, env: dict | None = None, **popen) -> Serving:
        """No network of its own: the server listens on a unix socket (uvicorn reads
        UVICORN_UDS) in a folder bound into the sandbox, and 127.0.0.1:`port` is forwarded
        to it from outside."""
        from macaron_cli.sandbox.forward import Forwarder

        folder = Path(tempfile.mkdtemp(prefix="macaron-serve-"))
        socket = folder / "app.sock"
        forwarder = None
        try:
            forwarder = Forwarder(port, socket)
            env = {**(env or {}), "UVICORN_UDS": str(socket)}
            process = self.spawn(cmd, cwd, env=env, shared=(folder,), **popen)
        except BaseException:
            if forwarder is not None:
                forwarder.close()
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return Serving(process, forwarder, folder)

    def wrap(self, cmd: list[str], cwd: Path, network: bool, shared: tuple[Path, ...] = ()) -> list[str]:
        argv = [
            "bwrap",
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--tmpfs",
            "/dev/shm",
            "--proc",
            "/proc",
            "--tmpfs",
            "/tmp",
            "--dir",
            SANDBOX_HOME,
        ]
        hidden = _hidden(cwd)
        shown = _runtime_dirs(hidden)
        # A hidden place inside a shown one (the app, the Python) is covered again after it.
        first = [h for h in hidden if not _inside(h, [cwd, *shown, *shared])]
        last = [h for h in hidden if h not in first]
        for path in first:
            argv += ["--tmpfs", str(path)]
        for path in shown:
            argv += ["--ro-bind", str(path), str(path)]
        for path in (cwd, *shared):
            argv += ["--bind", str(path), str(path)]
        for path in last:
            argv += ["--tmpfs", str(path)]
        # The empty stand-ins are made read-only last, once the mounts inside them exist.
        for path in hidden:
            argv += ["--remount-ro", str(path)]
        argv += ["--chdir", str(cwd), "--unshare-all"]
        if network:
            argv.append("--share-net")
        return [*argv, "--new-session", "--cap-drop", "ALL", "--die-with-parent", "--", *cmd]


def _hidden(cwd: Path) -> list[Path]:
    """The walls' hidden folders (sandbox/walls.py) that need a mount here: not the working
    folder, nothing under /tmp (already a private tmpfs), nothing inside another hidden
    folder unless something shown lies between."""
    places = sorted(p for p in hidden_places(app=cwd) if p.is_dir() and not p.is_relative_to("/tmp"))
    found: list[Path] = []
    for path in places:  # sorted: a folder comes before the folders inside it
        if not any(path.is_relative_to(h) for h in found) or _inside(path, [cwd, *python_install_dirs()]):
            found.append(path)
    return found


def _inside(path: Path, places) -> bool:
    return any(path != p and path.is_relative_to(p) for p in places)


def _runtime_dirs(hidden: list[Path]) -> list[Path]:
    """The Python installation (and its packages) that runs apps, where the sandbox would
    hide it: under one of the hidden folders, or under /tmp (a venv there is common in CI
    and containers, and the sandbox's /tmp is an empty tmpfs)."""
    covered = [*hidden, Path("/tmp")]
    shown: list[Path] = []
    for path in python_install_dirs():  # sorted, so a folder comes before the folders inside it
        if any(path.is_relative_to(h) for h in covered) and not any(path.is_relative_to(s) for s in shown):
            shown.append(path)
    return shown


@functools.lru_cache(maxsize=1)
def _probe() -> str | None:
    """Why bwrap cannot run here, or None. Checked once: a binary alone is not enough (user
    namespaces may be disabled, or we may be inside a container that forbids them)."""
    if not shutil.which("bwrap"):
        return "bwrap is not installed (apt-get install bubblewrap)"
    try:
        done = subprocess.run(
            ["bwrap", "--ro-bind", "/", "/", "--unshare-all", "--cap-drop", "ALL", "--", "true"],
            capture_output=True,
            text=True,
            timeout=15,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap does not start ({exc})"
    if done.returncode != 0:
        return (
            f"bwrap cannot create namespaces here ({done.stderr.strip() or done.returncode}); "
            "enable unprivileged user namespaces"
        )
    return None
