"""How one memory's fields look in the table: short, aligned, coloured by the macaron palette."""

from __future__ import annotations

from datetime import datetime

from rich.cells import cell_len, set_cell_size
from rich.text import Text

from macaron_cli.privacy import PERSONAL, PRIVATE, PUBLIC, SECRET

# Pastel badges, dark text: the further a level may travel, the calmer its colour.
PRIVACY_STYLES = {
    PUBLIC: "#3b3b3b on #B5EAD7",
    PERSONAL: "#3b3b3b on #C7CEEA",
    PRIVATE: "#3b3b3b on #FFDAC1",
    SECRET: "bold #3b3b3b on #FF9AA2",
}
PREVIEW_WIDTH = 48


def preview(text: str, width: int = PREVIEW_WIDTH) -> str:
    """The text on one line, at most `width` terminal cells, ending in "…" when cut (Korean,
    Japanese and Chinese letters take two cells each)."""
    flat = " ".join(text.split())
    if cell_len(flat) <= width:
        return flat
    return set_cell_size(flat, max(0, width - 1)).rstrip() + "…"


def privacy_badge(level: str) -> Text:
    return Text(f" {level:<8} ", style=PRIVACY_STYLES.get(level, ""))


def weight_bar(value: float, cells: int = 5, *, unbounded: bool = False) -> Text:
    """A small bar plus the number, easier to compare at a glance. An `unbounded` value (an
    importance, 0 to about 3) fills the bar as w/(1+w), the share search boosts it by."""
    share = value / (1.0 + value) if unbounded else value
    filled = round(max(0.0, min(share, 1.0)) * cells)
    bar = Text("▰" * filled, style="#FF9AA2")
    bar.append("▱" * (cells - filled), style="#6b6b7b")
    bar.append(f" {value:.2f}")
    return bar


def ago(iso: str | None, now: datetime) -> str:
    """'3d ago'-style ages; 'never' for a memory no answer has used yet."""
    if not iso:
        return "never"
    seconds = (now - datetime.fromisoformat(iso)).total_seconds()
    if seconds < 0:
        return iso[:10]
    for unit, size in (("y", 365 * 86400), ("mo", 30 * 86400), ("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{int(seconds // size)}{unit} ago"
    return "just now"
