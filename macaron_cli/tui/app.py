"""The memory browser: a table of memories, search as you type, filters, a detail pane.

Every change goes through MemoryStore at once, so chat and make see it immediately. Store
calls run in worker threads, so typing and scrolling never wait for LanceDB; only the latest
request's page is ever shown, and showing it redraws only the rows that differ.
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from itertools import zip_longest
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, work
from textual.actions import SkipAction
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.theme import Theme
from textual.widgets import Checkbox, Footer, Input, Select, Static
from textual.worker import get_current_worker

from macaron_cli.errors import UserError
from macaron_cli.memory import Memory, MemoryStore, score_parts
from macaron_cli.memory.records import KINDS
from macaron_cli.privacy import LEVELS
from macaron_cli.tui import view
from macaron_cli.tui.cells import ago, preview, privacy_badge, weight_bar
from macaron_cli.tui.detail import DetailPane
from macaron_cli.tui.dialogs import EditDialog, ExportDialog, PrivacyDialog
from macaron_cli.tui.export import export_jsonl
from macaron_cli.tui.forgetting import ForgetLog
from macaron_cli.tui.search_box import SearchBox
from macaron_cli.tui.table import MemoryTable

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.timer import Timer

# "loading…" appears only for a load slower than this: a quick one would just flicker.
LOADING_NOTE_AFTER_S = 0.3

MACARON_THEME = Theme(
    name="macaron",
    primary="#FF9AA2",
    secondary="#C7CEEA",
    accent="#B5EAD7",
    warning="#FFDAC1",
    error="#FF6F7D",
    success="#8FD3B6",
    foreground="#4A4453",
    background="#FFF7F2",
    surface="#FFFFFF",
    panel="#FDECEE",
    dark=False,
)

# (label, width); the memory column takes whatever width is left (None here).
COLUMNS = (
    ("", 1),
    ("memory", None),
    ("kind", 10),
    ("domain", 9),
    ("lang", 4),
    ("privacy", 10),
    ("weight", 10),
    ("last used", 9),
)
# A search's rows are in the order chat would use them, which diversifying reorders, so the
# column says the rank; the score and its parts are in the detail pane.
RANK_COLUMN = ("rank", 4)
CELL_PADDING = 1
# The memory's text is what a person reads: on a narrow terminal the columns that say least
# make room for it, in this order, until it has at least MIN_PREVIEW cells.
MIN_PREVIEW = 30
REPLACED_MARK = "↺ "  # before a row a newer memory replaced (history)
# Below this many rows the detail pane folds to one line (`i` opens it).
FULL_DETAIL_FROM_HEIGHT = 32
DROPPED_FIRST = ("last used", "weight", "lang", "domain", "rank")
TIGHT_KEYS_BELOW = 110
_PAGES = Binding.Group("Page", compact=True)  # "[ ] Page": one key-bar entry for both


Layout = tuple[bool, int, tuple[tuple[str, int | None], ...]]


def fit_columns(room: int, search: bool) -> Layout:
    """The columns that fit `room` cells, and the width the memory's text gets."""
    columns = COLUMNS + ((RANK_COLUMN,) if search else ())

    def preview_width(shown) -> int:
        return room - sum(width or 0 for _, width in shown) - 2 * CELL_PADDING * len(shown)

    for label in DROPPED_FIRST:
        if preview_width(columns) >= MIN_PREVIEW:
            break
        columns = tuple(column for column in columns if column[0] != label)
    return search, max(MIN_PREVIEW // 2, preview_width(columns)), columns


class MemoryBrowser(App):
    CSS_PATH = "browser.tcss"
    TITLE = "macaron · memory"
    BINDINGS = [
        # Priority: "/" moves the focus before the browser handles the keys typed after it, so
        # they reach the search box (not the table's e, d, p …) even when they arrive together.
        # A text field that has the focus still gets "/" as text (Textual asks it first).
        Binding("slash", "focus_search", "Search", priority=True),
        Binding("escape", "focus_table", "Clear", show=False),
        Binding("f", "focus_filters", "Filters"),
        Binding("e", "edit", "Edit"),
        Binding("p", "pin", "Pin"),
        Binding("v", "privacy", "Privacy"),
        Binding("d", "forget", "Forget"),
        Binding("u", "undo", "Undo"),  # in the key bar only while there is a forget to undo
        Binding("space", "mark", "Mark"),
        # Quit before the keys a person needs least, so a narrow key bar never cuts it off.
        Binding("q", "quit", "Quit"),
        Binding("x", "export", "Export"),
        Binding("h", "toggle_replaced", "History"),
        Binding("i", "toggle_detail", "Details", show=False),
        Binding("left_square_bracket", "page(-1)", "Prev", key_display="[", group=_PAGES),
        Binding("right_square_bracket", "page(1)", "Next", key_display="]", group=_PAGES),
        # Ctrl-C quits as in every terminal program (Textual's default only says how to).
        Binding("ctrl+c", "quit", "Quit", show=False, priority=True),
    ]
    # A narrow terminal gets a tighter key bar (browser.tcss), so every key up to "q Quit" fits.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (TIGHT_KEYS_BELOW, "-wide")]

    def __init__(
        self,
        store: MemoryStore | None = None,
        *,
        open_store: Callable[[], MemoryStore] = MemoryStore.open,
        now: datetime | None = None,
        export_dir: Path | None = None,
    ):
        """Without a `store`, the window opens at once and `open_store` runs in a worker: importing
        LanceDB alone takes longer than drawing the browser."""
        super().__init__()
        self.store = store
        self._open_store = open_store
        self.open_error: str | None = None
        # Fixed for the session: ages and weights stay put while the person looks at them.
        self.now = now or datetime.now(UTC)
        self.export_dir = export_dir or Path.cwd()
        self.filters = view.Filters()
        self.query_text = ""
        self.offset = 0
        self.page = view.Page([], 0)
        self.marked: dict[str, Memory] = {}
        self.forgets = ForgetLog(store) if store else None
        self.pages_shown = 0  # counts table refreshes (tests and bench wait on it)
        self.detail_open = False  # the person opened the detail pane on a short terminal (`i`)
        self._store_lock = threading.RLock()  # one writer at a time; search builds its index once
        self._request = 0  # numbers each load; only the latest one's page is shown
        self._loading_note: Timer | None = None
        self._layout: Layout | None = None  # (search mode, preview width, columns shown)
        self._detail_row: view.Row | None = None  # the row the detail pane shows
        # Held, not queried: handlers may still run while the screen is being torn down.
        self.table = MemoryTable(id="memories", cell_padding=CELL_PADDING)
        self.detail = DetailPane(id="detail")
        self.status = Static("", id="status", markup=False)  # it shows the person's search as typed

    # ── layout ──────────────────────────────────────────────────────────────────────────
    def compose(self) -> ComposeResult:
        with Horizontal(id="topbar"):
            yield Static("◖ macaron ◗", id="brand")
            yield Static("  your memory", id="tagline")  # hidden on a narrow terminal: the status needs the room
            yield self.status
        with Horizontal(id="filters"):
            yield SearchBox(placeholder="/ search", id="search")
            yield Select([], prompt="domain", id="filter-domain")
            yield Select([(k, k) for k in KINDS], prompt="kind", id="filter-kind")
            yield Select([(p, p) for p in LEVELS], prompt="privacy", id="filter-privacy")
            yield Checkbox("pinned", id="filter-pinned")
        with Vertical(id="main"):
            yield self.table
            yield self.detail
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.register_theme(MACARON_THEME)
        self.theme = "macaron"
        self._fit_detail()
        self.table.focus()
        if self.store is None:
            self._set_status("opening your memory…")
            self._open()
        else:
            self._store_ready()

    @work(thread=True, group="meta")
    def _open(self) -> None:
        # Importing LanceDB builds thousands of objects, and each full garbage collection it
        # sets off walks every widget of the window too: frozen, they are skipped and the first
        # page comes sooner (bench/tui_scale.py). What lives now lives as long as the browser.
        gc.freeze()
        try:
            store = self._open_store()
        except UserError as exc:
            self.call_from_thread(self._cannot_open, str(exc))
            return
        self.call_from_thread(self._store_ready, store)

    def _cannot_open(self, message: str) -> None:
        self.open_error = message
        self.exit()

    def _store_ready(self, store: MemoryStore | None = None) -> None:
        if store is not None:
            self.store, self.forgets = store, ForgetLog(store)
        self.reload()
        self.refresh_bindings()

    def on_unmount(self) -> None:
        gc.unfreeze()

    # check_action keeps every action that reads or writes memories off until the store is open.
    @property
    def _store(self) -> MemoryStore:
        if self.store is None:
            raise RuntimeError("the memory store is not open yet")
        return self.store

    @property
    def _forgets(self) -> ForgetLog:
        if self.forgets is None:
            raise RuntimeError("the memory store is not open yet")
        return self.forgets

    # ── loading ─────────────────────────────────────────────────────────────────────────
    def reload(self, keep_id: str | None = None, top: bool = False) -> None:
        """Load the view again; the cursor stays on the memory it was on, or with `top` (a new
        search) goes to the first row: the best match, whichever rows the typing showed."""
        if self.store is None:  # still opening; _store_ready loads with whatever is chosen by then
            return
        self._request += 1
        if self._loading_note is None:
            self._loading_note = self.set_timer(LOADING_NOTE_AFTER_S, self._note_loading)
        # Where the cursor will land (as _show_page decides), so the worker can fetch that row's
        # versions with the page: the detail pane is then drawn once, with the table.
        landing = (None, 0) if top else (keep_id or self._highlighted_id(), self.table.cursor_row)
        self._load(self._request, self.filters, self.query_text, self.offset, keep_id, landing, top)

    @work(thread=True, exclusive=True, group="rows")
    def _load(
        self,
        request: int,
        filters: view.Filters,
        query: str,
        offset: int,
        keep_id: str | None,
        landing: tuple[str | None, int],
        top: bool,
    ) -> None:
        worker = get_current_worker()
        with self._store_lock:
            if worker.is_cancelled:  # a newer request (the next key typed) came while this one waited
                return
            page = view.load(self._store, filters, query, offset, self.now)
            row = page.rows[view.landing(page.rows, *landing)] if page.rows else None
            if row is not None and row.memory.id not in page.versions:
                page.versions[row.memory.id] = view.versions(self._store, row.memory)
        if not worker.is_cancelled:
            self.call_from_thread(self._show_page, page, request, keep_id, top)

    @work(thread=True, exclusive=True, group="updated")
    def _mark_updated(self, page: view.Page) -> None:
        """Mark the listed rows a later memory updates, as search marks its hits: looked for
        after the page is shown, a row at a time, so a key typed meanwhile waits for one row."""
        worker = get_current_worker()
        for row in page.rows:
            if row.replaced or row.memory.id in page.versions:
                continue
            with self._store_lock:
                if worker.is_cancelled or self.page is not page:
                    return
                updated = view.updated_later(self._store, row.memory)
            if updated:
                self.call_from_thread(self._show_updated, page, row)

    def _show_updated(self, page: view.Page, row: view.Row) -> None:
        row.replaced = True
        page.replaced_ids.add(row.memory.id)
        if self.page is page:
            self._fill_table()

    def _note_loading(self) -> None:
        # A timer's call is queued as a message, so it can come after the page it was for: then
        # no load is pending and the status already tells what is shown.
        if self._loading_note is not None:
            self._set_status("loading…")

    def _show_page(self, page: view.Page, request: int, keep_id: str | None, top: bool = False) -> None:
        if request != self._request:  # stale: a newer request is on its way
            return
        if self._loading_note is not None:
            self._loading_note.stop()
            self._loading_note = None
        index = 0 if top else view.landing(page.rows, keep_id or self._highlighted_id(), self.table.cursor_row)
        self.page = page
        self._fill_table()
        if page.rows:
            self.table.move_cursor(row=index, animate=False)
        self._update_status()
        self._show_detail()
        if not page.is_search:
            self._mark_updated(page)
        if not self.pages_shown:
            # What is alive now (modules, LanceDB, the widgets) lives as long as the browser.
            # Frozen, the garbage collector stops walking it again and again: with a large
            # memory a full pass is a stall between two keys. on_unmount undoes it.
            gc.freeze()
            # Only now, so the first page does not wait for them.
            self._load_domains()
            self._warm_search()
        self.pages_shown += 1

    def _fill_table(self) -> None:
        """Put the page in the table, rebuilding the columns when the mode or width changed."""
        table = self.table
        # Always leave the scrollbar's column, shown or not, so the layout never depends on timing.
        room = table.size.width - table.styles.scrollbar_size_vertical
        layout = fit_columns(room, self.page.is_search)
        if layout != self._layout:
            table.set_columns([(label, width or layout[1]) for label, width in layout[2]])
            self._layout = layout
        # A key that finds the same memories redraws nothing; rows that differ are drawn anew.
        ranks = score_parts.ranks(row.hit for row in self.page.rows if row.hit is not None)
        table.set_rows([self._cells(row, rank) for rank, row in zip_longest(ranks, self.page.rows)])

    def on_resize(self, event: events.Resize) -> None:
        # The new size is the event's: the app's own `size` changes only after this handler.
        self._fit_detail(event.size.height)

    def on_memory_table_resized(self, event: MemoryTable.Resized) -> None:
        """Widened or narrowed: the columns are fitted to the table's new width."""
        if self._layout is not None:
            self._fill_table()

    def _fit_detail(self, height: int | None = None) -> None:
        """The list always gets most of the height: on a short terminal the detail pane is
        one line until `i` opens it; on a tall one it takes a third."""
        height = height or self.size.height
        short = height < FULL_DETAIL_FROM_HEIGHT
        compact = short and not self.detail_open
        self.detail.set_compact(compact)
        if compact:
            self.detail.styles.height = 3  # the line and its border
        elif short:
            self.detail.styles.height = max(8, (height - 6) // 2)
        else:
            self.detail.styles.height = min(20, max(12, (height - 6) // 3))
        self.detail.border_subtitle = ("i: details" if compact else "i: fold") if short else ""

    def action_toggle_detail(self) -> None:
        self.detail_open = not self.detail_open
        self._fit_detail()

    def _cells(self, row: view.Row, rank: str | None) -> list:
        m = row.memory
        width = self._layout[1] if self._layout else MIN_PREVIEW
        room = width - (2 if m.pinned else 0) - (len(REPLACED_MARK) if row.replaced else 0)
        text = Text(preview(m.text, room), style="#a59fae" if row.replaced else "")
        if row.replaced:  # history: a newer memory replaced it (the detail says which)
            text = Text.assemble((REPLACED_MARK, "#a59fae"), text)
        if m.pinned:
            text = Text.assemble(("★ ", "bold #FF9AA2"), text)
        cells = [
            Text("●", style="bold #FF9AA2") if m.id in self.marked else "",
            text,
            m.kind,
            m.domain,
            m.language,
            privacy_badge(m.privacy),
            weight_bar(row.weight, unbounded=True),
            ago(m.last_used_at, self.now),
        ]
        if rank is not None:  # "≈": kept only as nearest in meaning, counted apart
            cells.append(Text(rank, style="#a59fae") if rank.startswith(score_parts.NEAREST_MARK) else rank)
        shown = self._layout[2] if self._layout else COLUMNS
        return [cell for cell, column in zip(cells, (*COLUMNS, RANK_COLUMN), strict=False) if column in shown]

    @work(thread=True, group="meta")
    def _load_domains(self) -> None:
        domains = self._store.distinct("domain")
        self.call_from_thread(self._set_domains, domains)

    def _set_domains(self, domains: list[str]) -> None:
        select = self.query_one("#filter-domain", Select)
        chosen = select.value
        with self.prevent(Select.Changed):
            select.set_options([(d, d) for d in domains])
            if chosen in domains:
                select.value = chosen

    @work(thread=True, group="meta")
    def _warm_search(self) -> None:
        # A process's first search reads the full-text index from disk; doing it now, while the
        # person looks at the first page, keeps their first keystroke fast.
        with self._store_lock:
            self._store.search("warm up the index", k=1)

    # ── status and detail ───────────────────────────────────────────────────────────────
    def _set_status(self, message: str) -> None:
        self.status.update(message, layout=False)  # one line of fixed size: no need to lay out the screen

    def _update_status(self) -> None:
        page = self.page
        if page.is_search:
            # The line `macaron memory search` prints for the same words, in the same words.
            message = score_parts.headline(page.query, [row.hit for row in page.rows if row.hit is not None])
        elif page.total == 0:
            message = "no memories" + (
                " under these filters" if self.filters.where() else " yet: `macaron chat` makes some"
            )
        else:
            last = page.offset + len(page.rows)
            pages = (page.total + view.PAGE_SIZE - 1) // view.PAGE_SIZE
            message = (
                f"{page.offset + 1:,}–{last:,} of {page.total:,} · newest first"
                f" · page {page.offset // view.PAGE_SIZE + 1:,}/{pages:,}"
            )
            if self.filters.replaced:
                message += " · with replaced versions (h hides them)"
        if self.marked:
            message += f" · {len(self.marked)} marked"
        self._set_status(message)

    def _highlighted_row(self) -> view.Row | None:
        table = self.table
        if not self.page.rows or table.cursor_row is None or not 0 <= table.cursor_row < len(self.page.rows):
            return None
        return self.page.rows[table.cursor_row]

    def _highlighted_id(self) -> str | None:
        row = self._highlighted_row()
        return row.memory.id if row else None

    def on_memory_table_row_highlighted(self, event: MemoryTable.RowHighlighted) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        """Show the highlighted row in the pane, once: with its versions, fetched first if need be."""
        row = self._highlighted_row()
        if row is self._detail_row and row is not None:
            return
        self._detail_row = row
        if row is None:
            self.detail.show(None, now=self.now)
            return
        chain = self.page.versions.get(row.memory.id)
        if chain is None:
            self._load_versions(row, self.page)
        else:
            self.detail.show(
                row.memory, hit=row.hit, query=self.page.query, weight=row.weight, now=self.now, versions=chain
            )

    @work(thread=True, exclusive=True, group="detail")
    def _load_versions(self, row: view.Row, page: view.Page) -> None:
        chain = view.versions(self._store, row.memory)
        if not get_current_worker().is_cancelled:
            self.call_from_thread(self._show_versions, row, page, chain)

    def _show_versions(self, row: view.Row, page: view.Page, chain) -> None:
        page.versions[row.memory.id] = chain
        if self._highlighted_row() is row:
            self.detail.show(
                row.memory, hit=row.hit, query=self.page.query, weight=row.weight, now=self.now, versions=chain
            )

    # ── search and filters ──────────────────────────────────────────────────────────────
    def on_input_changed(self, event: Input.Changed) -> None:
        # No debounce: the search starts at once, and a key typed while it runs cancels it
        # (_load is exclusive), so quick typing costs one search, slow typing no waiting.
        if event.input.id != "search":
            return
        query = event.value.strip()
        if query != self.query_text:  # a space between words: same words, nothing to do
            self.query_text = query
            self.offset = 0
            self.reload(top=True)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "search":  # Enter: read the results (Escape would clear them)
            self.screen.set_focus(self.table)

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id and event.select.id.startswith("filter-"):
            self._apply_filters()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        self._apply_filters()

    def _apply_filters(self) -> None:
        def chosen(selector: str) -> str | None:
            value = self.query_one(selector, Select).value
            return value if isinstance(value, str) else None

        self.filters = view.Filters(
            domain=chosen("#filter-domain"),
            kind=chosen("#filter-kind"),
            privacy=chosen("#filter-privacy"),
            pinned=self.query_one("#filter-pinned", Checkbox).value,
            replaced=self.filters.replaced,
        )
        self.offset = 0
        self.reload()

    # ── actions ─────────────────────────────────────────────────────────────────────────
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if self.store is None:
            return action in ("quit", "focus_search", "focus_table", "focus_filters") or None
        if action == "undo":
            return bool(self._forgets.can_undo)  # False: not in the key bar
        if action == "page":
            if self.page.is_search:
                return None
            target = self.offset + parameters[0] * view.PAGE_SIZE
            return True if 0 <= target < max(self.page.total, 1) else None
        return True

    # Focus moves at once, not after the keys already queued (Widget.focus waits for them).
    def action_focus_search(self) -> None:
        if self.screen is not self.default_screen:
            raise SkipAction()  # a dialog is open: "/" goes to it (e.g. typed in a path)
        self.screen.set_focus(self.query_one("#search", Input))

    def action_focus_table(self) -> None:
        """Escape: back to the table, and a search typed is cleared (the whole list is back)."""
        search = self.query_one("#search", Input)
        if search.value:
            search.value = ""  # Input.Changed reloads the list
        self.screen.set_focus(self.table)

    def action_focus_filters(self) -> None:
        self.screen.set_focus(self.query_one("#filter-domain", Select))

    def action_toggle_replaced(self) -> None:
        """h: the replaced versions of edited memories in the list too (greyed), or not."""
        self.filters = replace(self.filters, replaced=not self.filters.replaced)
        self.offset = 0
        self.reload()

    def action_page(self, delta: int) -> None:
        target = self.offset + delta * view.PAGE_SIZE
        if not self.page.is_search and 0 <= target < self.page.total:
            self.offset = target
            self.table.move_cursor(row=0, animate=False)
            self.reload()

    def action_mark(self) -> None:
        row = self._highlighted_row()
        if row is None:
            return
        if self.marked.pop(row.memory.id, None) is None:
            self.marked[row.memory.id] = row.memory
        self._fill_table()
        self.table.move_cursor(row=self.table.cursor_row + 1, animate=False)
        self._update_status()

    def _selection(self) -> list[Memory]:
        """The marked memories if any, else the highlighted one."""
        if self.marked:
            return list(self.marked.values())
        row = self._highlighted_row()
        return [row.memory] if row else []

    def action_edit(self) -> None:
        row = self._highlighted_row()
        if row is None:
            return
        memory = row.memory

        def apply(changes: dict | None) -> None:
            if changes:
                note = "Saved as a new version; the old one is kept and linked." if "text" in changes else "Saved."
                self._write(lambda: (self._store.update(memory.id, **changes).id, note))

        self.push_screen(EditDialog(memory), apply)

    def action_pin(self) -> None:
        chosen = self._selection()
        if not chosen:
            return
        pin = not all(m.pinned for m in chosen)

        def run():
            for m in chosen:
                self._store.pin(m.id, pin)
            return chosen[0].id, f"{'Pinned' if pin else 'Unpinned'} {_count(chosen)}."

        self._write(run, clear_marks=True)

    def action_privacy(self) -> None:
        chosen = self._selection()
        if not chosen:
            return

        def apply(level: str | None) -> None:
            if not level:
                return

            def run():
                for m in chosen:
                    self._store.update(m.id, privacy=level)
                return chosen[0].id, f"{_count(chosen).capitalize()} now {level}."

            self._write(run, clear_marks=True)

        self.push_screen(PrivacyDialog(chosen[0].privacy, len(chosen)), apply)

    def action_forget(self) -> None:
        chosen = self._selection()
        if not chosen:
            return

        def run():
            self._forgets.forget(chosen)
            return None, f"Forgot {_count(chosen)}. u brings it back until you close the browser."

        self._write(run, clear_marks=True)

    def action_undo(self) -> None:
        if not self._forgets.can_undo:
            self.notify("Nothing to undo.")
            return

        def run():
            back = self._forgets.undo()
            return (back[0].id if back else None), f"Brought back {_count(back)}."

        self._write(run)

    def action_export(self) -> None:
        if self.marked:
            what, memories = _count(list(self.marked.values())) + " (marked)", list(self.marked.values())
        else:
            what = f"the {self.page.total:,} shown" if self.page.is_search else f"all {self.page.total:,} in view"
            memories = None
        filters, query = self.filters, self.query_text
        default = self.export_dir / f"macaron-memories-{self.now:%Y%m%d-%H%M%S}.jsonl"

        def apply(path: Path | None) -> None:
            if path is None:
                return

            def run():
                items = memories if memories is not None else view.iter_view(self._store, filters, query)
                return None, f"Exported {export_jsonl(items, path):,} memories to {path}."

            self._write(run)

        self.push_screen(ExportDialog(default, what), apply)

    # ── applying a change ───────────────────────────────────────────────────────────────
    def _write(self, change: Callable[[], tuple[str | None, str]], clear_marks: bool = False) -> None:
        """Run `change` (returns the id to keep the cursor on, and what to tell the person)."""
        self._set_status("saving…")
        self._run_write(change, clear_marks)

    @work(thread=True, group="write")
    def _run_write(self, change, clear_marks: bool) -> None:
        try:
            with self._store_lock:
                keep_id, message = change()
        except UserError as exc:
            self.call_from_thread(self._after_write, None, str(exc), False, "error")
            return
        self.call_from_thread(self._after_write, keep_id, message, clear_marks)

    def _after_write(
        self, keep_id: str | None, message: str, clear_marks: bool, severity: SeverityLevel = "information"
    ) -> None:
        if clear_marks:
            self.marked.clear()
        self.notify(message, severity=severity, markup=False)
        self.refresh_bindings()
        self.reload(keep_id)
        self._load_domains()


def _count(memories: list[Memory]) -> str:
    return "1 memory" if len(memories) == 1 else f"{len(memories)} memories"


def browse() -> None:
    """`macaron memory` with no subcommand."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UserError("the memory browser needs a terminal; in scripts use `macaron memory list --json`.")
    from macaron_cli import config

    # The settings are read in the worker that opens the store, as LanceDB is imported there.
    app = MemoryBrowser(open_store=lambda: MemoryStore.open(settings=config.load_settings()))
    app.run()
    if app.open_error:
        raise UserError(app.open_error)
