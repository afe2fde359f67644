"""The habit tracker's page as a person reads it, in a real headless Chromium: one of a
counted unit is said as one ("+ 1 cup", never "+ 1 cups")."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from macaron_cli.sandbox.open_check import CHROMIUM_ARGS, free_port, wait_until_answers
from tests.test_change import scaffolded

pytestmark = pytest.mark.slow  # a server and a browser


def _page_text(app, ready: str, *selectors: str) -> list[str]:
    """The app served for real and read in Chromium: the text of each selector's first match."""
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
            said = [page.inner_text(selector) for selector in selectors]
            browser.close()
            return said
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_one_cup_is_one_cup_and_none_are_cups(macaron_home, tmp_path):
    apps = tmp_path / "apps"
    slug = scaffolded("count the cups of water I drink, 8 a day", "en", apps)
    button, total = _page_text(apps / slug, "button.add", "button.add", ".habit .total")
    assert button.strip() == "+ 1 cup"
    assert total.strip() == "0 cups"


def test_a_measure_in_percent_asks_for_its_amount_in_percent_and_is_named_in_japanese(macaron_home, tmp_path):
    apps = tmp_path / "apps"
    slug = scaffolded("体重と体脂肪率を毎朝つける", "ja", apps)
    page = _page_text(apps / slug, ".habit", "body")[0]
    assert "体脂肪率" in page and "body fat" not in page.lower()
    assert "（%）" in page or "(%)" in page
    assert "percent" not in page
