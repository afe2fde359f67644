"""What every sandbox backend shares: the Result, resource limits, and killing a process tree.

A backend turns a command into the argv that runs it confined (`wrap`); starting it in its
own process group, limiting it, timing it out and collecting its output is the same for
all local backends and lives here.
"""

from __future__ import annotations

import atexit
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from macaron_cli.untrusted.environment import for_app_code

if TYPE_CHECKING:
    from macaron_cli.config import Settings
    from macaron_cli.sandbox.forward import Forwarder

# Output a runaway process prints is cut to this many characters from each end, so one bad
# app cannot fill macaron's memory or the agent's context.
OUTPUT_LIMIT = 200_000
# No file the sandboxed code writes may grow past this (RLIMIT_FSIZE).
FILE_SIZE_LIMIT = 1 << 30
# Messages a process prints when the memory limit refuses an allocation.
_OUT_OF_MEMORY = ("MemoryError", "Cannot allocate memory", "std::bad_alloc", "out of memory")


@dataclass
class Result:
    exit_code: int | None
    stdout: str
    stderr: str
    duration: float
    # "timeout" when macaron killed it for running too long, "memory" when it died of the
    # memory limit; None when it ended by itself.
    killed_reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and self.killed_reason is None

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Serving:
    """A server started by `Sandbox.serve`: its process tree and what carries the port to it."""

    process: subprocess.Popen
    forwarder: Forwarder | None = None
    folder: Path | None = None  # the socket's folder, removed when it stops

    def stop(self) -> None:
        stop_tree(self.process)
        if self.forwarder is not None:
            self.forwarder.close()
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


class SandboxUnavailable(Exception):
    """This backend cannot run on this machine; the message says why and how to get it."""


class Sandbox:
    """Runs a command confined to one writable directory (`cwd`).

    `network=False` means no network but loopback inside the sandbox (where the backend
    can promise that). `env` is added to a minimal environment: the person's own variables
    (API keys above all) never reach sandboxed code.
    """

    name = "abstract"
    # One line for `macaron doctor`: what this backend protects against.
    strength = ""
    # Whether the code is walled in: the person's files hidden, no network of its own.
    walled = False
    # The interpreter `{python}` in an app's manifest means inside this sandbox.
    python = sys.executable

    @classmethod
    def check_available(cls, settings: Settings | None = None) -> None:
        """Raise SandboxUnavailable (with the reason and fix) when it cannot run here (with
        the person's `settings`: the defaults when None)."""

    @classmethod
    def describe(cls) -> str:
        return cls.strength

    def wrap(self, cmd: list[str], cwd: Path, network: bool, shared: tuple[Path, ...] = ()) -> list[str]:
        """The argv that runs `cmd` confined, `shared` folders writable beside `cwd`; the
        plain process backend returns it as is."""
        raise NotImplementedError

    def home(self) -> str:
        """A writable HOME for sandboxed code (browsers and tools write caches there)."""
        return _scratch_home()

    def tmpdir(self) -> str:
        return "/tmp"

    def confine(self, cwd: Path):
        """Extra confinement applied in the child before exec (a callable), or None."""
        return None

    def environment(self, env: dict | None) -> dict:
        return for_app_code(self.home(), self.tmpdir(), env)

    def spawn(
        self,
        cmd,
        cwd,
        memory_mb: int | None = None,
        network: bool = False,
        env: dict | None = None,
        cpu_seconds: int | None = None,
        shared: tuple[Path, ...] = (),
        **popen,
    ) -> subprocess.Popen:
        """Start `cmd` confined, in its own process group, and return at once."""
        import warnings

        # Digests, `macaron run` and verification start app code while the memory store may
        # be open in this process; lancedb warns about the fork, but the child only sets its
        # limits and execs: it never touches the store.
        warnings.filterwarnings("ignore", message="lancedb fork support")
        cwd = Path(cwd).resolve()
        return subprocess.Popen(
            self.wrap([str(c) for c in cmd], cwd, network, shared),
            cwd=cwd,
            env=self.environment(env),
            start_new_session=True,
            preexec_fn=_limits(memory_mb, cpu_seconds, self.confine(cwd)),
            **popen,
        )

    def serve(self, cmd, cwd, port: int, env: dict | None = None, **popen) -> Serving:
        """Start the server `cmd` so that this machine reaches it on 127.0.0.1:`port`. Here it
        listens there itself, sharing this machine's network; a backend with walls keeps it
        off the network (bubblewrap.py)."""
        return Serving(self.spawn(cmd, cwd, network=True, env=env, **popen))

    def run(
        self,
        cmd,
        cwd,
        timeout: float = 60,
        memory_mb: int | None = 1024,
        network: bool = False,
        env: dict | None = None,
    ) -> Result:
        """Run `cmd` to completion (or kill its whole tree at `timeout` seconds)."""
        started = time.monotonic()
        proc = self.spawn(
            cmd,
            cwd,
            memory_mb=memory_mb,
            network=network,
            env=env,
            cpu_seconds=int(timeout) + 5,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        killed = None
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            killed = "timeout"
            kill_tree(proc)
            out, err = _drain(proc)
        stdout, stderr = _text(out), _text(err)
        code = proc.returncode
        if killed is None and memory_mb and code != 0 and any(m in stderr for m in _OUT_OF_MEMORY):
            killed = "memory"
        return Result(code, stdout, stderr, time.monotonic() - started, killed)


def _limits(memory_mb: int | None, cpu_seconds: int | None, confine=None):
    """A preexec_fn that sets the rlimits in the child before it execs (inherited by its tree)."""

    def apply() -> None:
        # What the app creates (its data folder, its database) is the person's alone.
        os.umask(0o077)
        if confine:
            confine()
        if memory_mb:
            # RLIMIT_DATA, not RLIMIT_AS: browsers and JITs reserve far more address space
            # than they use (Chromium dies at launch under RLIMIT_AS), while DATA counts the
            # private writable memory a process really takes. It is per process.
            size = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_DATA, (size, size))
        if cpu_seconds:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 5))
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def _children_map() -> dict[int, list[int]]:
    """Every live process's children, read from /proc (no psutil needed)."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
        except OSError:
            continue
        # The command name (field 2) may contain spaces and parentheses: split after the last ')'.
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    return children


def descendants(pid: int, children: dict[int, list[int]] | None = None) -> list[int]:
    """Every live process below `pid`, parents before their children."""
    children = _children_map() if children is None else children
    found, queue = [], [pid]
    while queue:
        for child in children.get(queue.pop(0), []):
            found.append(child)
            queue.append(child)
    return found


def leaves(pid: int) -> list[int]:
    """The processes of `pid`'s tree that have no children: the ones doing the work (a
    server inside bwrap, the commands a shell started), or `pid` itself."""
    children = _children_map()
    tree = [pid, *descendants(pid, children)]
    return [p for p in tree if not children.get(p)]


def signal_tree(proc: subprocess.Popen, sig: int) -> None:
    """Send `sig` to the process group and to every descendant, even ones that left the group."""
    targets = descendants(proc.pid)
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass
    for pid in targets:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def kill_tree(proc: subprocess.Popen) -> None:
    signal_tree(proc, signal.SIGKILL)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass


def stop_tree(proc: subprocess.Popen, grace: float = 5.0) -> int | None:
    """Ask the tree to stop (SIGTERM, so servers close their files), then kill what stays.

    Only the leaves are asked: a wrapper such as bwrap does not pass signals on, and killing
    it first would take the server down with SIGKILL before it could shut down cleanly."""
    if proc.poll() is None:
        for pid in leaves(proc.pid):
            try:
                os.kill(pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
    kill_tree(proc)
    return proc.returncode


def _drain(proc: subprocess.Popen) -> tuple[bytes, bytes]:
    try:
        return proc.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        # Something outside our reach still holds the pipes: give up on the rest of the output.
        for pipe in (proc.stdout, proc.stderr):
            if pipe:
                pipe.close()
        return b"", b""


def _text(data: bytes | None) -> str:
    text = (data or b"").decode("utf-8", errors="replace")
    if len(text) > OUTPUT_LIMIT:
        half = OUTPUT_LIMIT // 2
        text = text[:half] + "\n… (output cut) …\n" + text[-half:]
    return text


_HOME: list[str] = []


def _scratch_home() -> str:
    """One throw-away HOME per macaron process for backends that share the host filesystem."""
    if not _HOME:
        path = tempfile.mkdtemp(prefix="macaron-sandbox-home-")
        atexit.register(shutil.rmtree, path, True)
        _HOME.append(path)
    return _HOME[0]
