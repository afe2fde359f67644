"""The search box: a text field whose text never changes its size."""

from __future__ import annotations

from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import Input


class SearchBox(Input):
    """An Input that takes keys without laying out the screen.

    Input sets its virtual size (the width of its text) on every key, and Textual lays out the
    whole screen for any change of a virtual size, then repaints the table's and the detail's
    scrollbars a frame later: two screen updates, while the search for that key runs. The box
    has a fixed size, so its text only needs a repaint (scrolling within the box still follows
    the text: it reads the virtual size, not the layout).
    """

    virtual_size = Reactive(Size(0, 0), layout=False)
