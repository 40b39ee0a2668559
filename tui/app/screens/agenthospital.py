"""Agent Hospital at the bedside: a physician takes the three tasks on generated patients.

Each patient is a consultation through the engine (task `agenthospital`, doctor
`human:NAME`, recorded turn by turn like any other): the patient's account, then a short
form per task — one of sixteen examinations (the examiner then reports its finding), one
of eight diagnoses, one of three treatment levels with the diagnosed disease's plans — each
timed from the moment the form appears (the seconds are stored with the answer and
reported by `bedside results`). After the third answer the verdicts and the right answers
are shown; `n` brings the next patient (the generated test patients, in an order of this
physician's own). The session worker runs on the App; leaving in the middle stores the
patient as cancelled.

Must not import at module level: core.engine, litellm (loaded when a session starts).
"""

from __future__ import annotations

import asyncio
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from core.case import Case
from core.events import Event, TurnCompleted
from core.ids import new_id
from tui.app.screens.base import BedsideScreen
from tui.app.screens.play import ScreenSink
from tui.app.widgets.confirm import ConfirmScreen
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.literal import literal

TITLES = {"examination": "1/3 Examination: which one examination?",
          "diagnosis": "2/3 Diagnosis: which disease?",
          "treatment": "3/3 Treatment: which level for this patient?"}


class AgentHospitalScreen(BedsideScreen):
    """The three Agent Hospital tasks, one patient after another."""

    BINDINGS = [
        Binding("escape", "leave", "Leave"),
        Binding("n", "next_patient", "Next patient"),
    ]
    HELP = ("Read what the patient says, then choose with the arrow keys and Enter: one "
            "examination (its result appears under the account), one diagnosis, one "
            "treatment level (each level shows the plan for the disease you diagnosed). The "
            "clock of each task starts when its choices appear and is stored with your "
            "answer. After the third answer you see the verdicts; n brings the next patient.")
    LEAVE_QUESTION = "Leave this patient? The answers so far are kept, the patient is stored " \
                     "as cancelled."

    def __init__(self, physician: str) -> None:
        super().__init__()
        self.physician = physician
        self.case: Case | None = None
        self.consultation_id = ""
        self.answer: asyncio.Future[str] | None = None
        self.question: Any = None
        self.task_started = 0.0
        self.finished = True
        self.played = 0
        self.cancel_event = asyncio.Event()
        self.record = Text()  # what the record panel shows: account, then the finding

    def compose(self) -> ComposeResult:
        """Status, the patient's account and findings, the task form, verdicts, keys."""
        yield Header()
        yield Static(id="ah-status")
        with VerticalScroll(id="ah-record"):
            yield Static(id="ah-account")
        yield Static(id="ah-question")
        yield OptionList(id="ah-options")
        yield Static(id="ah-verdicts")
        yield KeyFooter()

    def on_mount(self) -> None:
        """The first patient; a clock for the status line."""
        self.set_interval(1.0, self.update_status)
        self.query_one("#ah-verdicts").display = False
        self.action_next_patient()

    # -- status ---------------------------------------------------------------------------
    def update_status(self) -> None:
        """Patient, task and the seconds on it."""
        if not self.is_attached:
            return
        line = Text()
        line.append(f"Agent Hospital · human:{self.physician}", style="bold")
        line.append(f" · patient {self.played}")
        if self.question is not None and not self.finished:
            spent = int(self.bedside.clock() - self.task_started)
            line.append(f" · {self.question.task}: {spent} s")
        elif self.finished and self.case is not None:
            line.append(" · done: n for the next patient")
        self.query_one("#ah-status", Static).update(line)

    # -- patients -------------------------------------------------------------------------
    def action_next_patient(self) -> None:
        """Start the next patient (only between patients)."""
        if not self.finished:
            self.notify("Finish this patient first (or Esc to leave).", severity="warning")
            return
        self.finished = False  # until the next patient is found (a second n waits)
        self.query_one("#ah-verdicts").display = False
        self.query_one("#ah-account", Static).update(Text("Finding the next patient…"))
        self.find_patient()

    @work(thread=True, exclusive=True, group="ah-find", exit_on_error=False)
    def find_patient(self) -> None:
        """Look the next patient up on a store of its own (thousands of generated cases
        must not hold up the screen), then start it on the event loop."""
        from core.usecases.agenthospital import next_patient
        from db.store import open_store

        store = open_store(self.bedside.db_path)
        try:
            case = next_patient(store, store.seen_case_ids(f"human:{self.physician}"),
                                self.physician)
        finally:
            store.close()
        self.app.call_from_thread(self.start_patient, case)

    def start_patient(self, case: Case | None) -> None:
        """Show the patient and start its consultation (None: nobody left)."""
        if not self.is_attached:
            return
        if case is None:
            self.finished = True
            self.query_one("#ah-account", Static).update(Text(
                "No generated patient left to play. Generate some first: bedside "
                "agenthospital generate --test 10"))
            self.query_one("#ah-options", OptionList).clear_options()
            return
        self.case, self.played = case, self.played + 1
        self.consultation_id = new_id("hum-")
        self.cancel_event = asyncio.Event()
        self.record = literal(case.objective)
        self.query_one("#ah-account", Static).update(self.record)
        self.bedside.run_worker(self.session(case), group="agenthospital",
                                exit_on_error=False, name=f"ah {self.consultation_id}")

    async def session(self, case: Case) -> None:
        """One patient through the engine, then the verdicts."""
        from core.usecases.play import run_human

        try:
            # The budget is the default (the three tasks do not use it): a physician and
            # a model doctor of this task then share their settings in the results.
            await run_human(self.bedside.store, case, name=self.physician, budget=20,
                            consultation_id=self.consultation_id, sink=ScreenSink(self),
                            next_action=self.next_answer, cancel_event=self.cancel_event,
                            task="agenthospital")
        except Exception as err:
            self.bedside.show_error(err)
        finally:
            if self.is_attached:
                self.reveal()

    async def next_answer(self, question: Any, *_: Any, **__: Any) -> str:
        """Awaited by the human doctor: show the task's form, return the option chosen."""
        self.question = question
        self.task_started = self.bedside.clock()
        self.query_one("#ah-question", Static).update(Text(TITLES.get(question.task, ""),
                                                           style="bold"))
        options = self.query_one("#ah-options", OptionList)
        options.clear_options()
        options.display = True
        plans = question.plans or {}
        options.add_options([Option(literal(f"{o}: {plans[o]}" if o in plans else o), id=o)
                             for o in question.options])
        options.highlighted = 0
        options.focus()
        self.update_status()
        self.answer = asyncio.get_running_loop().create_future()
        try:
            return await self.answer
        finally:
            self.answer = None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on an option answers the task."""
        if self.answer is not None and not self.answer.done() and event.option.id:
            self.answer.set_result(event.option.id)

    def on_engine_event(self, event: Event) -> None:
        """The patient's account and the examiner's finding go into the record panel."""
        if not isinstance(event, TurnCompleted) or not self.is_attached:
            return
        turn = event.turn
        role = str(turn.role)
        if role not in ("patient", "examiner"):
            return
        label = "The patient says: " if role == "patient" else "Result: "
        self.record.append("\n\n" + label, style="bold")
        self.record.append_text(literal(turn.content))
        self.query_one("#ah-account", Static).update(self.record)

    def reveal(self) -> None:
        """The verdicts and the right answers of the patient just played."""
        from core.usecases.task_results import score_consultation
        from tui.app.services import USER_ERRORS

        self.finished, self.question = True, None
        options = self.query_one("#ah-options", OptionList)
        options.clear_options()
        options.display = False
        self.query_one("#ah-question", Static).update("")
        try:
            values = score_consultation(self.bedside.store, self.consultation_id)
        except USER_ERRORS:
            values = {}
        text = Text()
        for task in ("examination", "diagnosis", "treatment"):
            value, detail = values.get(f"task_{task}", (None, {}))
            seconds = values.get(f"task_{task}_seconds", (None, {}))[0]
            verdict = "not answered" if value is None else "right" if value else "wrong"
            text.append(f"{task}: ", style="bold")
            text.append_text(literal(str(detail.get("answer") or "—")))
            text.append(f" — {verdict}", style="green" if value else "red")
            if seconds is not None:
                text.append(f" ({seconds:.0f} s)")
            # "— right …; right: X" read as two verdicts (seen under tmux): name what X is.
            label = "suitable" if task == "examination" else "right answer"
            text.append_text(literal(f"; {label}: {detail.get('right', '?')}\n"))
        text.append("n: next patient · Esc: back", style="dim")
        box = self.query_one("#ah-verdicts", Static)
        box.update(text)
        box.display = True
        self.update_status()

    # -- leaving --------------------------------------------------------------------------
    def action_leave(self) -> None:
        """Back at once between patients, else after a yes."""
        if self.finished:
            self.app.pop_screen()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.cancel_event.set()
                self.app.workers.cancel_group(self.app, "agenthospital")
                if self.is_current:
                    self.app.pop_screen()

        self.app.push_screen(ConfirmScreen(self.LEAVE_QUESTION, yes="Leave", no="Stay"),
                             answered)
