"""The one way to ask the person something in a terminal: `@question`.

A live display (make's and change's progress panel, maker/progress.py) redraws itself many
times a second; a prompt under it is hidden and the command sits waiting. Every function that
prompts (input(), rich's Prompt/Confirm, typer.confirm…) is decorated `@question`: the live
display is stopped while the person reads and answers, then drawn again. A live display says
it is drawn (`drawing`) and gone (`gone`). tests/test_make_questions.py fails on a prompt
asked anywhere in macaron_cli outside a `@question` function.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

Asked = TypeVar("Asked", bound=Callable[..., Any])


class Display(Protocol):
    def pause(self) -> None: ...
    def resume(self) -> None: ...


_DRAWN: list[Display] = []  # the live displays on the terminal now, newest last


def question(ask: Asked) -> Asked:
    """`ask` (a function that prompts the person) run with the live display stopped."""

    @functools.wraps(ask)
    def asked(*args, **kwargs):
        drawn = _DRAWN[-1] if _DRAWN else None
        if drawn is not None:
            drawn.pause()
        try:
            return ask(*args, **kwargs)
        finally:
            if drawn is not None:
                drawn.resume()

    return asked  # type: ignore[return-value]


def drawing(display: Display) -> None:
    _DRAWN.append(display)


def gone(display: Display) -> None:
    if display in _DRAWN:
        _DRAWN.remove(display)
