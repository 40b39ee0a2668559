"""The help screen: what bedside is, how to move around, and every key of the current screen.

The keys are read from the screen's active bindings (so they cannot drift from what the
keys do) and named the way a newcomer reads them ("Ctrl+D", not "^d"). A screen may add a
paragraph of its own with a `HELP` class attribute.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from tui.app.widgets.footer import key_rank
from tui.app.widgets.literal import literal

INTRO = (
    "bedside runs clinical consultations: a doctor (a model, or you) interviews a simulated "
    "patient, orders tests from a simulated examiner and commits to a diagnosis.\n\n"
    "Use the mouse: click tabs, rows and buttons; scroll with the wheel. Or the keyboard: "
    "Tab moves between fields, the arrow keys move in lists, Enter opens the selected row, "
    "Esc goes back. The bar at the bottom shows the main keys of the current screen; all "
    "of them are listed above."
)
PALETTE = " Ctrl+P opens the command palette (themes, screenshots)."

#: How keys are written for people (Textual's names on the left).
KEY_NAMES = {"escape": "Esc", "enter": "Enter", "question_mark": "?", "space": "Space",
             "tab": "Tab", "delete": "Del", "backspace": "Backspace", "up": "Up",
             "down": "Down", "left": "Left", "right": "Right", "home": "Home", "end": "End",
             "pageup": "PgUp", "pagedown": "PgDn", "plus": "+", "minus": "-"}


def key_label(key: str) -> str:
    """A key as a newcomer reads it: 'ctrl+d' → 'Ctrl+D', 'f1' → 'F1', 'escape' → 'Esc'."""
    *mods, base = key.split("+")
    name = KEY_NAMES.get(base) or (base.upper() if len(base) == 1 and mods else base)
    if base.startswith("f") and base[1:].isdigit():
        name = base.upper()
    return "+".join([*(m.capitalize() for m in mods), name])


def binding_keys(binding: Binding) -> list[str]:
    """The separate keys of a binding ('n,escape' is two keys)."""
    return [k.strip() for k in binding.key.split(",") if k.strip()]


def screen_keys(screen: Screen[Any]) -> list[tuple[str, str]]:
    """(keys, what they do) for the screen's and the app's bindings.

    Order: Help and Back, then the keys this screen declares, then the app's, then the
    generic ones every screen has (Tab, copy). Keys with the same description are merged
    ("F1, ?": Help); hidden keys are included. The focused widget's own keys (cursor
    movement in a table or a text box) are left out: the intro describes them once.
    """
    own = {(b.key, b.action) for b in Binding.make_bindings(type(screen).BINDINGS)}
    app_own = {(b.key, b.action) for b in Binding.make_bindings(type(screen.app).BINDINGS)}

    def rank(binding: Binding) -> tuple[int, int]:
        mine = (binding.key, binding.action)
        return key_rank(binding), 0 if mine in own else 1 if mine in app_own else 2

    merged: dict[str, list[str]] = {}
    ranks: dict[str, tuple[int, int]] = {}
    for node, binding, enabled, _ in screen.active_bindings.values():
        if node is not screen and node is not screen.app:
            continue
        if not binding.description or not enabled:
            continue
        labels = merged.setdefault(binding.description, [])
        ranks.setdefault(binding.description, rank(binding))
        for key in binding_keys(binding):
            label = key_label(key)
            if label not in labels:
                labels.append(label)
    # A modal form hides the app's ordinary bindings, but its priority ones (F1, Ctrl+Q)
    # still work there, so they are listed too.
    for binding in Binding.make_bindings(type(screen.app).BINDINGS):
        if binding.priority and binding.description and binding.description not in merged:
            merged[binding.description] = [key_label(k) for k in binding_keys(binding)]
            ranks[binding.description] = rank(binding)
    order = sorted(merged, key=lambda d: ranks[d])
    return [(", ".join(merged[d]), d) for d in order]


def key_table(bindings: list[tuple[str, str]]) -> Table:
    """A two-column table of (key, what it does)."""
    table = Table(show_header=True, header_style="bold", expand=True, box=None)
    table.add_column("Key", style="bold #5fafff", no_wrap=True)
    table.add_column("What it does")
    for key, description in bindings:
        table.add_row(literal(key), literal(description))
    return table


class HelpScreen(ModalScreen[None]):
    """Modal help listing the keys of the screen below it."""

    BINDINGS = [Binding("escape,q,f1", "close", "Close help")]

    def __init__(self, bindings: list[tuple[str, str]], notes: str = "") -> None:
        super().__init__()
        self.bindings_shown = bindings
        self.notes = notes

    def compose(self) -> ComposeResult:
        """The keys first (what a reader came for), the screen's notes, the intro, close."""
        with VerticalScroll(id="help-box"):
            yield Static(Text("Help — keys of this screen (Esc closes)", style="bold"),
                         id="help-title")
            yield Static(key_table(self.bindings_shown), id="help-keys")
            if self.notes:
                yield Static(literal(self.notes), id="help-notes")
            palette = PALETTE if self.app.ENABLE_COMMAND_PALETTE else ""
            yield Static(Text(INTRO + palette), id="help-intro")
            yield Button("Close (Esc)", id="help-close", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Close on the button."""
        self.dismiss(None)

    def action_close(self) -> None:
        """Close the help."""
        self.dismiss(None)
