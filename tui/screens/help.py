"""The help screen: what bedside is, how to move around, and every key of the current screen.

Must not import: db, core.engine, litellm.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

INTRO = (
    "bedside runs clinical consultations: a doctor (a model, or you) interviews a simulated "
    "patient, orders tests from a simulated examiner and commits to a diagnosis.\n\n"
    "Use the mouse: click tabs, rows and buttons; scroll with the wheel. Or the keyboard: "
    "Tab moves between fields, the arrow keys move in lists, Enter opens the selected row, "
    "Escape goes back. The bar at the bottom always shows the keys of the current screen.\n\n"
    "From the home screen: r shows the results table (humans and models side by side), "
    "a the agreement analysis of a reader study or of a CSV file, s the new-study form."
)


def key_table(bindings: list[tuple[str, str]]) -> Table:
    """A two-column table of (key, what it does)."""
    table = Table(show_header=True, header_style="bold", expand=True, box=None)
    table.add_column("Key", style="bold #5fafff", no_wrap=True)
    table.add_column("What it does")
    for key, description in bindings:
        table.add_row(Text(key), Text(description))
    return table


class HelpScreen(ModalScreen[None]):
    """Modal help listing the keys of the screen below it."""

    BINDINGS = [Binding("escape,q,f1", "close", "Close help")]

    def __init__(self, bindings: list[tuple[str, str]]) -> None:
        super().__init__()
        self.bindings_shown = bindings

    def compose(self) -> ComposeResult:
        """Intro text, key table and a close button."""
        with VerticalScroll(id="help-box"):
            yield Static(Text("Help", style="bold"), id="help-title")
            yield Static(Text(INTRO), id="help-intro")
            yield Static(key_table(self.bindings_shown), id="help-keys")
            yield Button("Close (Esc)", id="help-close", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Close on the button."""
        self.dismiss(None)

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
