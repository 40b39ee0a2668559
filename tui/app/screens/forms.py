"""Modal forms that return a typed value with `dismiss(value)`: play setup, diagnosis, and a
yes/no confirmation. Agent fields are checked with `core.config.parse_agent`, the same rule
as the command line, so a form never starts something the engine would refuse.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static, TextArea

from core.errors import InputError
from tui.app.widgets.bias_select import chosen_bias, patient_bias_select
from tui.app.widgets.literal import literal

NAME_CHARS = set("abcdefghijklmnopqrstuvwxyz0123456789-_.")
T = TypeVar("T")
AGENT_HINT = ("Patient and examiner: 'retrieval' answers from the case with no model (offline), "
              "or a model string such as openai/gpt-4o-mini.")


@dataclass
class PlaySetup:
    """What the physician chose before a session."""

    name: str
    case_id: str | None  # None: next unseen case, identity hidden until the end
    budget: int = 20
    patient: str = "retrieval"  # an agent string for core.config.parse_agent
    examiner: str = "retrieval"
    api_base: str | None = None  # an OpenAI-compatible server for model agents
    # Home-screen filters the next unseen case must match (specialty, language, source).
    filters: dict[str, str] = field(default_factory=dict)
    # The languages the physician reads (BCP-47 tags; empty: every language).
    languages: list[str] = field(default_factory=list)
    patient_bias: str | None = None  # a patient bias (`core.biases`), None for none
    # When the case's images are shown (core.images): with the presentation, or on request.
    images: str = "upfront"


@dataclass
class DiagnosisForm:
    """The physician's final answer."""

    diagnosis: str
    differential: list[str] = field(default_factory=list)
    rationale: str = ""
    treatment: str = ""


class SubmitForm(ModalScreen[T]):
    """A form that Enter in a box or its `…-start` button submits (`submit`, written by
    the subclass, dismisses with the value) and its other button or Esc closes with None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def submit(self) -> None:
        """Validate and dismiss with the value (subclasses)."""
        raise NotImplementedError

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Start or cancel."""
        if (event.button.id or "").endswith("-start"):
            self.submit()
        else:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter starts."""
        self.submit()

    def action_cancel(self) -> None:
        """Close without starting."""
        self.dismiss(None)


def clean_name(raw: str) -> str | None:
    """A physician name as stored after `human:` (lower case, no spaces), or None if empty."""
    name = "-".join(raw.strip().lower().split())
    if not name or not set(name) <= NAME_CHARS:
        return None
    return name


def check_name_and_budget(name: str, budget: str) -> str | None:
    """A problem with a player's name or a turn budget as typed, or None."""
    if clean_name(name) is None:
        return "Please type a name: letters, digits, '-', '_' or '.'."
    if not budget.isdigit() or not 1 <= int(budget) <= 100:
        return "The turn budget must be a whole number from 1 to 100."
    return None


def check_api_base(text: str) -> str | None:
    """A problem with an API base URL (empty is fine), or None."""
    base = text.strip()
    if base and not base.startswith(("http://", "https://")):
        return "The API base URL must start with http:// or https://."
    return None


def check_agent(text: str, role: str, api_base: str | None = None) -> str | None:
    """A one-line problem if `text` cannot play `role` (patient, examiner, doctor), or None.

    Uses `core.config.parse_agent` (imported here, off the start-up path).
    """
    from core.config import parse_agent
    from core.errors import InputError

    try:
        parse_agent(text, role, **({"api_base": api_base} if api_base else {}))
    except InputError as err:
        return str(err)
    return None


class PlaySetupScreen(ModalScreen[PlaySetup | None]):
    """Asks for the physician's name, the turn budget and who plays patient and examiner."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, case_id: str | None, name: str = "",
                 filters: dict[str, str] | None = None,
                 languages: list[str] | None = None) -> None:
        super().__init__()
        self.case_id, self.default_name = case_id, name
        self.filters = dict(filters or {})
        self.languages = list(languages or [])

    def _what(self) -> str:
        if self.case_id is not None:
            return f"case {self.case_id}"
        which = ", ".join(f"{k} {v}" for k, v in sorted(self.filters.items()))
        scope = f" ({which})" if which else (" in any specialty (the filters above the case "
                                             "list narrow this), in a language you read")
        return f"the next case you have not seen{scope}; its identity stays hidden until the end"

    def compose(self) -> ComposeResult:
        """Name and budget, patient and examiner, API base, start/cancel."""
        with VerticalScroll(classes="form", id="setup-form"):
            yield Static(Text("Play as doctor", style="bold"))
            yield Static(literal(f"You will interview the patient for {self._what()}."))
            with Horizontal(classes="row"):
                yield Label("Name")
                yield Input(value=self.default_name, placeholder="dr-smith (stored as human:NAME)",
                            id="setup-name")
                yield Label("Turns")
                yield Input(value="20", id="setup-budget", type="integer",
                            tooltip="Turn budget: questions and test orders")
            with Horizontal(classes="row"):
                yield Label("Reads")
                yield Input(value=", ".join(self.languages), id="setup-languages",
                            placeholder="languages you read, e.g. en, fr (empty: all)",
                            tooltip="Next unseen only offers cases in these languages; "
                            "remembered with your name")
                yield Label("Images")
                yield Select([("up front", "upfront"), ("on request", "on-request")],
                             value="upfront", allow_blank=False, id="setup-images",
                             tooltip="A case's images: shown with the presentation, or only "
                             "when you ask (Ctrl+G; one turn)")
            with Horizontal(classes="row"):
                yield Label("Patient")
                yield Input(value="retrieval", id="setup-patient")
                yield Label("Examiner")
                yield Input(value="retrieval", id="setup-examiner")
            with Horizontal(classes="row"):
                yield Label("Bias")
                yield patient_bias_select("setup-patient-bias")
                yield Label("API base")
                yield Input(id="setup-api-base", placeholder="optional, for models: http://…/v1")
            yield Static(Text(AGENT_HINT), classes="hint")
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

    def _value(self, name: str) -> str:
        return self.query_one(f"#setup-{name}", Input).value.strip()

    def problem(self) -> str | None:
        """The first problem with the form, as one line, or None."""
        problem = check_name_and_budget(self._value("name"), self._value("budget"))
        if problem is not None:
            return problem
        try:
            self._languages()
        except InputError as err:
            return err.reason
        base = self._value("api-base")
        if self._value("patient").partition(":")[0] == "human":
            return "You play the doctor: the patient is 'retrieval' or a model (press h at " \
                "home to play a patient)."
        return check_api_base(base) or check_agent(self._value("patient") or "retrieval",
                                                   "patient", base or None) \
            or check_agent(self._value("examiner") or "retrieval", "examiner", base or None)

    def submit(self) -> None:
        """Validate and return the setup."""
        problem = self.problem()
        if problem is not None:
            self.query_one("#setup-error", Static).update(literal(problem))
            return
        self.dismiss(PlaySetup(
            name=clean_name(self._value("name")) or "", case_id=self.case_id,
            budget=int(self._value("budget")),
            patient=self._value("patient") or "retrieval",
            examiner=self._value("examiner") or "retrieval",
            api_base=self._value("api-base") or None, filters=self.filters,
            languages=self._languages(),
            patient_bias=chosen_bias(self.query_one("#setup-patient-bias", Select)),
            images=str(self.query_one("#setup-images", Select).value)))

    def _languages(self) -> list[str]:
        from core.usecases.play import parse_languages

        return parse_languages(self._value("languages"))

    def action_cancel(self) -> None:
        """Close without starting."""
        self.dismiss(None)


class DiagnosisScreen(ModalScreen[DiagnosisForm | None]):
    """Commit a diagnosis, optionally with a differential, rationale and treatment plan."""

    # Enter makes a new line in the rationale and plan boxes, so commit has its own key.
    BINDINGS = [Binding("escape", "cancel", "Back to the patient"),
                Binding("ctrl+s", "commit", "Commit diagnosis", priority=True)]
    LAST_TURN = ("Last turn: commit your diagnosis now (Esc goes back, but a question or "
                 "test order then ends without a diagnosis).")

    def __init__(self, *, last_turn: bool = False) -> None:
        super().__init__()
        self.last_turn = last_turn

    def compose(self) -> ComposeResult:
        """The four fields and commit/cancel (compact, so the rationale has room at 80x24)."""
        with VerticalScroll(classes="form", id="dx-form"):
            yield Static(Text("Commit a diagnosis (this ends the consultation) — Ctrl+S commits",
                              style="bold"))
            if self.last_turn:
                yield Static(Text(self.LAST_TURN, style="bold red"), id="dx-last-turn")
            yield Label("Diagnosis (required)")
            yield Input(id="dx-diagnosis", placeholder="e.g. community-acquired pneumonia",
                        compact=True)
            yield Label("Differential (optional, separated by ';')")
            yield Input(id="dx-differential", compact=True)
            yield Label("Rationale (optional; Enter makes a new line)")
            yield TextArea(id="dx-rationale", compact=True)
            yield Label("Treatment plan (optional)")
            yield TextArea(id="dx-treatment", compact=True)
            yield Static("", id="dx-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Back", id="dx-cancel", compact=True)
                yield Button("Commit diagnosis", id="dx-commit", variant="success",
                             compact=True)

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
