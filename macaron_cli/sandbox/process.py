"""The weakest backend: a plain child process with resource limits.

It limits memory (RLIMIT_AS), CPU time and file size, gives the command its own process
group so a timeout kills the whole tree, and hands it a minimal environment. It does NOT
stop the code from reading or writing the person's files or reaching the network: use it
only where neither docker nor bubblewrap is available, and `macaron doctor` says so.
"""

from __future__ import annotations

from pathlib import Path

from macaron_cli.sandbox.base import Sandbox


class ProcessSandbox(Sandbox):
    name = "process"
    strength = "resource limits and a timeout only; the code can read and write your files and use the network"

    def wrap(self, cmd: list[str], cwd: Path, network: bool) -> list[str]:
        return cmd
