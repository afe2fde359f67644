"""Fixtures every macaron app's tests share: a private data dir, the API client, the
person's settings, the app served for real, and a headless Chromium page on it.

Generated from macaron's templates/_shared/; an app may extend it.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

import pytest

APP_ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("MACARON_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


@pytest.fixture
def data_dir(tmp_path, monkeypatch) -> Path:
    """Each test gets its own empty data directory (never the person's real data)."""
    path = tmp_path / "data"
    monkeypatch.setenv("MACARON_APP_DATA", str(path))
    return path


# Tests see the app's own settings except these, so they pass whatever language, units,
# currency and date format the person chose; a test that needs others uses settings(...).
TEST_SETTINGS = {"title": "", "language": "en", "units": "metric", "currency": "USD", "date_format": "locale"}


@pytest.fixture
def config_file(tmp_path, monkeypatch) -> Path:
    """A private copy of config/app.json that the app under test reads (MACARON_APP_CONFIG)."""
    config = json.loads((APP_ROOT / "config" / "app.json").read_text(encoding="utf-8"))
    path = tmp_path / "app.json"
    path.write_text(json.dumps({**config, **TEST_SETTINGS}, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setenv("MACARON_APP_CONFIG", str(path))
    return path


@pytest.fixture
def settings(config_file):
    """settings(language="ja", currency="JPY"): change the person's settings for this test.

    The app reads its settings on every request, so a running app (live_app, page)
    shows them on the next reload.
    """

    def change(**changes) -> dict:
        config = {**json.loads(config_file.read_text(encoding="utf-8")), **changes}
        fresh = config_file.with_suffix(".new")  # replace, so the app never reads half a file
        fresh.write_text(json.dumps(config, ensure_ascii=False), encoding="utf-8")
        fresh.replace(config_file)
        return config

    return change


@pytest.fixture
def client(data_dir, config_file):
    from fastapi.testclient import TestClient
    from server.main import app

    with TestClient(app) as test_client:
        yield test_client


class AppServer:
    """The app served by uvicorn on a free 127.0.0.1 port, started but maybe not yet up."""

    def __init__(self, log_path: Path):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}/"
        self.log_path = log_path
        with open(log_path, "w") as log:  # a file, not a pipe: a full pipe would stall the app
            self.process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "server.main:app", "--host", "127.0.0.1", "--port", str(port)],
                cwd=APP_ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def wait_until_up(self, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(self.url + "api/health", timeout=1).read()
                return self.url
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("the app did not start:\n" + self.log_path.read_text(errors="replace"))
                time.sleep(0.05)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture
def app_server(data_dir, config_file, tmp_path):
    server = AppServer(tmp_path / "server.log")
    yield server
    server.stop()


@pytest.fixture
def live_app(app_server) -> str:
    """The app served by uvicorn on 127.0.0.1, as a person runs it; its URL."""
    return app_server.wait_until_up()


@pytest.fixture
def page(app_server):
    """A headless Chromium page already on the app, with its main element rendered.

    The page may reach only the app itself: any outside request fails the test, as does
    any error in the browser console.
    """
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}; install it or set MACARON_CHROMIUM")
    sync_api = pytest.importorskip("playwright.sync_api")
    problems: list[str] = []

    def only_this_app(request):
        if urlparse(request.url).hostname not in ("127.0.0.1", "localhost") and not request.url.startswith("data:"):
            problems.append(f"outside request: {request.url}")

    # The browser starts while the app is still starting: the two take the same seconds.
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            url = app_server.wait_until_up()
            context = browser.new_context(viewport={"width": 480, "height": 860})
            tab = context.new_page()
            tab.on("request", only_this_app)
            tab.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
            tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            tab.set_default_timeout(30_000)  # generous: a shared, busy machine is slow, not broken
            tab.goto(url)
            tab.wait_for_selector("#app > *")
            yield tab
        finally:
            browser.close()
    assert not problems, "\n".join(problems)
