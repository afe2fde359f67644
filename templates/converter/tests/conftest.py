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


@pytest.fixture
def config_file(tmp_path, monkeypatch) -> Path:
    """A private copy of config/app.json that the app under test reads (MACARON_APP_CONFIG)."""
    path = tmp_path / "app.json"
    path.write_text((APP_ROOT / "config" / "app.json").read_text(encoding="utf-8"), encoding="utf-8")
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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def live_app(data_dir, config_file) -> str:
    """The app served by uvicorn on 127.0.0.1, as a person runs it; yields its URL."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}/"
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "server.main:app", "--host", "127.0.0.1", "--port", str(port)],
        cwd=APP_ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(url + "api/health", timeout=1).read()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    server.kill()
                    pytest.fail("the app did not start:\n" + (server.stdout.read() or ""))
                time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
        server.stdout.close()


@pytest.fixture
def page(live_app):
    """A headless Chromium page already on the app, with its main element rendered.

    The page may reach only the app itself: any outside request is blocked and fails
    the test, as does any error in the browser console.
    """
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}; install it or set MACARON_CHROMIUM")
    sync_api = pytest.importorskip("playwright.sync_api")
    problems: list[str] = []

    def only_this_app(route):
        if urlparse(route.request.url).hostname in ("127.0.0.1", "localhost") or route.request.url.startswith("data:"):
            route.continue_()
        else:
            problems.append(f"outside request: {route.request.url}")
            route.abort()

    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            context = browser.new_context(viewport={"width": 480, "height": 860})
            context.route("**/*", only_this_app)
            tab = context.new_page()
            tab.on("console", lambda m: m.type == "error" and problems.append(f"console: {m.text}"))
            tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            tab.set_default_timeout(10_000)
            tab.goto(live_app)
            tab.wait_for_selector("#app > *")
            yield tab
        finally:
            browser.close()
    assert not problems, "\n".join(problems)
