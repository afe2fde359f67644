"""The memory browser, driven headless with Textual's Pilot. Every action is checked on a
separately opened store, the way chat and make would see it."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Input

from macaron_cli.errors import UserError
from macaron_cli.memory import MemoryStore
from macaron_cli.tui.app import MemoryBrowser
from macaron_cli.tui.dialogs import EditDialog, ExportDialog, PrivacyDialog
from tests.support.tui import NOW, SAMPLE, fill, settle

SIZE = (120, 36)
LIVE = len(SAMPLE) - 1  # m_remote_old is replaced by m_remote_new: history, not in the list


@pytest.fixture
def store_path(tmp_path) -> Path:
    path = tmp_path / "memory"
    fill(MemoryStore.open(path))
    return path


def fresh(path) -> MemoryStore:
    """A second handle on the same memory, as chat or make would open it."""
    return MemoryStore.open(path)


def drive(path, scenario, *, export_dir=None):
    app = MemoryBrowser(MemoryStore.open(path), now=NOW, export_dir=export_dir)

    async def main():
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await scenario(pilot, app)
            await settle(pilot)

    asyncio.run(main())
    return app


async def goto(pilot, app, memory_id: str) -> None:
    """Walk the cursor down to a memory with the arrow key, as a person would."""
    ids = [row.memory.id for row in app.page.rows]
    app.table.focus()
    steps = ids.index(memory_id) - app.table.cursor_row
    for _ in range(abs(steps)):
        await pilot.press("down" if steps > 0 else "up")
    await settle(pilot)
    assert app._highlighted_id() == memory_id


async def type_text(pilot, text: str) -> None:
    for ch in text:
        await pilot.press(ch if ch != " " else "space")


def shown_ids(app) -> list[str]:
    return [row.memory.id for row in app.page.rows]


def table_shows_the_page(app) -> bool:
    """The table's memory column, row by row, begins with the text of the page's memories."""
    from macaron_cli.tui.app import REPLACED_MARK

    cells = (app.table.get_row_at(i)[1].plain for i in range(app.table.row_count))
    shown = [cell.removeprefix("★ ").removeprefix(REPLACED_MARK)[:12] for cell in cells]
    return shown == [row.memory.text[:12] for row in app.page.rows]


def plain(widget) -> str:
    """What a Static shows, as plain text."""
    from rich.console import Console

    console = Console(width=200, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


def status(app) -> str:
    return plain(app.query_one("#status")).rstrip("\n")


def detail(app) -> str:
    return plain(app.query_one("#detail"))


# ── browsing ────────────────────────────────────────────────────────────────────────────
def test_opens_on_every_memory_newest_first(store_path):
    async def scenario(pilot, app):
        assert shown_ids(app)[:3] == ["m_gift", "m_remote_new", "m_pastel"]
        assert len(app.page.rows) == LIVE and "m_remote_old" not in shown_ids(app)  # replaced: history
        assert f"1–{LIVE} of {LIVE}" in status(app)
        assert "Surprise gift for Mika" in detail(app) and "never sent to any model" in detail(app)

    drive(store_path, scenario)


def test_a_loading_note_that_comes_after_the_page_does_not_hide_the_count(store_path):
    async def scenario(pilot, app):
        # A slow load's "loading…" timer fires, but its call is queued behind the page.
        app._note_loading()
        await pilot.pause()
        assert f"1–{LIVE} of {LIVE}" in status(app)

    drive(store_path, scenario)


def test_detail_shows_the_chain_of_versions(store_path):
    async def scenario(pilot, app):
        await goto(pilot, app, "m_remote_new")
        text = detail(app)
        assert "this   m_remote_new" in text and "older  m_remote_old" in text
        await pilot.press("h")  # the replaced versions in the list too, greyed
        await settle(pilot)
        assert len(app.page.rows) == len(SAMPLE) and "with replaced versions" in status(app)
        assert [row.replaced for row in app.page.rows if row.memory.id == "m_remote_old"] == [True]
        await goto(pilot, app, "m_remote_old")
        assert "newer  m_remote_new" in detail(app)
        await pilot.press("h")
        await settle(pilot)
        assert "m_remote_old" not in shown_ids(app) and f"of {LIVE}" in status(app)

    drive(store_path, scenario)


def test_search_updates_as_you_type_and_explains_the_score(store_path):
    async def scenario(pilot, app):
        await pilot.press("slash")
        await type_text(pilot, "coffee")
        await settle(pilot)
        assert shown_ids(app)[0] == "m_coffee" and table_shows_the_page(app)
        assert app.page.rows[0].hit is not None
        assert "Why this result" in detail(app) and "bm25" in detail(app)
        assert "for “coffee”" in status(app)
        for _ in "coffee":
            await pilot.press("backspace")
        await settle(pilot)
        assert len(app.page.rows) == LIVE  # an empty search shows everything again
        assert table_shows_the_page(app)

    drive(store_path, scenario)


def test_search_matches_what_chat_retrieves(store_path):
    expected = [h.memory.id for h in fresh(store_path).search("mika birthday gift", k=50)]

    async def scenario(pilot, app):
        await pilot.press("slash")
        await type_text(pilot, "mika birthday gift")
        await settle(pilot)
        assert shown_ids(app) == expected and table_shows_the_page(app)

    drive(store_path, scenario)


def test_queries_typed_in_one_burst_show_the_last_query_only(store_path):
    """Keys typed faster than a search runs: the table ends on the query as typed, never on
    the results of a prefix that arrived late."""

    def burst(app, keys):
        for key in keys:
            app.post_message(events.Key(key, key if len(key) == 1 else None))

    async def scenario(pilot, app):
        await pilot.press("slash")
        for query in ("coffee", "ramen"):
            burst(app, query)
            await settle(pilot)
            assert f"for “{query}”" in status(app)
            assert shown_ids(app) == [h.memory.id for h in fresh(store_path).search(query, k=50)]
            assert table_shows_the_page(app)
            burst(app, ["backspace"] * len(query))
            await settle(pilot)
        assert len(app.page.rows) == LIVE and table_shows_the_page(app)

    drive(store_path, scenario)


def test_a_new_search_puts_the_cursor_on_the_best_match(store_path):
    """The cursor sat on a memory the refined search also finds, lower down: it goes to the
    top, so a key pressed right after the search acts on the best match, not on that one."""
    refined = [h.memory.id for h in fresh(store_path).search("mika birthday gift", k=50)]

    async def scenario(pilot, app):
        await pilot.press("slash")
        await type_text(pilot, "mika")
        await settle(pilot)
        lower = shown_ids(app)[1]
        assert lower in refined[1:]  # the refined search finds it too, below the best match
        await goto(pilot, app, lower)
        await pilot.press("slash")
        await type_text(pilot, " birthday gift")
        await settle(pilot)
        assert shown_ids(app) == refined
        assert app.table.cursor_row == 0 and app._highlighted_id() == refined[0]
        assert "Why this result" in detail(app) and refined[0] != lower

    drive(store_path, scenario)


def test_every_part_of_a_score_search_names_has_a_meaning_in_the_details():
    """The "Why this result" lines explain each part in words; a part search starts writing
    must come with its meaning, or the person sees a bare number."""
    import re

    from macaron_cli.memory.score_parts import PART_MEANING

    written = set()
    for source in (Path(__file__).resolve().parents[1] / "macaron_cli" / "memory").glob("*.py"):
        written |= set(re.findall(r'parts\["([a-z_]+)"\]\s*=', source.read_text(encoding="utf-8")))
    assert written and written <= set(PART_MEANING), sorted(written - set(PART_MEANING))


def test_keys_typed_in_one_burst_after_slash_go_to_the_search_box(store_path):
    """A fast typist (or tmux, or a paste) delivers "/" and the next letters at once: every one
    of them is text in the search box, never an action (e edit, d forget, p pin, q quit …)."""
    before = {m.id: m for m in fresh(store_path).list(None)}

    async def scenario(pilot, app):
        burst = [
            ("slash", "/"),
            ("e", "e"),
            ("d", "d"),
            ("p", "p"),
            ("v", "v"),
            ("space", " "),
            ("u", "u"),
            ("x", "x"),
            ("f", "f"),
            ("q", "q"),
        ]
        for key, char in burst:  # queued together, before the browser handles the first
            app.post_message(events.Key(key, char))
        await settle(pilot)
        assert app.query_one("#search", Input).value == "edpv uxfq"
        assert app.screen is app.default_screen  # no dialog opened
        assert app.is_running and not app.marked

    drive(store_path, scenario)
    assert {m.id: m for m in fresh(store_path).list(None)} == before  # nothing forgotten or changed


def test_filters_narrow_the_table(store_path):
    async def scenario(pilot, app):
        app.query_one("#filter-domain").value = "family"
        await settle(pilot)
        assert set(shown_ids(app)) == {"m_gift", "m_grandma", "m_mika_bday"}
        app.query_one("#filter-privacy").value = "secret"
        await settle(pilot)
        assert shown_ids(app) == ["m_gift"]
        app.query_one("#filter-domain").clear()
        app.query_one("#filter-privacy").clear()
        app.query_one("#filter-kind").value = "preference"
        await settle(pilot)
        assert set(shown_ids(app)) == {"m_flatwhite", "m_bike", "m_ramen"}
        app.query_one("#filter-kind").clear()
        app.query_one("#filter-pinned").value = True
        await settle(pilot)
        assert shown_ids(app) == ["m_peanuts"]
        assert "1–1 of 1" in status(app)

    drive(store_path, scenario)


def test_filters_apply_to_search_results(store_path):
    async def scenario(pilot, app):
        app.query_one("#filter-domain").value = "food"
        await pilot.press("slash")
        await type_text(pilot, "ramen coffee")
        await settle(pilot)
        assert shown_ids(app) == ["m_ramen"]  # m_coffee matches too, but it is about health

    drive(store_path, scenario)


def test_domain_filter_offers_the_domains_in_use(store_path):
    async def scenario(pilot, app):
        options = {value for _, value in app.query_one("#filter-domain")._options if isinstance(value, str)}
        assert options == {m["domain"] for m in SAMPLE}

    drive(store_path, scenario)


def test_table_keys_and_clicks_move_the_cursor_and_keep_it_in_view(store_path):
    def in_view(app) -> bool:
        rows = app.table.scrollable_content_region.height - 1  # under the header
        return app.table.scroll_y <= app.table.cursor_row < app.table.scroll_y + rows

    async def scenario(pilot, app):
        ids = shown_ids(app)
        app.table.focus()
        await pilot.press("ctrl+end")
        await settle(pilot)
        assert app._highlighted_id() == ids[-1] and in_view(app)
        assert app.page.rows[-1].memory.text[:12] in detail(app)
        await pilot.press("pageup")
        await settle(pilot)
        assert 0 <= app.table.cursor_row < len(ids) - 1 and in_view(app)
        await pilot.press("ctrl+home")
        await settle(pilot)
        assert app._highlighted_id() == ids[0] and app.table.scroll_y == 0
        await pilot.press("pagedown")
        await settle(pilot)
        assert app.table.cursor_row > 1 and in_view(app)
        await pilot.press("ctrl+home")
        await pilot.click("#memories", offset=(10, 1 + 1 + 3))  # border, header, then the fourth row
        await settle(pilot)
        assert app._highlighted_id() == ids[3]
        assert app.page.rows[3].memory.text[:12] in detail(app)

    drive(store_path, scenario)


def test_pages_through_a_large_memory(tmp_path):
    path = tmp_path / "memory"
    MemoryStore.open(path).add_many(
        {
            "text": f"note number {i}",
            "id": f"m_{i:04d}",
            "created_at": f"2026-01-01T00:{i // 60:02d}:{i % 60:02d}+00:00",
        }
        for i in range(250)
    )

    async def scenario(pilot, app):
        assert len(app.page.rows) == 100 and shown_ids(app)[0] == "m_0249"
        assert "page 1/3" in status(app)
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert shown_ids(app)[0] == "m_0149" and "101–200 of 250" in status(app)
        await pilot.press("right_square_bracket", "right_square_bracket")
        await settle(pilot)
        assert shown_ids(app)[-1] == "m_0000" and len(app.page.rows) == 50  # no page past the end
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert shown_ids(app)[0] == "m_0149"

    drive(path, scenario)


# ── actions ─────────────────────────────────────────────────────────────────────────────
def test_edit_text_saves_a_new_linked_version(store_path):
    async def scenario(pilot, app):
        await goto(pilot, app, "m_flatwhite")
        await pilot.press("e")
        assert isinstance(app.screen, EditDialog)
        area = app.screen.query_one("#edit-text")
        area.clear()
        await pilot.pause()
        await type_text(pilot, "Now drinks black coffee")
        await pilot.press("ctrl+s")
        await settle(pilot)
        new_id = app._highlighted_id()
        assert new_id != "m_flatwhite"

    app = drive(store_path, scenario)
    store = fresh(store_path)
    new = store.get(app._highlighted_id())
    assert new.text == "Now drinks black coffee" and new.supersedes == "m_flatwhite"
    assert new.domain == "food" and new.kind == "preference"
    assert store.get("m_flatwhite").text.startswith("Prefers oat milk")  # kept, linked


def test_edit_domain_and_kind_changes_in_place(store_path):
    async def scenario(pilot, app):
        await goto(pilot, app, "m_coffee")
        await pilot.press("e")
        domain = app.screen.query_one("#edit-domain")
        domain.value = "sleep"
        app.screen.query_one("#edit-kind").value = "preference"
        await pilot.press("ctrl+s")
        await settle(pilot)

    drive(store_path, scenario)
    memory = fresh(store_path).get("m_coffee")
    assert (memory.domain, memory.kind) == ("sleep", "preference")


def test_edit_refuses_empty_text_and_escape_changes_nothing(store_path):
    async def scenario(pilot, app):
        await goto(pilot, app, "m_coffee")
        await pilot.press("e")
        app.screen.query_one("#edit-text").clear()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, EditDialog)
        assert "empty" in plain(app.screen.query_one("#edit-error"))
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, EditDialog)

    drive(store_path, scenario)
    store = fresh(store_path)
    assert store.get("m_coffee").text == "Sleeps badly after coffee past 3pm."
    assert store.count() == len(SAMPLE)


def test_pin_and_unpin(store_path):
    async def scenario(pilot, app):
        await goto(pilot, app, "m_ramen")
        await pilot.press("p")
        await settle(pilot)
        assert fresh(store_path).get("m_ramen").pinned is True  # chat sees it at once
        await goto(pilot, app, "m_peanuts")
        await pilot.press("p")
        await settle(pilot)

    drive(store_path, scenario)
    store = fresh(store_path)
    assert store.get("m_ramen").pinned is True
    assert store.get("m_peanuts").pinned is False


def test_change_privacy(store_path):
    async def scenario(pilot, app):
        await goto(pilot, app, "m_budget")
        await pilot.press("v")
        assert isinstance(app.screen, PrivacyDialog)
        await pilot.press("4")
        await settle(pilot)
        await goto(pilot, app, "m_coffee")
        await pilot.press("v", "up", "enter")  # personal → public with the arrow keys
        await settle(pilot)

    drive(store_path, scenario)
    store = fresh(store_path)
    assert store.get("m_budget").privacy == "secret"
    assert store.get("m_coffee").privacy == "public"


def test_marked_memories_change_together(store_path):
    async def scenario(pilot, app):
        await goto(pilot, app, "m_flatwhite")
        await pilot.press("space")  # marks and moves down to the next row
        await pilot.press("space")
        assert set(app.marked) == {"m_flatwhite", "m_mika_bday"}
        await pilot.press("v", "3")
        await settle(pilot)
        assert not app.marked

    drive(store_path, scenario)
    store = fresh(store_path)
    assert store.get("m_flatwhite").privacy == "private"
    assert store.get("m_mika_bday").privacy == "private"
    assert store.get("m_coffee").privacy == "personal"


def test_forget_then_undo_brings_it_back_unchanged(store_path):
    before = fresh(store_path).get("m_budget")

    async def scenario(pilot, app):
        await goto(pilot, app, "m_budget")
        await pilot.press("d")
        await settle(pilot)
        with pytest.raises(UserError):
            fresh(store_path).get("m_budget")  # gone for chat at once
        assert "m_budget" not in shown_ids(app)
        await pilot.press("u")
        await settle(pilot)
        assert app._highlighted_id() == "m_budget"

    drive(store_path, scenario)
    after = fresh(store_path).get("m_budget")
    assert after.to_dict() == before.to_dict()


def test_undo_restores_a_forgotten_memory_with_its_older_versions(store_path):
    async def scenario(pilot, app):
        await goto(pilot, app, "m_remote_new")
        await pilot.press("d")
        await settle(pilot)
        with pytest.raises(UserError):
            fresh(store_path).get("m_remote_new")
        await pilot.press("u")
        await settle(pilot)

    drive(store_path, scenario)
    store = fresh(store_path)
    assert store.get("m_remote_new").supersedes == "m_remote_old"
    assert store.get("m_remote_old").text == "Works remotely on Tuesdays and Thursdays."
    assert store.count() == len(SAMPLE)


def test_forgotten_is_gone_from_disk_once_the_browser_closes(store_path):
    async def scenario(pilot, app):
        await goto(pilot, app, "m_gift")
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("q")

    drive(store_path, scenario)
    store = fresh(store_path)
    with pytest.raises(UserError):
        store.get("m_gift")
    assert store.count() == len(SAMPLE) - 1
    leftovers = [f for f in store_path.rglob("*") if f.is_file() and b"film camera" in f.read_bytes()]
    assert leftovers == []


def test_export_marked_memories(store_path, tmp_path):
    out = tmp_path / "mine.jsonl"

    async def scenario(pilot, app):
        await goto(pilot, app, "m_grandma")
        await pilot.press("space", "space")
        await pilot.press("x")
        assert isinstance(app.screen, ExportDialog)
        app.screen.query_one("#export-path").value = str(out)
        await pilot.press("enter")
        await settle(pilot)

    drive(store_path, scenario)
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [m["id"] for m in lines] == ["m_grandma", "m_bike"]
    assert lines[0]["text"] == "月に一度、京都の祖母に電話する。"
    assert out.stat().st_mode & 0o777 == 0o600
    exported = MemoryStore.open(tmp_path / "other")  # the export is importable as it is
    exported.add_many(lines)
    assert exported.get("m_bike").language == "ko"


def test_export_without_marks_takes_the_whole_filtered_view(store_path, tmp_path):
    async def scenario(pilot, app):
        app.query_one("#filter-domain").value = "health"
        await settle(pilot)
        await pilot.press("x")
        await pilot.press("enter")  # the suggested file name, in export_dir
        await settle(pilot)

    drive(store_path, scenario, export_dir=tmp_path)
    [out] = tmp_path.glob("macaron-memories-*.jsonl")
    ids = {json.loads(line)["id"] for line in out.read_text().splitlines()}
    assert ids == {"m_peanuts", "m_water_app", "m_coffee"}


def test_export_never_overwrites_a_file(store_path, tmp_path):
    out = tmp_path / "taken.jsonl"
    out.write_text("keep me\n")

    async def scenario(pilot, app):
        await pilot.press("x")
        app.screen.query_one("#export-path").value = str(out)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ExportDialog)
        assert "already exists" in plain(app.screen.query_one("#export-error"))
        await pilot.press("escape")

    drive(store_path, scenario)
    assert out.read_text() == "keep me\n"


def test_memory_without_a_terminal_says_how_to_list(macaron):
    result = macaron("memory")
    assert result.returncode == 2
    assert "needs a terminal" in result.stderr and "macaron memory list" in result.stderr


def test_opens_the_store_itself_after_showing_the_window(store_path):
    app = MemoryBrowser(open_store=lambda: MemoryStore.open(store_path), now=NOW)

    async def main():
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert len(app.page.rows) == LIVE

    asyncio.run(main())


def test_a_store_that_cannot_be_opened_closes_the_browser_with_the_reason():
    def broken():
        raise UserError("cannot open the memory at /nowhere; move it away or set MACARON_HOME.")

    app = MemoryBrowser(open_store=broken, now=NOW)

    async def main():
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)

    asyncio.run(main())
    assert app.open_error.startswith("cannot open the memory at /nowhere")


# ── small and wide terminals ──────────────────────────────────────────────────────────────
def drive_at(path, size, scenario):
    app = MemoryBrowser(MemoryStore.open(path), now=NOW)

    async def main():
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await scenario(pilot, app)

    asyncio.run(main())
    return app


def rows_on_screen(app) -> int:
    return app.table.scrollable_content_region.height - 1  # under the header


def test_at_80x24_the_list_gets_most_of_the_height_and_i_opens_the_details(store_path):
    async def scenario(pilot, app):
        assert rows_on_screen(app) >= 10 and app.detail.compact
        assert rows_on_screen(app) > app.detail.size.height
        await pilot.press("i")
        await settle(pilot)
        assert not app.detail.compact and "Details" in detail(app)
        assert rows_on_screen(app) >= 5
        await pilot.press("i")
        await settle(pilot)
        assert app.detail.compact

    drive_at(store_path, (80, 24), scenario)


def test_a_wide_terminal_gives_the_text_its_width_and_every_column(store_path):
    async def scenario(pilot, app):
        labels = [label.plain for label in app.table._labels]
        assert labels[-1] == "last used" and app._layout[1] >= 70
        assert not app.detail.compact

    drive_at(store_path, (160, 48), scenario)

    async def narrow(pilot, app):
        labels = [label.plain for label in app.table._labels]
        assert "memory" in labels and "privacy" in labels and "last used" not in labels
        assert app._layout[1] >= 30

    drive_at(store_path, (80, 24), narrow)


def test_a_browser_widened_or_narrowed_fits_its_columns_and_details_to_the_new_size(store_path):
    """Opened at 80×24 and widened, the list gets every column and the details their pane, as
    if opened wide; narrowed again, the columns that say least make room for the text."""

    async def scenario(pilot, app):
        await pilot.press("slash")
        await type_text(pilot, "remote")
        await settle(pilot)
        narrow = [label.plain for label in app.table._labels]
        assert "last used" not in narrow and app.detail.compact
        await pilot.resize_terminal(160, 48)
        await settle(pilot)
        wide = [label.plain for label in app.table._labels]
        assert wide[-2:] == ["last used", "rank"] and "weight" in wide and app._layout[1] >= 70
        assert not app.detail.compact and "Why this result" in detail(app)
        assert table_shows_the_page(app)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert [label.plain for label in app.table._labels] == narrow and app.detail.compact

    drive_at(store_path, (80, 24), scenario)


def footer_text(app) -> str:
    """What the key bar shows on screen, in order, cut where the terminal ends."""
    from textual.widgets import Footer

    footer = app.query_one(Footer)
    shown = []
    for key in footer.query("FooterKey"):
        if key.region.x + key.region.width <= app.size.width and key.region.width:
            shown.append(key.key_display + " " + key.description)
    return "  ".join(shown)


@pytest.mark.parametrize("size", [(80, 24), (160, 40)])
def test_q_quit_is_on_the_key_bar_at_every_width(store_path, size):
    async def scenario(pilot, app):
        assert "q Quit" in footer_text(app)
        assert "/ Search" in footer_text(app) and "d Forget" in footer_text(app)

    drive_at(store_path, size, scenario)


def test_ctrl_c_quits(store_path):
    async def scenario(pilot, app):
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.return_code == 0  # exiting, not a notice saying how to quit

    drive_at(store_path, (80, 24), scenario)


def test_a_search_shows_each_row_s_rank_in_its_order(store_path):
    async def scenario(pilot, app):
        await pilot.press("slash")
        await type_text(pilot, "coffee tea gift")
        await settle(pilot)
        labels = [label.plain for label in app.table._labels]
        assert labels[-1] == "rank" and len(app.page.rows) >= 2
        ranks = [app.table.get_row_at(i)[-1] for i in range(app.table.row_count)]
        assert ranks == [str(n) for n in range(1, len(ranks) + 1)]

    drive_at(store_path, (160, 40), scenario)


def test_escape_clears_the_search_and_enter_keeps_it(store_path):
    async def scenario(pilot, app):
        await pilot.press("slash")
        await type_text(pilot, "remote")
        await pilot.press("enter")
        await settle(pilot)
        assert app.page.is_search and app.query_one("#search", Input).value == "remote"
        await pilot.press("escape")
        await settle(pilot)
        assert not app.page.is_search and app.query_one("#search", Input).value == ""
        assert app.page.total == LIVE

    drive_at(store_path, (80, 24), scenario)


@pytest.mark.parametrize(
    "text",
    [
        "저는 매일 아침 자전거를 타고 회사에 출근합니다",
        "毎朝コーヒーを飲みますが午後は緑茶",
        "a plain English line that goes on and on",
    ],
)
def test_long_text_ends_in_an_ellipsis_within_its_cells(text):
    from rich.cells import cell_len

    from macaron_cli.tui.cells import preview

    for width in range(5, 20):
        cut = preview(text, width)
        assert cell_len(cut) <= width and cut.endswith("…")


@pytest.mark.embeddings
def test_a_search_shows_the_matches_then_the_nearest_in_meaning_marked(store_path):
    async def scenario(pilot, app):
        await pilot.press("slash")
        await type_text(pilot, "coffee")
        await settle(pilot)
        ranks = [str(app.table.get_row_at(i)[-1]) for i in range(app.table.row_count)]
        assert shown_ids(app)[0] == "m_coffee" and ranks[0] == "1"  # the word match first
        nearest = [rank for rank in ranks if rank.startswith("≈")]
        assert nearest and ranks.index(nearest[0]) > 0  # then the nearest in meaning, marked
        assert f"≈ {len(nearest)} nearest in meaning" in status(app)

    drive_at(store_path, (160, 40), scenario)


# A memory of 2,001 sentences: 2,000 everyday ones and one that holds a word no other does.
_WHO = ["I", "My sister", "Mom", "Dad", "My partner", "The team", "Our neighbour", "My friend Ken"]
_DID = ["likes", "booked", "planned", "forgot", "bought", "tried", "cooked", "visited", "skipped", "fixed"]
_WHAT = (
    "oat milk coffee, a trip to Kyoto, ramen, the rent, a birthday cake, guitar lessons, a running route,"
    " the garden beds, sushi night, a yoga class, the dentist, green tea, the book club, a bike repair,"
    " piano practice, a film camera, the fireworks, a train to Osaka, the budget, a knee appointment,"
    " the laundry, a picnic, the car, a new phone, the plants"
).split(", ")
UNIQUE = "Aiko's wedding is in Hakodate on 3 October."


@pytest.fixture
def big_memory(macaron_home) -> Path:
    """The person's memory, where both `macaron memory` and `macaron memory search` read it."""
    path = macaron_home / "memory"
    everyday = [f"{who} {did} {what}." for who in _WHO for did in _DID for what in _WHAT]
    MemoryStore.open(path).add_many([{"id": "m_aiko", "text": UNIQUE}] + [{"text": t} for t in everyday])
    assert MemoryStore.open(path).count() == 2001
    return path


@pytest.mark.embeddings
@pytest.mark.parametrize("size", [(80, 24), (160, 40)], ids=["80x24", "wide"])
def test_a_word_one_memory_holds_finds_it_then_the_nearest_in_meaning_counted_apart(big_memory, size):
    """Among 2,001 memories, a word only one holds: "1 match", that memory first, ranked 1;
    the rows kept only as nearest in meaning after it, counted apart (≈1, ≈2, …); and the
    details say, in a sentence, why each is there."""

    async def scenario(pilot, app):
        await pilot.press("slash")
        await type_text(pilot, "Hakodate")
        await settle(pilot)
        ranks = [str(app.table.get_row_at(i)[-1]) for i in range(app.table.row_count)]
        assert shown_ids(app)[0] == "m_aiko" and ranks[0] == "1"
        assert len(ranks) > 1 and ranks[1:] == [f"≈{n}" for n in range(1, len(ranks))]
        assert status(app) == f"1 match · ≈ {len(ranks) - 1} nearest in meaning for “Hakodate”"
        assert status_fits(app)
        folded = size[1] < 30  # one line of details: the reason in a few words
        assert ("holds “hakodate”" if folded else "A match: it holds “hakodate”.") in detail(app)
        app.table.focus()
        await pilot.press("down")
        await settle(pilot)
        assert ("≈ nearest in meaning only" if folded else "Kept only as nearest in meaning") in detail(app)

    drive_at(big_memory, size, scenario)


def status_fits(app) -> bool:
    """The whole status line is on screen (a narrow terminal cut its end off once)."""
    from rich.cells import cell_len

    return cell_len(status(app)) <= app.query_one("#status").content_region.width


@pytest.mark.embeddings
def test_the_browser_and_memory_search_count_a_match_and_the_nearest_alike(big_memory, macaron):
    """Where `macaron memory search` lists fewer than the browser (a lookup keeps to the
    matches), it says why in the words the browser uses; asked for the nearest too, it
    lists what the browser lists, counted alike."""
    looked_up = macaron("memory", "search", "Hakodate", "-n", "50")
    assert looked_up.returncode == 0, looked_up.stderr
    assert "1. A match: it holds “hakodate”." in looked_up.stdout
    assert "1 match for “Hakodate”." in looked_up.stdout
    assert "also list the memories nearest in meaning below the matches, marked ≈" in looked_up.stdout
    nearest = macaron("memory", "search", "Hakodate", "-n", "50", "--nearest")
    assert nearest.returncode == 0, nearest.stderr
    said = nearest.stdout.strip().splitlines()[-1]
    assert said == "1 match · ≈ 49 nearest in meaning for “Hakodate”."
    assert "≈1. Kept only as nearest in meaning" in nearest.stdout

    async def scenario(pilot, app):
        await pilot.press("slash")
        await type_text(pilot, "Hakodate")
        await settle(pilot)
        assert status(app) == said.removesuffix(".")

    drive_at(big_memory, (160, 40), scenario)


@pytest.mark.embeddings
@pytest.mark.parametrize("size", [(80, 24), (160, 40)], ids=["80x24", "wide"])
def test_a_word_no_memory_holds_is_said_alike_in_the_browser_and_memory_search(big_memory, macaron, size):
    """A word none of 2,001 memories holds: `macaron memory search` and the browser open on the
    same sentence, and both list the nearest in meaning under it, marked ≈ and said why (one
    said "Nothing found", the other listed "≈ 50 nearest in meaning" with no word of why)."""
    looked_up = macaron("memory", "search", "Zyxwvquor", "-n", "50")
    assert looked_up.returncode == 0, looked_up.stderr
    lines = looked_up.stdout.splitlines()
    assert lines[0] == "No memory holds a word of “Zyxwvquor” · ≈ 50 nearest in meaning."
    listed = [line.split()[0] for line in lines if line.startswith("m_")]
    assert len(listed) == 50 and lines[2].startswith("  ≈1. Kept only as nearest in meaning: it holds no word")
    assert json.loads(macaron("memory", "search", "Zyxwvquor", "--json").stdout) == []  # the lookup itself

    async def scenario(pilot, app):
        await pilot.press("slash")
        await type_text(pilot, "Zyxwvquor")
        await settle(pilot)
        assert status(app) == lines[0].removesuffix(".") and status_fits(app)
        ranks = [str(app.table.get_row_at(i)[-1]) for i in range(app.table.row_count)]
        assert ranks == [f"≈{n}" for n in range(1, 51)]
        said = "≈ nearest in meaning only" if size[1] < 30 else "Kept only as nearest in meaning: it holds no word"
        assert said in detail(app)

    drive_at(big_memory, size, scenario)
