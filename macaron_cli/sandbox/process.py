"""The weakest backend: a plain child process with resource limits.

It limits memory (RLIMIT_DATA), CPU time and file size, gives the command its own process
group so a timeout kills the whole tree, and hands it a minimal environment. Where the
kernel has Landlock it also confines writes to the app folder and a scratch folder. It
does NOT hide the person's files from reading, nor keep the code off the network: use it
only where neither docker nor bubblewrap is available, and `macaron doctor` says so.
"""

from __future__ import annotations

from pathlib import Path

from macaron_cli.sandbox import landlock
from macaron_cli.sandbox.base import Sandbox


class ProcessSandbox(Sandbox):
    name = "process"
    strength = "resource limits and a timeout only; the code can read and write your files and use the network"

    @classmethod
    def describe(cls) -> str:
        if landlock.abi_version():
            return (
                "resource limits, a timeout, writes confined to the app folder (Landlock); "
                "the code can still read your files and use the network"
            )
        return cls.strength

    def tmpdir(self) -> str:
        return self.home()

    def confine(self, cwd: Path):
        # /dev/shm: browsers share memory through it; /dev/null: everything writes to it.
        return landlock.prepare([str(cwd), self.home(), "/dev/shm", "/dev/null"])

    def wrap(self, cmd: list[str], cwd: Path, network: bool, shared: tuple[Path, ...] = ()) -> list[str]:
        return cmd
