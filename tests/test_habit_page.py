"""The habit tracker's page as a person reads it, in a real headless Chromium: one of a
counted unit is said as one ("+ 1 cup", never "+ 1 cups")."""

from __future__ import annotations

import pytest

from tests.support.served_page import served_page
from tests.test_change import scaffolded

pytestmark = pytest.mark.slow  # a server and a browser


def _page_text(app, ready: str, *selectors: str) -> list[str]:
    """The app served for real and read in Chromium: the text of each selector's first match."""
    with served_page(app, ready) as page:
        return [page.inner_text(selector) for selector in selectors]


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
