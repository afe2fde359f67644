"""Changing how much a scrolling widget holds, in as few frames as Textual allows."""

from __future__ import annotations

from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.widget import Widget


def set_virtual_size(view: ScrollView, size: Size) -> None:
    """Set `view`'s virtual size, laying out the screen only when a scrollbar comes or goes.

    Textual lays out the whole screen whenever a virtual size changes, and repaints every
    visible scrollbar in the frame after each layout pass. When the scrollbars stay as they
    are, only their thumbs need the new size: no layout pass, the change shows in one frame.
    When one comes or goes, the pass is needed; Textual would decide on the scrollbar during
    the pass and place it in a second one, a frame later: decided here, the first pass does.
    """
    if size == view.virtual_size:
        return
    vertical, horizontal = _scrollbars(view, size)
    if not view.container_size:  # not laid out yet
        view.virtual_size = size
    elif (vertical, horizontal) != (view.show_vertical_scrollbar, view.show_horizontal_scrollbar):
        view.show_vertical_scrollbar, view.show_horizontal_scrollbar = vertical, horizontal
        # Made when first needed, as Textual does (were one missed, the layout pass would
        # still place it, a frame later).
        if vertical or getattr(view, "_vertical_scrollbar", None) is not None:
            view.vertical_scrollbar.display = vertical
        if horizontal or getattr(view, "_horizontal_scrollbar", None) is not None:
            view.horizontal_scrollbar.display = horizontal
        view.virtual_size = size
    else:
        view.set_reactive(Widget.virtual_size, size)
        if vertical:
            view.vertical_scrollbar.window_virtual_size = size.height
        if horizontal:
            view.horizontal_scrollbar.window_virtual_size = size.width
        view.scroll_x = view.validate_scroll_x(view.scroll_x)
        view.scroll_y = view.validate_scroll_y(view.scroll_y)
        view.refresh()


def _scrollbars(view: ScrollView, size: Size) -> tuple[bool, bool]:
    """Whether `view` shows a vertical and a horizontal scrollbar for this virtual size, as
    Textual decides it (Widget._refresh_scrollbars)."""
    styles = view.styles
    width, height = view.container_size

    def shown(overflow: str, needed: bool) -> bool:
        return overflow == "scroll" or (overflow == "auto" and needed)

    vertical = shown(styles.overflow_y, size.height > height)
    horizontal = shown(styles.overflow_x, size.width > width)
    if vertical and not horizontal:  # the vertical scrollbar narrows the view
        horizontal = shown(styles.overflow_x, size.width > width - styles.scrollbar_size_vertical)
    if horizontal and not vertical:
        vertical = shown(styles.overflow_y, size.height > height - styles.scrollbar_size_horizontal)
    return vertical, horizontal
