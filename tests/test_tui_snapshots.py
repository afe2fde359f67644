"""Snapshots of the browser's main screens (pytest-textual-snapshot). Fixed ids, timestamps,
clock and terminal size keep them stable; `pytest --snapshot-update` re-records them."""

from __future__ import annotations

import pytest

from macaron_cli.memory import MemoryStore
from macaron_cli.tui.app import MemoryBrowser
from tests.support.tui import NOW, fill, settle

SIZE = (120, 34)


@pytest.fixture
def browser(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    fill(store)
    return MemoryBrowser(store, now=NOW, export_dir=tmp_path)


async def steady(pilot) -> None:
    """Let the browser finish, and stop cursors blinking so the picture does not depend on when it is taken."""
    await settle(pilot)
    for widget in pilot.app.screen.query("Input, TextArea"):
        widget.cursor_blink = False
        # TextArea caches a line drawn in the blink's off phase under the same key as a steady
        # cursor, so a slow run could show no cursor: drop its cache so the line is drawn anew.
        widget.notify_style_update()
        widget.refresh()
    await pilot.pause()


def keys(*presses):
    """run_before: press keys one by one, letting the browser finish its store calls each time."""

    async def run(pilot):
        await settle(pilot)
        for key in presses:
            await pilot.press(key)
            await settle(pilot)
        await steady(pilot)

    return run


def test_list_screen(browser, snap_compare):
    assert snap_compare(browser, terminal_size=SIZE, run_before=keys("down"))


def test_search_screen_explains_why(browser, snap_compare):
    assert snap_compare(browser, terminal_size=SIZE, run_before=keys("slash", *"remote", "enter"))


def test_filtered_and_marked(browser, snap_compare):
    async def run(pilot):
        await settle(pilot)
        pilot.app.query_one("#filter-domain").value = "family"
        await settle(pilot)
        await pilot.press("space")
        await steady(pilot)

    assert snap_compare(browser, terminal_size=SIZE, run_before=run)


def test_edit_dialog(browser, snap_compare):
    assert snap_compare(browser, terminal_size=SIZE, run_before=keys("down", "e"))


def test_privacy_dialog(browser, snap_compare):
    assert snap_compare(browser, terminal_size=SIZE, run_before=keys("v"))


def test_export_dialog(browser, snap_compare):
    async def run(pilot):
        await settle(pilot)
        await pilot.press("x")
        await settle(pilot)
        pilot.app.screen.query_one("#export-path").value = "~/my-memories.jsonl"  # no tmp path on screen
        await steady(pilot)

    assert snap_compare(browser, terminal_size=SIZE, run_before=run)
