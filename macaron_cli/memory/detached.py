"""Starting a detached worker: `python -m MODULE ARGS…` in a session of its own, quiet, with
this macaron on its path, so the command that started it returns (or exits) without waiting."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def start(module: str, *args: str, pass_fds: tuple[int, ...] = ()) -> None:
    env = dict(os.environ)
    # The child imports this macaron, from wherever this process found it.
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    subprocess.Popen(
        [sys.executable, "-m", module, *args],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
        pass_fds=pass_fds,
    )
