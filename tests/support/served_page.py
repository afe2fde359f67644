"""An app served for real (its own uvicorn) and opened in a real headless Chromium, as a
person would use it: `with served_page(app) as page: page.fill(…)`."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from macaron_cli.sandbox.open_check import CHROMIUM_ARGS, free_port, wait_until_answers


@contextmanager
def served_page(app: Path, ready: str) -> Iterator:
    """The app's page once `ready` (a selector) shows; the server stops after."""
    from playwright.sync_api import sync_playwright

    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "server.main:app", "--host", "127.0.0.1", "--port", str(port)]
    server = subprocess.Popen(command, cwd=app, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_until_answers(f"http://127.0.0.1:{port}/", server, 30) is not None
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS, headless=True)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_selector(ready)
            try:
                yield page
            finally:
                browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
