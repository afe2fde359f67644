"""`macaron run APP`: serves the app on loopback, prints the URL, stops cleanly on Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
import urllib.request

import pytest

from tests.conftest import REPO, macaron_command
from tests.support.fixture_apps import copy_app

pytestmark = pytest.mark.slow


def _start(app, *args):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [*macaron_command(), "run", str(app), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


def _url_from(proc, timeout=60) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/", line)
        if found:
            return found.group(0)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise AssertionError(f"no URL printed; stderr: {proc.stderr.read()}")


def test_run_serves_the_real_data_and_stops_on_ctrl_c(tmp_path, macaron_home):
    app = copy_app("good", tmp_path / "app", git=True)
    (app / "data").mkdir()
    (app / "data" / "notes.json").write_text('["water the plants"]')
    proc = _start(app, "--verbose")
    url = _url_from(proc)
    with urllib.request.urlopen(url + "api/notes", timeout=10) as response:
        assert response.status == 200
        assert b"water the plants" in response.read()
    with urllib.request.urlopen(url, timeout=10) as response:
        assert b'id="app"' in response.read()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, out + err
    assert "Stopped" in out
    assert "Application shutdown complete" in err  # the server was asked to stop, not killed
    assert '"GET /api/notes HTTP/1.1" 200' in out + err  # --verbose: the server's own log, a line a request
    with pytest.raises(OSError):  # the server went with it
        urllib.request.urlopen(url, timeout=3)


def test_run_prints_its_own_lines_not_the_servers_request_log(tmp_path, macaron_home):
    app = copy_app("good", tmp_path / "app", git=True)
    proc = _start(app)
    url = _url_from(proc)
    for _ in range(3):
        with urllib.request.urlopen(url + "api/notes", timeout=10) as response:
            assert response.status == 200
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Stopped" in out
    assert "GET /api/notes" not in out + err and "Uvicorn running on" not in out + err


def test_run_open_says_when_no_browser_could_open_it(tmp_path, macaron_home, monkeypatch):
    app = copy_app("good", tmp_path / "app", git=True)
    monkeypatch.setenv("BROWSER", "false")  # a browser command that fails, as none found does
    monkeypatch.delenv("DISPLAY", raising=False)
    proc = _start(app, "--open")
    url = _url_from(proc)
    said = proc.stdout.readline()
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=30)
    assert "No web browser found" in said and url in said


def test_run_on_a_port_in_use_is_a_clear_error(macaron, tmp_path):
    app = copy_app("good", tmp_path / "app", git=True)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = macaron("run", app, "--port", port)
    assert result.returncode == 2
    assert (
        result.stderr
        == f"macaron: port {port} on 127.0.0.1 is already in use; pick another --port, or omit it for a free one.\n"
    )


def test_run_of_something_that_is_no_app_is_a_clear_error(macaron, tmp_path):
    result = macaron("run", tmp_path)
    assert result.returncode == 2 and "is not a macaron app" in result.stderr
