"""The one yes/no dialog of the app and of `bedside rate`.

`y` or the Yes button answers yes; `n`, Escape or the No button (focused, the safe answer)
answers no. It carries its own styles, so it looks the same in both apps.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tui.app.widgets.literal import literal


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question; returns True only for an explicit yes (Escape means no)."""

    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]
    DEFAULT_CSS = """
    ConfirmScreen { align: center middle; }
    ConfirmScreen #confirm-dialog { width: 64; max-width: 95%; height: auto;
                  max-height: 90%; border: thick $warning; background: $surface;
                  padding: 1 2; }
    ConfirmScreen #confirm-buttons { height: auto; align-horizontal: right; margin-top: 1; }
    ConfirmScreen #confirm-buttons Button { margin-left: 2; }
    """

    def __init__(self, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question, self.yes, self.no = question, yes, no

    def compose(self) -> ComposeResult:
        """The question and two buttons (the safe one focused)."""
        with Vertical(id="confirm-dialog"):
            yield Static(literal(self.question), id="confirm-question")
            with Horizontal(id="confirm-buttons"):
                yield Button(f"{self.no} (n)", id="confirm-no", variant="primary")
                yield Button(f"{self.yes} (y)", id="confirm-yes", variant="error")

    def on_mount(self) -> None:
        """Focus the safe answer."""
        self.query_one("#confirm-no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Answer by button."""
        event.stop()
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        """Answer by key."""
        self.dismiss(yes)
