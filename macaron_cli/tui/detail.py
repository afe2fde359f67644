"""The right-hand pane: everything about the highlighted memory, and why search found it."""

from __future__ import annotations

from datetime import datetime

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.events import Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual, visualize

from macaron_cli.memory import Hit, Memory, score_parts
from macaron_cli.memory.score_parts import BOUNDED_PARTS, PART_MEANING
from macaron_cli.privacy import MEANING
from macaron_cli.tui.cells import ago, preview, privacy_badge, weight_bar
from macaron_cli.tui.scrolling import set_virtual_size


class DetailPane(ScrollView):
    """Drawn line by line (Textual's Line API) from one rendering of its content, made when the
    memory or the width changes. A Static in a scrolling container rendered the same Rich
    tables to measure their height, again to draw them, and again once its scrollbar came or
    went: two or three layout passes, in as many frames, for each memory the cursor landed on."""

    DEFAULT_CSS = """
    DetailPane {
        overflow-x: hidden;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.content: RenderableType = Text("Nothing selected.", style="italic")
        self._lines: list[Strip] = []
        self._drawn_size = Size(0, 0)
        self._shown: tuple | None = None  # what show() was last given
        self.compact = False  # one line: the browser is short of height and the list comes first

    def show(
        self,
        memory: Memory | None,
        *,
        hit: Hit | None = None,
        query: str = "",
        weight: float = 0.0,
        now: datetime,
        versions: tuple[list[Memory], list[Memory]] | None = None,
    ) -> None:
        shown = (memory, hit, query, weight, now, versions)
        if shown == self._shown:  # e.g. a key that adds no word search knows: nothing to redraw
            return
        self._shown = shown
        self._rebuild()

    def set_compact(self, compact: bool) -> None:
        if compact != self.compact:
            self.compact = compact
            self._rebuild()

    def _rebuild(self) -> None:
        memory, hit, query, weight, now, versions = self._shown or (None, None, "", 0.0, None, None)
        if memory is None:
            self.content = Text("No memory here. Change the search or the filters.", style="italic")
        elif self.compact:
            self.content = _one_line(memory, score_parts.short_reason(query, hit) if hit else None)
        else:
            self.content = _sections(
                memory, score_parts.why_here(query, hit) if hit else None, hit, weight, now, versions
            )
        self._draw()

    def _draw(self) -> None:
        width, height = self.size  # the scrollbar's column included
        if width <= 0:  # not laid out yet: drawn on the first resize
            return
        # Drawn first beside the scrollbar: the details of what search finds are long, so one
        # rendering does. One that fits is drawn again to the full width, with no scrollbar.
        # (Unlike a Static's layout, a detail that fits only at the full width gets a scrollbar.)
        bar = self.styles.scrollbar_size_vertical
        lines = self._strips(width - bar)
        full = self._strips(width) if len(lines) <= height else None
        if full is not None and len(full) <= height:
            lines = full
        else:
            width -= bar
        self._lines, self._drawn_size = lines, self.size
        set_virtual_size(self, Size(width, len(lines)))
        self.refresh()

    def _strips(self, width: int) -> list[Strip]:  # not _render: that is Widget's own
        content = self.content
        if self.compact and isinstance(content, Text):  # one line, cut by cell width with "…"
            content = content.copy()
            content.truncate(width, overflow="ellipsis")
        return Visual.to_strips(self, visualize(self, content), width, None, self.visual_style)

    def _on_resize(self, event: Resize) -> None:
        if self.size != self._drawn_size:
            self._draw()

    def render_line(self, y: int) -> Strip:
        index = y + self.scroll_offset.y
        return self._lines[index] if index < len(self._lines) else Strip([])  # padded by Textual


def _one_line(memory: Memory, why: str | None) -> Text:
    """The pane folded to a line: why search found it, what the table leaves out, then the
    text, cut with "…"."""
    line = privacy_badge(memory.privacy)
    if why:
        line = Text.assemble((f" {why} ·", "bold #FF9AA2"), line)
    line.append(f" {memory.domain} · {memory.language} · {memory.id}  ", style="bold")
    line.append(" ".join(memory.text.split()))
    return line


def _sections(memory: Memory, why: str | None, hit: Hit | None, weight: float, now: datetime, versions) -> Table:
    """Two columns: what it says (and why it was found) | what is known about it."""
    head = Text()
    head.append_text(privacy_badge(memory.privacy))
    head.append(f"  {memory.kind} · {memory.domain} · {memory.language}", style="bold")
    if memory.pinned:
        head.append("  ★ pinned", style="bold #FF9AA2")
    left: list[RenderableType] = [
        head,
        Text(MEANING.get(memory.privacy, ""), style="italic #9a9aae"),
        Text(""),
        Text(memory.text),
    ]
    if hit is not None:
        left += [Text(""), _heading("Why this result"), Text(why or ""), _why(hit)]
    right: list[RenderableType] = [
        _heading("Details"),
        _metadata(memory, weight, now),
        Text(""),
        _heading("Versions"),
        _versions(memory, versions),
    ]
    layout = Table.grid(padding=(0, 3), expand=True)
    # Halves by ratio; width=1 is the least width Rich gives a column anyway, and saying so
    # spares it measuring both halves (every nested table in them) before drawing them.
    layout.add_column(ratio=1, width=1)
    layout.add_column(ratio=1, width=1)
    layout.add_row(Group(*left), Group(*right))
    return layout


def _heading(title: str) -> Text:
    return Text(title, style="bold #FF9AA2")


def _grid() -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="#9a9aae", no_wrap=True)
    grid.add_column()
    return grid


def _why(hit: Hit) -> Table:
    grid = _grid()
    grid.add_row("score", Text(f"{hit.score:.3f}", style="bold"))
    for name, value in hit.parts.items():
        shown = weight_bar(value) if name in BOUNDED_PARTS else Text(f"{value:.2f}".rjust(10))
        grid.add_row(name, Text.assemble(shown, (f"  {PART_MEANING.get(name, '')}", "italic #9a9aae")))
    return grid


def _metadata(memory: Memory, weight: float, now: datetime) -> Table:
    grid = _grid()
    grid.add_row("id", memory.id)
    grid.add_row("weight", weight_bar(weight, unbounded=True))
    grid.add_row("created", f"{memory.created_at}  ({ago(memory.created_at, now)})")
    for name in ("updated_at", "last_used_at", "verified", "event_at", "valid_until"):
        value = getattr(memory, name)
        if value:
            grid.add_row(name.replace("_at", "").replace("_", " "), value)
    grid.add_row("used", f"{memory.use_count} times · reward {memory.reward:+.2f}")
    grid.add_row("source", memory.source)
    for key, value in memory.meta.items():
        grid.add_row(f"meta.{key}", str(value))
    return grid


def _versions(memory: Memory, versions) -> Text:
    if versions is None:
        return Text("…", style="#9a9aae")
    older, newer = versions
    if not older and not newer and not memory.supersedes:
        return Text("Only this version.", style="#9a9aae")
    out = Text()
    for m in reversed(newer):
        # a later memory that updates this one, not a version of it: this one is history now
        label = "newer" if m.supersedes else "replaced by"
        out.append(f"{label}  {m.id}  ", style="#3f9a76")
        out.append(preview(m.text, 40) + "\n")
    out.append(f"this   {memory.id}\n", style="bold")
    for m in older:
        out.append(f"older  {m.id}  ", style="#6f79b8")
        out.append(preview(m.text, 40) + "\n")
    if memory.supersedes and (not older or older[-1].supersedes):
        out.append("older versions were forgotten\n", style="italic #9a9aae")
    return out
