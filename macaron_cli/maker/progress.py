"""What the person sees while an app is made: phase, which agent works, tools, tokens, cost.

`Progress` is silent (for --json and for `macaron chat`, which draws its own screen);
`LiveProgress` draws a rich live panel on a terminal and plain lines elsewhere.

A question to the person is asked only through `asking.question`: it stops the live panel
(which says it is drawn and gone) while the person reads and answers, then draws it again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from macaron_cli.asking import drawing, gone


class Progress:
    """The events the pipeline reports. Subclasses draw them; this one stays quiet."""

    def phase(self, name: str, detail: str = "") -> None: ...
    def agent(self, who: str, text: str) -> None: ...
    def tool(self, who: str, name: str, summary: str) -> None: ...
    def usage(self, tokens: int, cost_usd: float) -> None: ...
    def note(self, text: str) -> None: ...
    def close(self) -> None: ...


class LiveProgress(Progress):
    def __init__(self, console=None):
        from macaron_cli.output import Out
        from macaron_cli.output import console as make_console

        self.console = console or make_console(stderr=True)
        self.out = Out(target=self.console)
        self.live = None
        self.state = {"phase": "", "detail": "", "who": "", "last": "", "tokens": 0, "cost": 0.0}
        self.recent: list[str] = []
        self.started = time.monotonic()
        if self.console.is_terminal:
            from rich.live import Live

            self.live = Live(self._render(), console=self.console, refresh_per_second=8, transient=True)
            self.live.start()
            drawing(self)

    def pause(self) -> None:
        """The panel taken off the terminal while a question is asked."""
        if self.live:
            self.live.stop()

    def resume(self) -> None:
        if self.live:
            self.live.start()

    def _render(self):
        from rich.panel import Panel
        from rich.table import Table

        from macaron_cli.output import markup

        s = self.state
        table = Table.grid(padding=(0, 1))
        table.add_row("[bold]phase[/]", markup("{} [dim]{}[/]", s["phase"], s["detail"]))
        table.add_row("[bold]working[/]", markup("{}", s["who"] or "-"))
        for line in self.recent[-5:]:
            table.add_row("", markup("[dim]{}[/]", line))
        elapsed = time.monotonic() - self.started
        table.add_row("[bold]so far[/]", f"{s['tokens']:,} tokens · ${s['cost']:.4f} · {elapsed:.0f}s")
        return Panel(table, title="macaron make", border_style="#FF9AA2")

    def _update(self, line: str | None = None) -> None:
        if line:
            self.recent.append(line)
        if self.live:
            self.live.update(self._render())
        elif line:
            self.out.text(line)

    def phase(self, name, detail=""):
        self.state.update(phase=name, detail=detail)
        if self.live:
            self.out.line("[bold #FF9AA2]●[/] {} [dim]{}[/]", name, detail)
        self._update(None if self.live else f"● {name} {detail}".rstrip())

    def agent(self, who, text):
        self.state["who"] = who
        self._update(f"{who}: {text[:100]}")

    def tool(self, who, name, summary):
        self.state["who"] = who
        self._update(f"{who} → {name} {summary[:80]}")

    def usage(self, tokens, cost_usd):
        self.state.update(tokens=tokens, cost=cost_usd)
        if self.live:
            self.live.update(self._render())

    def note(self, text):
        self.out.text(text)

    def close(self):
        if self.live:
            self.live.stop()
            self.live = None
        gone(self)


def run_shown(work: Callable[[Progress], Any], json_out: bool, summary: Callable[[Any], None]) -> Any:
    """A command's work with live progress (silent for --json), then its result shown: one
    JSON object, or the summary for a person. Make and change end alike."""
    progress = Progress() if json_out else LiveProgress()
    try:
        result = work(progress)
    finally:
        progress.close()
    if json_out:
        from macaron_cli.output import print_json

        print_json(result.to_json())
    else:
        summary(result)
    return result
