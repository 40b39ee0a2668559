"""Modal forms that return a typed value with `dismiss(value)`: play setup and diagnosis.

Must not import: db, core.engine, litellm.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static, TextArea

NAME_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789-_.")


@dataclass
class PlaySetup:
    """What the physician chose before a session."""

    name: str
    case_id: str | None  # None: next unseen case, identity hidden until the end
    budget: int = 20


@dataclass
class DiagnosisForm:
    """The physician's final answer."""

    diagnosis: str
    differential: list[str] = field(default_factory=list)
    rationale: str = ""
    treatment: str = ""


def clean_name(raw: str) -> str | None:
    """A physician name as stored after `human:` (lower case, no spaces), or None if empty."""
    name = "-".join(raw.strip().lower().split())
    if not name or not set(name) <= NAME_CHARS:
        return None
    return name


class PlaySetupScreen(ModalScreen[PlaySetup | None]):
    """Asks for the physician's name and the turn budget."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, case_id: str | None, name: str = "") -> None:
        super().__init__()
        self.case_id, self.default_name = case_id, name

    def compose(self) -> ComposeResult:
        """Name, budget, start/cancel."""
        what = ("the next case you have not seen (its identity stays hidden until the end)"
                if self.case_id is None else f"case {self.case_id}")
        with VerticalScroll(classes="form"):
            yield Static(Text("Play as doctor", style="bold"))
            yield Static(Text(f"You will interview the patient for {what}."))
            yield Label("Your name (stored as human:NAME, e.g. dr-smith)")
            yield Input(value=self.default_name, placeholder="dr-smith", id="setup-name")
            yield Label("Turn budget (questions and test orders)")
            yield Input(value="20", id="setup-budget", type="integer")
            yield Static("", id="setup-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="setup-cancel")
                yield Button("Start", id="setup-start", variant="primary")

    def on_mount(self) -> None:
        """Focus the name."""
        self.query_one("#setup-name", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a field starts."""
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Start or cancel."""
        if event.button.id == "setup-start":
            self.submit()
        else:
            self.dismiss(None)

    def submit(self) -> None:
        """Validate and return the setup."""
        error = self.query_one("#setup-error", Static)
        name = clean_name(self.query_one("#setup-name", Input).value)
        if name is None:
            error.update(Text("Please type a name: letters, digits, '-', '_' or '.'."))
            return
        budget_text = self.query_one("#setup-budget", Input).value.strip()
        if not budget_text.isdigit() or not 1 <= int(budget_text) <= 100:
            error.update(Text("The turn budget must be a whole number from 1 to 100."))
            return
        self.dismiss(PlaySetup(name=name, case_id=self.case_id, budget=int(budget_text)))

    def action_cancel(self) -> None:
        """Close without starting."""
        self.dismiss(None)


class DiagnosisScreen(ModalScreen[DiagnosisForm | None]):
    """Commit a diagnosis, optionally with a differential, rationale and treatment plan."""

    # Enter makes a new line in the rationale and plan boxes, so commit has its own key.
    BINDINGS = [Binding("escape", "cancel", "Back to the patient"),
                Binding("ctrl+s", "commit", "Commit diagnosis", priority=True)]

    def compose(self) -> ComposeResult:
        """The four fields and commit/cancel."""
        with VerticalScroll(classes="form", id="dx-form"):
            yield Static(Text("Commit a diagnosis (this ends the consultation) — Ctrl+S commits",
                              style="bold"))
            yield Label("Diagnosis (required)")
            yield Input(id="dx-diagnosis", placeholder="e.g. community-acquired pneumonia")
            yield Label("Differential (optional, separated by ';')")
            yield Input(id="dx-differential")
            yield Label("Rationale (optional)")
            yield TextArea(id="dx-rationale")
            yield Label("Treatment plan (optional)")
            yield TextArea(id="dx-treatment")
            yield Static("", id="dx-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Back", id="dx-cancel")
                yield Button("Commit diagnosis", id="dx-commit", variant="success")

    def on_mount(self) -> None:
        """Focus the diagnosis."""
        self.query_one("#dx-diagnosis", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Commit or go back."""
        if event.button.id == "dx-commit":
            self.submit()
        else:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the diagnosis field commits."""
        self.submit()

    def submit(self) -> None:
        """Validate and return the form."""
        diagnosis = self.query_one("#dx-diagnosis", Input).value.strip()
        if not diagnosis:
            self.query_one("#dx-error", Static).update(Text("Please type a diagnosis."))
            return
        differential = [d.strip() for d in
                        self.query_one("#dx-differential", Input).value.split(";") if d.strip()]
        self.dismiss(DiagnosisForm(
            diagnosis=diagnosis, differential=differential,
            rationale=self.query_one("#dx-rationale", TextArea).text.strip(),
            treatment=self.query_one("#dx-treatment", TextArea).text.strip()))

    def action_commit(self) -> None:
        """Ctrl+S: commit from any field."""
        self.submit()

    def action_cancel(self) -> None:
        """Back to the consultation."""
        self.dismiss(None)
