"""Shared fixtures: a private MACARON_HOME per test, the CLI in a subprocess, a model server.

CLI tests run the `macaron` that is installed when MACARON_TEST_INSTALLED=1 (CI sets it
after a plain `pip install .`, so the shipped package is what gets tested); otherwise
`python -m macaron_cli` from this checkout, so worktrees test their own code.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _keyword_memory_unless_asked(request, monkeypatch):
    """Embedding every memory a test adds costs time in each process: tests search memory by
    keywords only, except those marked `@pytest.mark.embeddings` (the model is a dependency:
    never skipped)."""
    if request.node.get_closest_marker("embeddings") is None:
        monkeypatch.setenv("MACARON_EMBEDDINGS", "off")
    else:
        monkeypatch.delenv("MACARON_EMBEDDINGS", raising=False)


@pytest.fixture
def macaron_home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "home"
    monkeypatch.setenv("MACARON_HOME", str(home))
    monkeypatch.setenv("MACARON_APPS_DIR", str(tmp_path / "apps"))
    monkeypatch.delenv("MACARON_MEMORY_URI", raising=False)
    for name in (
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_AUTH_TOKEN",
        "ANTHROPIC_BASE_URL",
        "MACARON_DRAFT_URL",
        "MACARON_DRAFT_MODEL",
        "MACARON_DRAFT_API",
        "MACARON_SANDBOX",
    ):
        monkeypatch.delenv(name, raising=False)
    return home


def macaron_command() -> list[str]:
    if os.environ.get("MACARON_TEST_INSTALLED") == "1":
        exe = shutil.which("macaron")
        assert exe, "MACARON_TEST_INSTALLED=1 but no `macaron` on PATH"
        return [exe]
    return [sys.executable, "-m", "macaron_cli"]


@pytest.fixture
def macaron(macaron_home):
    """Run the CLI: `macaron("memory", "add", "…")` → CompletedProcess (text, never raises)."""

    def run(*args, input: str | None = None, env: dict | None = None, cwd=None, timeout: float = 120):
        full_env = {**os.environ, **(env or {})}
        if os.environ.get("MACARON_TEST_INSTALLED") != "1":
            full_env["PYTHONPATH"] = str(REPO) + os.pathsep + full_env.get("PYTHONPATH", "")
        return subprocess.run(
            [*macaron_command(), *map(str, args)],
            input=input,
            capture_output=True,
            text=True,
            env=full_env,
            cwd=cwd,
            timeout=timeout,
        )

    return run


@pytest.fixture
def model_server():
    """Start a scripted model server: `with model_server(responder) as server: …`."""
    from tests.support.model_server import ModelServer

    return ModelServer
