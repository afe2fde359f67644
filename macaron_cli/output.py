"""Printing for commands: JSON for machines, rich for people (imported only when used).

Text that a person or a model wrote (a memory, an idea, a checkpoint message, a model's
reply, a path) is never parsed as Rich markup: "[/]" or "[bold]" in a memory is shown as
typed. `out().line(template, *values)` is the way to print it: the template is macaron's
own markup, each value is someone's text and is escaped; `out().text(value)` prints
someone's text alone. Output to a pipe or file is never wrapped, so `macaron apps | grep`
sees one app per line; a terminal wraps at words.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")
# C0 controls but newline and tab, DEL, and C1: a terminal acts on them (ESC starts a
# sequence that can set the title, clear the screen, move the cursor, fake a prompt). And the
# invisible bidi marks, which reorder what is shown around them (a command that reads as
# another one, a path spelled backwards).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def print_json(obj) -> None:
    """One line of valid JSON: a NaN or Infinity (from a store written before records were
    checked) becomes null rather than a bare NaN that no JSON reader takes."""
    sys.stdout.write(_json_line(obj) + "\n")


def print_json_listing(head: dict, lists: dict[str, Iterable[Any]]) -> None:
    """print_json of `head` and then each of `lists` (a key and its items), each item written
    as it comes: a list of hundreds of thousands (an import's every record) is never held whole."""
    write = sys.stdout.write
    write(_json_line(head)[:-1])  # all but its closing brace
    for number, (key, items) in enumerate(lists.items()):
        write(("" if number == 0 and not head else ", ") + _json_line(key) + ": [")
        for index, item in enumerate(items):
            write((", " if index else "") + _json_line(item))
        write("]")
    write("}\n")


def _json_line(obj) -> str:
    try:
        text = json.dumps(obj, ensure_ascii=False, allow_nan=False)
    except ValueError:
        text = json.dumps(_finite(obj), ensure_ascii=False, allow_nan=False)
    # A lone surrogate (a file name that was not UTF-8) is no character a UTF-8 reader takes.
    return _SURROGATE.sub("\ufffd", text)


def _finite(obj):
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def safe_text(text: object) -> str:
    """`text` as a str that any UTF-8 stream can take and no terminal acts on: lone
    surrogates (bytes that were not UTF-8, e.g. in a file name) become U+FFFD, and control
    characters are shown, not obeyed (ESC as "␛", as the Unicode control pictures draw it;
    a bidi mark by its name, "<U+202E>")."""
    return _CONTROL.sub(_visible, _SURROGATE.sub("\ufffd", str(text)))


def _visible(match: re.Match) -> str:
    code = ord(match.group(0))
    if code < 0x20:
        return chr(0x2400 + code)
    if code > 0x9F:  # a bidi mark: named, as nothing draws it
        return f"<U+{code:04X}>"
    return "\u2421" if code == 0x7F else "\ufffd"  # DEL has a picture; C1 controls have none


_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
_TRAILING_BACKSLASHES = re.compile(r"\\+$")


def escaped(value: object, before_tag: bool = True) -> str:
    """Someone's text made literal inside macaron's markup.

    Like rich.markup.escape, but exact: a backslash at the end of the text is doubled only
    when markup follows it (`before_tag`), else it would show twice ("C:\\dir\\")."""
    text = _TAG.sub(lambda m: m.group(1) * 2 + "\\" + m.group(2), safe_text(value))
    if before_tag:
        text = _TRAILING_BACKSLASHES.sub(lambda m: m.group(0) * 2, text)
    return text


def markup(template: str, *values: object) -> str:
    """`template` (macaron's markup with `{}` fields) filled with `values` shown as written.

    Numbers keep their format spec (`{:.3f}`); everything else is someone's text."""
    import string

    parts = []
    pieces = list(string.Formatter().parse(template))
    args = iter(values)
    for i, (literal, field, spec, conversion) in enumerate(pieces):
        parts.append(literal)
        if field is None:
            continue
        if field:
            raise ValueError("markup() takes positional {} fields only")
        value = next(args)
        if conversion == "r":
            value = repr(value)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            parts.append(format(value, spec or ""))
            continue
        following = pieces[i + 1][0] if i + 1 < len(pieces) else ""
        parts.append(escaped(format(safe_text(value), spec or ""), before_tag=following.startswith("[")))
    return "".join(parts)


def console(stderr: bool = False):
    """A rich Console for renderables (trees, panels, live views). Print strings with `out()`."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            # Rich exits 1 here; a reader that stopped early (`| head -1`) is no failure: cli.py
            # ends such a command quietly, with 0.
            self.quiet = True
            raise BrokenPipeError

    out = _Console(stderr=stderr, highlight=False)
    out.soft_wrap = not out.is_terminal  # a terminal wraps at words; a pipe gets whole lines
    return out


class Out:
    """Where a command prints for people: our markup around someone's text, never theirs."""

    def __init__(self, stderr: bool = False, target=None):
        self.console = target if target is not None else console(stderr)

    def line(self, template: str = "", *values: object, **options: Any) -> None:
        """Print `template` (macaron's markup, `{}` fields) with `values` shown exactly as written."""
        self.console.print(markup(template, *values), **options)

    def text(self, value: object, style: str | None = None, **options: Any) -> None:
        """Print someone's text alone, as written."""
        self.console.print(safe_text(value), style=style, markup=False, highlight=False, **options)

    def render(self, renderable: Any) -> None:
        """Print a rich renderable whose strings were built with `escaped` or as `Text`."""
        self.console.print(renderable)


@contextmanager
def progress(total: int, what: str) -> Iterator[Callable[[int], None]]:
    """A bar on stderr for a long job of `total` units (`what`: macaron's words, no one's
    text); yields `to(done)`. Nothing is drawn where stderr is no terminal."""
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn

    shown = console(stderr=True)
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeRemainingColumn(),
        console=shown,
        transient=True,
        disable=not shown.is_terminal,
    )
    with bar:
        task = bar.add_task(escaped(what), total=max(total, 1))
        yield lambda done: bar.update(task, completed=min(done, total))


def out(stderr: bool = False) -> Out:
    return Out(stderr)
