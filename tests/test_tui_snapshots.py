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


LONG = [
    dict(
        id="m_commute_ko",
        text="저는 매일 아침 자전거를 타고 회사에 출근하는데 비가 오는 날에는 지하철을 타고, "
        "주말에는 한강에서 자전거를 탑니다.",
        domain="fitness",
        language="ko",
        created_at="2026-11-30T08:00:00+00:00",
    ),
    dict(
        id="m_caffeine_ja",
        text="毎朝コーヒーを飲みますが、カフェインを減らしたいので午後は緑茶か麦茶にしています。",
        domain="health",
        language="ja",
        created_at="2026-11-29T08:00:00+00:00",
    ),
]


@pytest.fixture
def long_browser(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    fill(store)
    store.add_many(LONG)
    return MemoryBrowser(store, now=NOW, export_dir=tmp_path)


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 48)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_list_at_every_terminal_size(long_browser, snap_compare, size):
    """The list gets most of the height, the text most of the width, cut with "…" by cell width."""
    assert snap_compare(long_browser, terminal_size=size, run_before=keys("down"))


def test_search_at_80x24(long_browser, snap_compare):
    assert snap_compare(long_browser, terminal_size=(80, 24), run_before=keys("slash", *"remote", "enter"))


def test_details_opened_at_80x24(long_browser, snap_compare):
    assert snap_compare(long_browser, terminal_size=(80, 24), run_before=keys("i"))
