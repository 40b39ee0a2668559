"""The start-a-batch form: which cases, which doctors (and patient/examiner), how many at once.

Every agent string is checked with `core.config.parse_agent` before anything starts, so a
typo such as "gpt 4o" is one line in the form instead of a batch of failed consultations.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Label, Static

from tui.app.screens.forms import SubmitForm, check_agent, check_api_base
from tui.app.widgets.literal import literal

#: The form's word for the offline scripted doctor (the command line calls it `scripted`).
OFFLINE_DOCTORS = ("offline", "scripted")


@dataclass
class BatchRequest:
    """A batch to start in the app."""

    cases: str  # a `--cases` filter (see core.selection); '' means every case
    models: list[str]  # doctors: 'offline' or model strings
    concurrency: int = 2
    limit: int | None = None
    api_base: str | None = None  # an OpenAI-compatible server for the model agents
    patient: str = "retrieval"  # agent strings for core.config.parse_agent
    examiner: str = "retrieval"


def parse_batch(cases: str, models: str, concurrency: str, limit: str,
                api_base: str = "", patient: str = "", examiner: str = "") -> BatchRequest | str:
    """Validate the form; return the request or a one-line problem."""
    # 'scripted' is the command line's word for the offline doctor: one name for both.
    names = ["offline" if m.strip() in OFFLINE_DOCTORS else m.strip()
             for m in models.split(",") if m.strip()]
    if not names:
        return "Name at least one doctor: 'offline' or a model such as openai/gpt-4o-mini."
    if any(n.partition(":")[0] == "human" for n in names):
        return "A batch cannot have a human doctor; to play a case yourself, press p at home."
    if patient.strip().partition(":")[0] == "human":
        return "A batch cannot have a human patient; to play a patient yourself, press h at home."
    if not concurrency.strip().isdigit() or not 1 <= int(concurrency) <= 64:
        return "Concurrency must be a whole number from 1 to 64."
    if limit.strip() and (not limit.strip().isdigit() or int(limit) < 1):
        return "Limit must be a positive whole number, or empty for no limit."
    base = api_base.strip()
    problem = check_api_base(base)
    for name in names:
        if problem is None and name != "offline":
            problem = check_agent(name, "doctor", base or None)
    roles = {"patient": patient.strip() or "retrieval",
             "examiner": examiner.strip() or "retrieval"}
    for role, agent in roles.items():
        problem = problem or check_agent(agent, role, base or None)
    if problem is not None:
        return problem
    return BatchRequest(cases=cases.strip(), models=names, concurrency=int(concurrency),
                        limit=int(limit) if limit.strip() else None, api_base=base or None,
                        **roles)


class StartBatchScreen(SubmitForm[BatchRequest | None]):
    """Form for a new in-app batch."""

    def compose(self) -> ComposeResult:
        """Cases, doctors, patient/examiner, API base, concurrency and limit."""
        with VerticalScroll(classes="form", id="batch-form"):
            yield Static(Text("Start a batch", style="bold"))
            yield Static(Text("Comma-separated. offline/retrieval need no model; models: "
                              "openai/…"), classes="hint")
            with Horizontal(classes="row"):
                yield Label("Cases")
                yield Input(id="batch-cases", placeholder="all; or e.g. cardiology,en,card-00*")
            with Horizontal(classes="row"):
                yield Label("Doctors")
                yield Input(id="batch-models", value="offline",
                            placeholder="offline, openai/gpt-4o-mini, ollama/llama3")
            with Horizontal(classes="row"):
                yield Label("Patient")
                yield Input(id="batch-patient", value="retrieval")
                yield Label("Examiner")
                yield Input(id="batch-examiner", value="retrieval")
            with Horizontal(classes="row"):
                yield Label("API base")
                yield Input(id="batch-api-base", placeholder="optional: http://127.0.0.1:8000/v1")
            with Horizontal(classes="row"):
                yield Label("At once")
                yield Input(id="batch-concurrency", value="2", type="integer")
                yield Label("Limit")
                yield Input(id="batch-limit", type="integer", placeholder="none")
            yield Static("", id="batch-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="batch-cancel")
                yield Button("Start", id="batch-start", variant="primary")

    def on_mount(self) -> None:
        """Focus the case filter."""
        self.query_one("#batch-cases", Input).focus()

    def submit(self) -> None:
        """Validate and return the request."""
        result = parse_batch(*(self.query_one(f"#batch-{n}", Input).value
                               for n in ("cases", "models", "concurrency", "limit",
                                         "api-base", "patient", "examiner")))
        if isinstance(result, str):
            self.query_one("#batch-error", Static).update(literal(result))
            return
        self.dismiss(result)
