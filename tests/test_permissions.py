"""The person's data is readable by them alone: MACARON_HOME and every app's data folder
0700, their files 0600, also when they already existed looser (tightened on open)."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys

import pytest

from tests.conftest import REPO, macaron_command
from tests.support.fixture_apps import copy_app


def _loose(root) -> list[str]:
    """Everything under `root` (itself included) that anyone but the person may read."""
    found = []
    for path in [root, *root.rglob("*")]:
        mode = stat.S_IMODE(path.lstat().st_mode)
        want = 0o700 if path.is_dir() else 0o600
        if mode & ~want & 0o777 or (path.is_dir() and mode != 0o700):
            found.append(f"{path.relative_to(root)} {oct(mode)}")
    return found


@pytest.mark.slow
def test_a_fresh_home_is_private_after_memory_chat_ledger_and_export(macaron, macaron_home, tmp_path):
    assert macaron("memory", "add", "I take my pills at 8").returncode == 0
    assert macaron("feedback", "export", tmp_path / "fb.jsonl").returncode == 0  # opens the ledger
    assert macaron("why", "last").returncode == 2  # nothing to explain, but the ledger is read
    assert _loose(macaron_home) == []


def test_a_home_that_existed_open_to_everyone_is_tightened_on_open(macaron, macaron_home):
    (macaron_home / "memory").mkdir(parents=True)
    os.chmod(macaron_home, 0o755)
    os.chmod(macaron_home / "memory", 0o755)
    (macaron_home / "config.toml").write_text("budget_usd = 1.0\n")
    os.chmod(macaron_home / "config.toml", 0o644)
    assert macaron("memory", "add", "the first memory").returncode == 0
    # files an older macaron left readable by others inside the store
    for path in (macaron_home / "memory").rglob("*"):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    os.chmod(macaron_home / "memory", 0o755)
    os.chmod(macaron_home, 0o751)

    assert macaron("memory", "list").returncode == 0  # a read is enough

    assert _loose(macaron_home) == []


def test_whatever_an_app_creates_in_the_sandbox_is_private(tmp_path):
    from macaron_cli.sandbox import get_sandbox

    app = tmp_path / "app"
    app.mkdir()
    script = (
        "import os, sqlite3; os.makedirs('data/nested'); sqlite3.connect('data/app.db').execute('create table t(x)')"
    )
    result = get_sandbox().run([sys.executable, "-c", script], app, timeout=60)
    assert result.exit_code == 0, result.stderr
    assert _loose(app / "data") == []


@pytest.mark.slow
def test_macaron_run_tightens_an_apps_existing_data(tmp_path, macaron_home):
    app = copy_app("good", tmp_path / "app", git=True)
    (app / "data").mkdir()
    (app / "data" / "notes.json").write_text('["water the plants"]')
    os.chmod(app / "data", 0o755)
    os.chmod(app / "data" / "notes.json", 0o644)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [*macaron_command(), "run", str(app)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        line = ""
        while "running at" not in line:
            line = proc.stdout.readline()
            assert line or proc.poll() is None, proc.stderr.read()
        assert _loose(app / "data") == []
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
