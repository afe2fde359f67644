"""The memory table: a header line, then one line per row, drawn with Textual's Line API.

It replaces Textual's DataTable, which measured every cell of every new row (to size columns
that here have fixed widths), re-laid out the screen when rows came or went, and drew every
visible cell anew through Rich whenever any cell changed: with a large memory that was most
of a keypress (bench/tui_scale.py). Here a page of rows replaces the last in one call, a row is drawn once into a
Strip (each cell's text turned into segments directly, with no measuring and no Rich layout)
and kept until its cells, the cursor, the hover or the focus change, and only a scrollbar
coming or going asks for a layout pass.

It looks and behaves as the DataTable did with a row cursor and zebra stripes (the same
cells, styles and scrolling, screen for screen): fixed header, up/down, page up/down,
ctrl+home/end for the first and last row, home/end for the left and right edge, clicks and
hovering, and RowHighlighted when the cursor moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from macaron_cli.tui.scrolling import set_virtual_size

Cell = str | Text
HEADER = -1  # the row index of the header line


class MemoryTable(ScrollView, can_focus=True):
    """Rows of cells in columns of fixed width, under a header that stays put."""

    COMPONENT_CLASSES = {"table--header", "table--cursor", "table--even-row", "table--odd-row", "table--hover"}
    # DataTable's look, under this widget's names.
    DEFAULT_CSS = """
    MemoryTable {
        background: $surface;
        color: $foreground;
        &:focus {
            background-tint: $foreground 5%;
            & > .table--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .table--header {
                background-tint: $foreground 5%;
            }
        }
        &:dark > .table--even-row {
            background: $surface-darken-1 40%;
        }
        & > .table--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        & > .table--even-row {
            background: $surface-lighten-1 50%;
        }
        & > .table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .table--hover {
            background: $block-hover-background;
        }
    }
    """
    BINDINGS = [
        Binding("up", "move(-1)", "Cursor up", show=False),
        Binding("down", "move(1)", "Cursor down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("ctrl+home", "first", "First", show=False),
        Binding("ctrl+end", "last", "Last", show=False),
        Binding("home", "leftmost", "Home", show=False),
        Binding("end", "rightmost", "End", show=False),
    ]

    cursor_row: reactive[int] = reactive(0, repaint=False, init=False)

    class RowHighlighted(Message):
        """The cursor moved onto another row."""

        def __init__(self, table: MemoryTable, cursor_row: int) -> None:
            super().__init__()
            self.table = table
            self.cursor_row = cursor_row

        @property
        def control(self) -> MemoryTable:
            return self.table

    class Resized(Message):
        """The table has a new size: the columns that fit it may differ."""

    def __init__(
        self, *, cell_padding: int = 1, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.cell_padding = cell_padding
        self._labels: list[Text] = []
        self._widths: list[int] = []  # content width of each column, padding not included
        self._column_meta: list[Style] = []  # which column a cell is in, as DataTable marked it
        self._rows: list[list[Cell]] = []
        self._hover_row: int | None = None
        self._drawn: dict[int, Strip] = {}  # row index (HEADER too) -> the row drawn at table width
        self._styles: dict[str, Style] = {}  # the look of the widget and its stripes, as last drawn

    # ── what it shows ───────────────────────────────────────────────────────────────────
    @property
    def row_count(self) -> int:
        return len(self._rows)

    @property
    def table_width(self) -> int:
        return sum(self._widths) + 2 * self.cell_padding * len(self._widths)

    def get_row_at(self, index: int) -> list[Cell]:
        return self._rows[index]

    def set_columns(self, columns: list[tuple[str, int]]) -> None:
        """The columns, as (label, width); every row is drawn anew."""
        self._labels = [Text(label) for label, _ in columns]
        self._widths = [width for _, width in columns]
        self._column_meta = [Style.from_meta({"column": index}) for index in range(len(columns))]
        self._drawn.clear()
        self._resize()
        self.refresh()

    def set_rows(self, rows: list[list[Cell]]) -> None:
        """Show these rows: a row whose cells are all the same as before is not drawn again."""
        old = self._rows
        for index, (before, after) in enumerate(zip(old, rows, strict=False)):
            if len(before) != len(after) or not all(map(same_cell, before, after)):
                self._drawn.pop(index, None)
        for index in range(min(len(old), len(rows)), max(len(old), len(rows))):
            self._drawn.pop(index, None)
        self._rows = rows
        if len(rows) != len(old):
            self._resize()
            self.cursor_row = self.validate_cursor_row(self.cursor_row)
        self.refresh()

    def _resize(self) -> None:
        set_virtual_size(self, Size(self.table_width, len(self._rows) + 1))

    # ── the cursor ──────────────────────────────────────────────────────────────────────
    def validate_cursor_row(self, row: int) -> int:
        return max(0, min(row, len(self._rows) - 1))

    def watch_cursor_row(self, old: int, new: int) -> None:
        self._drawn.pop(old, None)
        self._drawn.pop(new, None)
        self.refresh()
        self._scroll_cursor_into_view()
        if self._rows:
            self.post_message(self.RowHighlighted(self, new))

    def move_cursor(self, *, row: int, animate: bool = False) -> None:
        self.cursor_row = row
        self._scroll_cursor_into_view()

    def _scroll_cursor_into_view(self) -> None:
        visible = self.scrollable_content_region.height - 1  # under the header
        if visible <= 0:
            return
        top = round(self.scroll_y)
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False)
        elif self.cursor_row >= top + visible:
            self.scroll_to(y=self.cursor_row - visible + 1, animate=False)

    def action_move(self, delta: int) -> None:
        self._set_hover(None)
        self.cursor_row += delta

    def action_page(self, delta: int) -> None:
        """A page of rows on (or back): the view scrolls by as much, and the cursor moves with it."""
        self._set_hover(None)
        rows = max(1, self.scrollable_content_region.height - 1)  # under the header
        self.scroll_relative(y=delta * rows, animate=False, force=True)
        self.cursor_row += delta * rows

    def action_first(self) -> None:
        self._set_hover(None)
        self.cursor_row = 0

    def action_last(self) -> None:
        self._set_hover(None)
        self.cursor_row = len(self._rows) - 1

    def action_leftmost(self) -> None:
        self._set_hover(None)
        self.scroll_to(x=0, animate=False)

    def action_rightmost(self) -> None:
        self._set_hover(None)
        self.scroll_to(x=self.max_scroll_x, animate=False)

    # ── the mouse ───────────────────────────────────────────────────────────────────────
    def _row_under(self, event: events.MouseEvent) -> int | None:
        offset = event.get_content_offset(self)
        if offset is None or offset.y == 0:
            return None
        index = offset.y - 1 + round(self.scroll_y)
        return index if index < len(self._rows) else None

    def _on_mouse_move(self, event: events.MouseMove) -> None:
        self._set_hover(self._row_under(event))

    def _on_leave(self, event: events.Leave) -> None:
        self._set_hover(None)

    async def _on_click(self, event: events.Click) -> None:
        row = self._row_under(event)
        if row is not None:
            self.cursor_row = row
            event.stop()

    def _set_hover(self, row: int | None) -> None:
        if row != self._hover_row:
            for index in (self._hover_row, row):
                if index is not None:
                    self._drawn.pop(index, None)
            self._hover_row = row
            self.refresh()

    # ── drawing ─────────────────────────────────────────────────────────────────────────
    def _forget_drawing(self) -> None:
        self._drawn.clear()
        self._styles.clear()
        self.refresh()

    def _on_focus(self, event: events.Focus) -> None:
        self._forget_drawing()  # the cursor and header look different with the focus

    def _on_blur(self, event: events.Blur) -> None:
        self._forget_drawing()

    def _on_resize(self, event: events.Resize) -> None:
        self._forget_drawing()  # rows are drawn to the widget's width at least
        self.call_after_refresh(self._scroll_cursor_into_view)  # e.g. the detail pane grew under it
        self.post_message(self.Resized())  # only the table knows its new size: the app's is the screen's

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._forget_drawing()

    def _style(self, component: str | None = None) -> Style:
        """The widget's own style, or a component's (computing one walks up the DOM)."""
        style = self._styles.get(component or "")
        if style is None:
            style = self.get_component_styles(component).rich_style if component else self.rich_style
            self._styles[component or ""] = style
        return style

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        scroll_x, scroll_y = self.scroll_offset
        index = HEADER if y == 0 else y - 1 + scroll_y
        if index >= len(self._rows):
            return Strip.blank(width, self._style())
        strip = self._drawn.get(index)
        if strip is None:
            strip = self._drawn[index] = self._draw(index)
        return strip.crop_extend(scroll_x, scroll_x + width, self._style())

    def _draw(self, index: int) -> Strip:
        """One row (or the header) as DataTable drew it: each cell padded, on the row's stripe,
        under the hover and cursor styles; the cursor's colour wins over the cells' own."""
        component = self.get_component_rich_style
        cells: Sequence[Cell]
        if index == HEADER:
            cells, stripe = self._labels, "table--header"
        else:
            cells, stripe = self._rows[index], "table--odd-row" if index % 2 else "table--even-row"
        row_style = self._style(stripe)
        highlight = Style()
        if index == self._hover_row:
            highlight += component("table--hover")
        if index == self.cursor_row and index != HEADER and self._rows:
            highlight += component("table--cursor")
        pre, post = row_style + highlight, Style.from_color(color=highlight.color)
        pad = " " * self.cell_padding
        console = self.app.console
        segments: list[Segment] = []
        for cell, width, column in zip(cells, self._widths, self._column_meta, strict=False):
            text = cell if isinstance(cell, Text) else Text(cell)
            if "\n" in text.plain:  # one line a row
                text = text.split("\n")[0]
            if text.cell_len > width:
                text = text.copy()
                text.truncate(width, overflow="ellipsis")
            if text.spans:
                parts = [Segment(pad), *text.render(console)]
            else:  # Text.render leaves a span-less text's own style to its caller
                parts = [Segment(pad), Segment(text.plain, console.get_style(text.style, default=None))]
            parts.append(Segment(" " * (width - text.cell_len) + pad))
            # Each cell marked with its column (as DataTable's were) stays its own run of text: a
            # terminal shows the same either way, but an SVG screenshot places each run at its
            # own column, so the cells stay in line even where a font lacks a character.
            segments.extend(Segment.simplify(Segment.apply_style(parts, pre + column, post)))
        segments.append(Segment(" " * max(0, self.size.width - self.table_width), pre))  # the stripe to the edge
        return Strip(segments)


def same_cell(a: Cell, b: Cell) -> bool:
    # rich's Text equality ignores the base style (the grey of a replaced memory): compare it too.
    return a == b and getattr(a, "style", None) == getattr(b, "style", None)
