"""Play the patient: a standardized-patient actor answers a model or scripted doctor
(AgentClinic's human patient), through the engine (`core.usecases.patient_play`).

The actor sees the patient's part of the case (the patient's view and the chosen bias's
paragraph: `actor_brief`) beside the dialogue, and nothing else: of the doctor's turns only
the questions put to the patient are shown, as each completes — never a test request, an
examiner's result, the diagnosis or a verdict, and no streamed text (a model doctor's reply
could turn out to be a test request). Each answer is committed the moment it is sent; the
actor is stored as the patient agent `human:NAME`. Leaving asks first and stores the
consultation as cancelled.

Must not import at module level: core.engine, litellm (loaded when the session starts).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Header, Input, Label, Select, Static

from core.case import Case
from core.events import ConsultationFailed, ConsultationFinished, Event, TurnCompleted
from core.ids import new_id
from tui.app.screens.forms import check_agent, check_api_base, check_name_and_budget, \
    clean_name
from tui.app.screens.play import ScreenSink, SessionScreen
from tui.app.widgets.bias_select import chosen_bias, patient_bias_select
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.literal import literal, sanitize
from tui.app.widgets.transcript_view import TranscriptView


@dataclass
class ActorSetup:
    """What the actor chose before a session."""

    name: str
    case_id: str
    doctor: str = "scripted"  # an agent string: scripted, or a model
    budget: int = 20
    bias: str | None = None  # a patient bias (`core.biases`), None for none
    api_base: str | None = None


class ActorSetupScreen(ModalScreen[ActorSetup | None]):
    """Asks for the actor's name, the doctor, the turn budget and the patient bias."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, case_id: str, name: str = "") -> None:
        super().__init__()
        self.case_id, self.default_name = case_id, name

    def compose(self) -> ComposeResult:
        """Name, doctor, turns, bias, API base, start/cancel."""
        with VerticalScroll(classes="form", id="setup-form"):
            yield Static(Text("Play the patient", style="bold"))
            yield Static(literal(f"You will play the patient of case {self.case_id} for the "
                                 "doctor named below; you see your part, the doctor's "
                                 "questions and your answers, nothing else."))
            with Horizontal(classes="row"):
                yield Label("Name")
                yield Input(value=self.default_name, id="actor-name",
                            placeholder="sam (stored as human:NAME)")
                yield Label("Turns")
                yield Input(value="20", id="actor-budget", type="integer")
            with Horizontal(classes="row"):
                yield Label("Doctor")
                yield Input(value="scripted", id="actor-doctor",
                            placeholder="scripted, or a model string")
                yield Label("Bias")
                yield patient_bias_select("actor-bias")
            with Horizontal(classes="row"):
                yield Label("API base")
                yield Input(id="actor-api-base", placeholder="optional, for models: http://…/v1")
            yield Static("", id="actor-error", classes="error")
            with Horizontal(classes="buttons"):
                yield Button("Cancel", id="actor-cancel")
                yield Button("Start", id="actor-start", variant="primary")

    def on_mount(self) -> None:
        """Focus the name."""
        self.query_one("#actor-name", Input).focus()

    def _value(self, name: str) -> str:
        return self.query_one(f"#actor-{name}", Input).value.strip()

    def problem(self) -> str | None:
        """The first problem with the form, as one line, or None."""
        problem = check_name_and_budget(self._value("name"), self._value("budget"))
        if problem is not None:
            return problem
        doctor = self._value("doctor") or "scripted"
        if doctor.split(":")[0] in ("human", "replay"):
            return "The doctor must be 'scripted' or a model string."
        base = self._value("api-base")
        return check_api_base(base) or check_agent(doctor, "doctor", base or None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a field starts."""
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Start or cancel."""
        if event.button.id == "actor-start":
            self.submit()
        else:
            self.dismiss(None)

    def submit(self) -> None:
        """Validate and return the setup."""
        problem = self.problem()
        if problem is not None:
            self.query_one("#actor-error", Static).update(literal(problem))
            return
        self.dismiss(ActorSetup(
            name=clean_name(self._value("name")) or "", case_id=self.case_id,
            doctor=self._value("doctor") or "scripted", budget=int(self._value("budget")),
            bias=chosen_bias(self.query_one("#actor-bias", Select)),
            api_base=self._value("api-base") or None))

    def action_cancel(self) -> None:
        """Close without starting."""
        self.dismiss(None)


class PatientPlayScreen(SessionScreen):
    """The actor's screen: their part beside the dialogue, and the answer box."""

    BINDINGS = [Binding("escape", "leave", "Leave")]
    HELP = ("You play the patient. Your part is on the right (how you are today, if a bias "
            "was chosen, then who you are): answer as this person, in their words and the "
            "case's language, from what it says; say you don't know anything it does not "
            "say. The doctor's questions appear on the left as they come; type your answer "
            "and press Enter (each answer is saved at once). You never see the doctor's test "
            "orders, results or diagnosis. PgUp/PgDn scroll the dialogue; Tab reaches your "
            "part, whose arrows scroll it.")

    def __init__(self, case: Case, setup: ActorSetup) -> None:
        super().__init__()
        self.case, self.setup = case, setup
        self.consultation_id = new_id("sp-")
        self.answers: asyncio.Queue[str] = asyncio.Queue()
        self.question: str | None = None  # the question awaiting an answer
        self.doctor_turns = 0
        self.finished = False
        self.cancel_event = asyncio.Event()

    def compose(self) -> ComposeResult:
        """Status line, dialogue and part side by side, the answer box, footer."""
        yield Header()
        yield Static(id="sp-status")
        with Horizontal(id="sp-body"):
            yield TranscriptView(id="sp-transcript")
            with VerticalScroll(id="sp-part-box"):
                yield Static(self._part(), id="sp-part")
        with Horizontal(id="sp-inputs"):
            yield Input(placeholder="Your answer… (Enter)", id="sp-answer")
            yield Button("Answer", id="sp-answer-btn")
        yield KeyFooter()

    def _part(self) -> Text:
        """The actor's part: how they are today (the bias), then who they are."""
        from core.usecases.patient_play import actor_brief

        brief = actor_brief(self.case, self.setup.bias)
        text = Text()
        for paragraph in brief.bias:
            text.append("How you are today\n", style="bold")
            text.append(sanitize(paragraph) + "\n\n")
        text.append("Who you are", style="bold")
        text.append(sanitize(f" (answer in {brief.language})\n"), style="dim")
        text.append(sanitize(brief.profile))
        return text

    def on_mount(self) -> None:
        """Start the consultation (as a worker on the App)."""
        self.update_status()
        self.query_one("#sp-answer", Input).focus()
        self.bedside.run_worker(self.consult(), group="play", exit_on_error=False,
                                name=f"patient {self.consultation_id}")

    def update_status(self) -> None:
        """Doctor turns used of the budget, and whose move it is."""
        if not self.is_attached:
            return
        line = Text()
        line.append(f"Doctor turn {self.doctor_turns}/{self.setup.budget}", style="bold")
        if self.finished:
            line.append(" · the consultation is over", style="bold")
        elif self.question is not None:
            line.append(" · your answer, please", style="italic bold")
        else:
            line.append(" · waiting for the doctor…", style="italic")
        line.append(sanitize(f" · Doctor: {self.setup.doctor} · Case {self.case.id}"))
        self.query_one("#sp-status", Static).update(line)

    # -- the engine side ------------------------------------------------------------------
    async def next_answer(self, question: str, *_: Any, **__: Any) -> str:
        """Awaited by the human patient agent: the actor's answer to `question`."""
        self.question = question
        self.update_status()
        try:
            return await self.answers.get()
        finally:
            self.question = None
            self.update_status()

    def on_engine_event(self, event: Event) -> None:
        """Show the doctor's questions and the actor's answers; count doctor turns."""
        if isinstance(event, TurnCompleted):
            turn = event.turn
            if str(turn.role) == "doctor" and turn.doctor_turn:
                self.doctor_turns = max(self.doctor_turns, turn.doctor_turn)
            shown = str(turn.role) == "patient" or (str(turn.role) == "doctor"
                                                     and turn.kind == "question")
            if shown:
                self.query_one(TranscriptView).add_turn(turn)
            self.update_status()
        elif isinstance(event, ConsultationFinished | ConsultationFailed):
            self.finish()

    async def consult(self) -> None:
        """Run the session through the engine."""
        from core.usecases.patient_play import run_actor

        s = self.setup
        try:
            await run_actor(self.bedside.store, self.case, name=s.name, doctor=s.doctor,
                            budget=s.budget, bias=s.bias, api_base=s.api_base,
                            consultation_id=self.consultation_id, sink=ScreenSink(self),
                            next_answer=self.next_answer, cancel_event=self.cancel_event)
        except Exception as err:
            self.bedside.show_error(err)
        finally:
            if self.is_attached:
                self.finish()

    def finish(self) -> None:
        """The consultation is over: the answer box goes, a word of thanks stays."""
        if self.finished or not self.is_attached:
            return
        self.finished = True
        self.query_one("#sp-inputs").display = False
        self.query_one(TranscriptView).mount(Static(Text(
            "The consultation is over. Thank you. Escape: back to the case library",
            style="bold"), classes="sp-end"))
        self.update_status()

    # -- the actor side -------------------------------------------------------------------
    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter sends the answer."""
        self.send()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The button sends the answer."""
        if event.button.id == "sp-answer-btn":
            self.send()

    def send(self) -> None:
        """Send the typed answer, if the doctor is waiting for one."""
        box = self.query_one("#sp-answer", Input)
        text = box.value.strip()
        if not text or self.finished:
            return
        if self.question is None:
            self.notify("Please wait for the doctor's question.", severity="warning")
            return
        self.answers.put_nowait(text)
        box.value = ""
