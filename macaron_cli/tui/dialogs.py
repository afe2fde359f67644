"""Modal dialogs: edit a memory, choose a privacy level, choose where to export.

Each dismisses with the person's answer (or None when cancelled); the app applies it
through the store, so dialogs never touch memory themselves.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Select, TextArea
from textual.widgets.option_list import Option

from macaron_cli.errors import UserError
from macaron_cli.memory import Memory
from macaron_cli.memory.records import KINDS
from macaron_cli.privacy import LEVELS, MEANING
from macaron_cli.tui.export import check_target


class EditDialog(ModalScreen[dict | None]):
    """Dismisses with the changed fields only ({} when nothing changed)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "save", "Save")]

    def __init__(self, memory: Memory):
        super().__init__()
        self.memory = memory

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="edit-dialog"):
            yield Label(f"Edit {self.memory.id}", classes="dialog-title", markup=False)
            yield TextArea(self.memory.text, id="edit-text", soft_wrap=True, show_line_numbers=False)
            with Horizontal(classes="dialog-row"):
                yield Input(self.memory.domain, placeholder="domain", id="edit-domain")
                yield Select([(k, k) for k in KINDS], value=self.memory.kind, allow_blank=False, id="edit-kind")
            yield Label("A new text is saved as a new version; the old one stays, linked.", classes="dialog-hint")
            yield Label("", id="edit-error", classes="dialog-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save  ctrl+s", variant="primary", id="save")
                yield Button("Cancel  esc", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#edit-text", TextArea).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.action_save() if event.button.id == "save" else self.action_cancel()

    def action_save(self) -> None:
        text = self.query_one("#edit-text", TextArea).text.strip()
        domain = self.query_one("#edit-domain", Input).value.strip()
        kind = self.query_one("#edit-kind", Select).value
        if not text:
            self.query_one("#edit-error", Label).update("The text is empty; to remove a memory, forget it (d).")
            return
        if not domain:
            self.query_one("#edit-error", Label).update("Give a domain, e.g. food, health or work.")
            return
        proposed = {"text": text, "domain": domain, "kind": kind}
        self.dismiss({k: v for k, v in proposed.items() if v != getattr(self.memory, k)})

    def action_cancel(self) -> None:
        self.dismiss(None)


class PrivacyDialog(ModalScreen[str | None]):
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        *(Binding(str(i), f"choose({i - 1})", level, show=False) for i, level in enumerate(LEVELS, 1)),
    ]

    def __init__(self, current: str, count: int = 1):
        super().__init__()
        self.current = current
        self.count = count

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="privacy-dialog"):
            what = "this memory" if self.count == 1 else f"{self.count} marked memories"
            yield Label(f"Who may see {what}?", classes="dialog-title", markup=False)
            yield OptionList(
                *[Option(f"{i}  {level:<9} {MEANING[level]}", id=level) for i, level in enumerate(LEVELS, 1)],
                id="privacy-options",
            )
            yield Label("enter choose · 1–4 · esc cancel", classes="dialog-hint")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = LEVELS.index(self.current) if self.current in LEVELS else 0
        options.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_choose(self, index: int) -> None:
        self.dismiss(LEVELS[index])

    def action_cancel(self) -> None:
        self.dismiss(None)


class ExportDialog(ModalScreen[Path | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, default: Path, what: str):
        super().__init__()
        self.default = default
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="export-dialog"):
            yield Label(f"Export {self.what} to JSONL", classes="dialog-title", markup=False)
            yield Input(str(self.default), id="export-path")
            yield Label("enter export · esc cancel · the file is readable by you alone", classes="dialog-hint")
            yield Label("", id="export-error", classes="dialog-error", markup=False)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        try:
            if not value:
                raise UserError("Give a file name.")
            self.dismiss(check_target(Path(value)))
        except UserError as exc:
            self.query_one("#export-error", Label).update(str(exc))

    def action_cancel(self) -> None:
        self.dismiss(None)
