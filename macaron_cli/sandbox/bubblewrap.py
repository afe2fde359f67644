"""The bubblewrap backend: a read-only view of the system, one writable directory, no network.

bwrap (Debian package `bubblewrap`) runs the command in fresh namespaces: the whole
filesystem read-only, a private /tmp and /dev/shm, only `cwd` writable, no network but a
loopback of its own (so an app's server and a browser inside the same sandbox can talk),
its own PID namespace (when bwrap dies, everything inside dies with it). The person's
home, macaron's home (their memory) and their other apps are hidden behind empty
directories; only the Python installation running macaron is shown again, read-only,
wherever it lies (under /tmp too).
"""

from __future__ import annotations

import functools
import shutil
import site
import subprocess
import sys
from pathlib import Path

from macaron_cli import config
from macaron_cli.sandbox.base import Sandbox, SandboxUnavailable

SANDBOX_HOME = "/tmp/.home"


class BubblewrapSandbox(Sandbox):
    name = "bubblewrap"
    strength = "read-only system, only the app folder writable, your files hidden, no network"

    @classmethod
    def check_available(cls, settings: config.Settings | None = None) -> None:
        problem = _probe()
        if problem:
            raise SandboxUnavailable(problem)

    def home(self) -> str:
        return SANDBOX_HOME

    def wrap(self, cmd: list[str], cwd: Path, network: bool) -> list[str]:
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
        hidden = _private_dirs()
        for path in hidden:
            argv += ["--tmpfs", str(path)]
        for shown in _runtime_dirs():
            argv += ["--ro-bind", str(shown), str(shown)]
        argv += ["--bind", str(cwd), str(cwd)]
        # The empty stand-ins are made read-only last, once the mounts inside them exist.
        for path in hidden:
            argv += ["--remount-ro", str(path)]
        argv += ["--chdir", str(cwd), "--unshare-all"]
        if network:
            argv.append("--share-net")
        return [*argv, "--new-session", "--cap-drop", "ALL", "--die-with-parent", "--", *cmd]


def _private_dirs() -> list[Path]:
    """The person's folders that sandboxed code has no business reading."""
    found = []
    for path in (Path.home(), config.home(), config.apps_dir()):
        path = path.expanduser().resolve()
        # Never hide the root or anything under /tmp (already a private tmpfs).
        if len(path.parts) < 2 or path.is_relative_to("/tmp") or not path.is_dir():
            continue
        found.append(path)
    return found


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


def _runtime_dirs() -> list[Path]:
    """The Python installation (and its packages) that runs apps, where the sandbox would
    hide it: under one of the person's hidden folders, or under /tmp (a venv there is common
    in CI and containers, and the sandbox's /tmp is an empty tmpfs)."""
    hidden = [*_private_dirs(), Path("/tmp")]
    shown: list[Path] = []
    for path in python_install_dirs():  # sorted, so a folder comes before the folders inside it
        if any(path.is_relative_to(h) for h in hidden) and not any(path.is_relative_to(s) for s in shown):
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
