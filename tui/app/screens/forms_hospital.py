"""The start-a-hospital form: sizes, seed, the triage nurse, each department's doctor, the
department the physician takes (if any) and the pace.

Checked with the command line's own rules (`core.usecases.hospital_settings.settings`), so
a typo is one line in the form, as `bedside hospital` would say it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Label, Select, Static

from tui.app.screens.forms import SubmitForm, check_api_base, clean_name
from tui.app.widgets.literal import literal

_DEPARTMENTS = (("respiratory", "Respiratory medicine"), ("infectious", "Infectious diseases"),
                ("emergency", "Emergency"), ("oncology", "Thoracic oncology"))
NOBODY = "none"


@dataclass
class HospitalRequest:
    """A hospital to simulate in the app."""

    settings: Any  # core.usecases.hospital_settings.HospitalSettings
    pace: float = 0.0
    physician: str | None = None  # who takes `department`, if anyone
    department: str | None = None


def parse_hospital(residents: str, days: str, seed: str, triage: str, doctors: str,
                   api_base: str, pace: str, department: str, name: str) -> HospitalRequest | str:
    """Validate the form; the request or a one-line problem."""
    from core.errors import InputError
    from core.usecases.hospital_settings import settings

    numbers = {"Residents": residents, "Days": days, "Seed": seed}
    for label, text in numbers.items():
        if not text.strip().lstrip("-").isdigit():
            return f"{label} must be a whole number."
    try:
        paced = float(pace.strip() or "0")
    except ValueError:
        return "Pace must be a number of seconds, e.g. 0.2."
    if not 0 <= paced <= 60:
        return "Pace must be from 0 to 60 seconds."
    base = api_base.strip()
    if (problem := check_api_base(base)) is not None:
        return problem
    assigned = [d.strip() for d in doctors.split(",") if d.strip()]
    human = department != NOBODY
    physician = clean_name(name)
    if human and physician is None:
        return ("Type your name to take a department (letters, digits, '-', '_' or '.'): "
                "your consultations are human:NAME.")
    if human:
        assigned.append(f"{department}=human:{physician}")
    try:
        s = settings(residents=int(residents), days=int(days), seed=int(seed),
                     triage=triage.strip() or "rules", doctor=assigned,
                     model={"api_base": base} if base else {})
    except InputError as err:
        return str(err)
    return HospitalRequest(s, paced, physician if human else None,
                           department if human else None)


class HospitalFormScreen(SubmitForm[HospitalRequest | None]):
    """Form for a new in-app hospital."""

    HELP = ("Doctors: DEPT=AGENT, comma-separated, DEPT one of respiratory, infectious, "
            "emergency, oncology or all; AGENT scripted (the keyword baseline), nearest "
            "(MedAgent-Zero's offline learner), a model string such as openai/gpt-4o-mini, "
            "or zero:MODEL (a model as MedAgent-Zero). Triage: rules or a model string. "
            "'You take' a department to play its doctor yourself: its patients come to you "
            "one after another and the simulation waits for your answers. Pace: seconds "
            "before each consultation, to watch it move (0: as fast as it goes).")

    def __init__(self, physician: str = "") -> None:
        super().__init__()
        self.physician = physician

    def compose(self) -> ComposeResult:
        """Sizes, nurse, doctors, the physician's department, pace."""
        with VerticalScroll(classes="form", id="hospital-form"):
            yield Static(Text("Simulate the whole hospital (F1: what to write)",
                              style="bold"))
            with Horizontal(classes="row"):
                yield Label("Residents")
                yield Input("50", id="hospital-residents", type="integer")
                yield Label("Days")
                yield Input("7", id="hospital-days", type="integer")
                yield Label("Seed")
                yield Input("0", id="hospital-seed", type="integer")
            with Horizontal(classes="row"):
                yield Label("Triage")
                yield Input("rules", id="hospital-triage", placeholder="rules or a model")
                yield Label("Pace s")
                yield Input("0.2", id="hospital-pace")
            with Horizontal(classes="row"):
                yield Label("Doctors")
                yield Input("all=scripted", id="hospital-doctors",
                            placeholder="all=scripted, emergency=nearest")
            with Horizontal(classes="row"):
                yield Label("You take")
                yield Select([(Text("nobody"), NOBODY), *((Text(n), d) for d, n in _DEPARTMENTS)],
                             value=NOBODY, allow_blank=False, id="hospital-department")
                yield Label("Name")
                yield Input(self.physician, id="hospital-name")
            with Horizontal(classes="row"):
                yield Label("API base")
                yield Input(id="hospital-api-base",
                            placeholder="optional: http://127.0.0.1:8000/v1")
            yield Static("", id="hospital-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="hospital-cancel")
                yield Button("Start", id="hospital-start", variant="primary")

    def on_mount(self) -> None:
        """Focus the first box."""
        self.query_one("#hospital-residents", Input).focus()

    def submit(self) -> None:
        """Validate and return the request."""
        values = [self.query_one(f"#hospital-{n}", Input).value
                  for n in ("residents", "days", "seed", "triage", "doctors", "api-base",
                            "pace")]
        dept = self.query_one("#hospital-department", Select).value
        result = parse_hospital(*values, str(dept),
                                self.query_one("#hospital-name", Input).value)
        if isinstance(result, str):
            self.query_one("#hospital-error", Static).update(literal(result))
            return
        self.dismiss(result)
