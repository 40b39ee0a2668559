"""Play as doctor: a physician interviews the simulated patient, orders tests, diagnoses.

The consultation runs in the engine (`core.engine.run_consultation`) with a human doctor
whose turns come from this screen; every event goes to the database recorder at once, so a
session is stored turn by turn (with time per turn) as doctor `human:NAME`. The worker runs
on the App; leaving the screen (after a yes to "leave?") cancels the consultation, which is
stored as cancelled. The patient and examiner are the offline retrieval agents unless the
setup form named models. The case's images shown to the physician (up front, or after
asking: Ctrl+G or typing REQUEST IMAGES, one turn) appear under the presentation
(`tui.app.widgets.case_image`); Ctrl+G then opens them full size.

Must not import at module level: core.engine, litellm (loaded when the session starts).
"""

from __future__ import annotations

import asyncio
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Header, Input, Static

from core.case import Case
from core.events import Event, TokenDelta, TurnCompleted, TurnStarted
from core.ids import new_id
from core.images import REQUEST_KEYWORD, CaseImage
from tui.app.screens.base import BedsideScreen
from tui.app.screens.forms import DiagnosisForm, DiagnosisScreen, PlaySetup
from tui.app.screens.images import ImagesScreen
from tui.app.widgets.case_image import CaseImageView, load_renderer
from tui.app.widgets.bidi import display_line, literal_block
from tui.app.widgets.confirm import ConfirmScreen
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.literal import sanitize
from tui.app.widgets.test_completion import TestOrderInput
from tui.app.widgets.transcript_view import Outcome, TranscriptView, render_outcome



class ScreenSink:
    """Event sink forwarding engine events to a playing screen (same event loop): the
    physician's, or the patient actor's (`patient_play`); anything with `on_engine_event`."""

    def __init__(self, screen: Any) -> None:
        self.screen = screen

    def emit(self, event: Event) -> None:
        """Hand the event to the screen (never raises)."""
        try:
            self.screen.on_engine_event(event)
        except Exception as err:  # a display problem must never stop the consultation
            self.screen.log.error(repr(err))


class SessionScreen(BedsideScreen):
    """What the screens a person plays in share (the physician's, the patient actor's):
    PgUp/PgDn scroll the transcript while the focus stays in the text box, and leaving an
    unfinished consultation asks first, then stores it as cancelled. Subclasses set
    `finished`, `cancel_event` and `LEAVE_QUESTION`."""

    BINDINGS = [
        # Priority: the text box has the focus while the player reads back.
        Binding("pageup", "scroll_transcript(-1)", "Scroll up", show=False, priority=True),
        Binding("pagedown", "scroll_transcript(1)", "Scroll down", show=False,
                priority=True),
    ]
    LEAVE_QUESTION = ("Leave this consultation? It ends here and is stored as cancelled; "
                      "you cannot come back to it.")
    finished: bool
    cancel_event: asyncio.Event

    def action_scroll_transcript(self, direction: int) -> None:
        """PgUp/PgDn: scroll the transcript, the focus stays where the player types."""
        view = self.query_one(TranscriptView)
        if direction > 0:
            view.scroll_page_down()
        else:
            view.scroll_page_up()

    def action_leave(self) -> None:
        """Leave: at once when the consultation is over, else after the player confirms."""
        if self.finished:
            self.app.pop_screen()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.leave_now()

        self.app.push_screen(ConfirmScreen(self.LEAVE_QUESTION, yes="Leave", no="Stay"),
                             answered)

    def leave_now(self) -> None:
        """Cancel an unfinished consultation (stored as cancelled) and go back."""
        if not self.finished:
            self.cancel_event.set()
            self.app.workers.cancel_group(self.app, "play")
            self.notify("Consultation cancelled; it is stored as cancelled.")
        if self.is_current:
            self.app.pop_screen()


class PlayScreen(SessionScreen):
    """The physician's consultation screen."""

    BINDINGS = [
        # Priority: Input has its own Ctrl+D; these must work while typing.
        Binding("ctrl+d", "diagnose", "Diagnose", priority=True),
        Binding("ctrl+t", "focus_order", "Order test", priority=True),
        Binding("ctrl+o", "focus_ask", "Ask patient", priority=True),
        # Out of the bar (it would push Quit off at 80 columns): the status line names it
        # whenever the case has images.
        Binding("ctrl+g", "images", "Images", show=False, priority=True),
        Binding("escape", "leave", "Leave"),
    ]
    HELP = ("Type a question and press Enter, or order tests (Ctrl+T) as a comma-separated "
            "list; PgUp/PgDn scroll the transcript while you type. Every question or test "
            "order is one turn. On your last turn the diagnosis form opens by itself: a "
            "question or order instead uses the last turn and the consultation ends without "
            "a diagnosis (as for a model doctor, who is told the same). A case with images shows "
            "them under the presentation; when some wait to be asked for, the status line "
            "says so and Ctrl+G (or typing REQUEST IMAGES) asks, which uses one turn. Ctrl+G "
            "then shows the images full size.")

    def __init__(self, case: Case, setup: PlaySetup, *, hidden: bool) -> None:
        super().__init__()
        self.case, self.setup, self.hidden = case, setup, hidden
        self.consultation_id = new_id("hum-")
        self.actions: asyncio.Queue[str | DiagnosisForm] = asyncio.Queue()
        self.turns_used = 0
        self.waiting = False
        self.finished = False
        self.cancel_event = asyncio.Event()
        self.started = 0.0  # set from the app's clock on mount
        self.outcome: Outcome | None = None
        self.last_turn = False  # the turn awaited now is the budget's last
        self.images: list[CaseImage] = []  # shown to the physician so far
        self.images_pending = 0  # more images the physician may ask for

    def compose(self) -> ComposeResult:
        """Status line, objective, transcript, inputs, footer."""
        yield Header()
        yield Static(id="play-status")
        yield Static(literal_block(self.case.objective), id="play-objective")
        yield Horizontal(id="play-images")
        yield TranscriptView(id="play-transcript")
        with Horizontal(id="play-inputs"):
            yield Input(placeholder="Ask the patient… (Enter)", id="ask")
            yield Button("Ask", id="ask-btn")
        with Horizontal(id="play-inputs-2", classes="play-inputs"):
            yield TestOrderInput(placeholder="Order tests, comma-separated (→ completes)",
                                 id="order")
            yield Button("Order", id="order-btn")
            yield Button("Diagnose…", id="diagnose-btn", variant="success")
        with VerticalScroll(id="play-reveal-box"):
            yield Static(id="play-reveal")
        yield KeyFooter()

    def on_mount(self) -> None:
        """Start the clock and the consultation (as a worker on the App)."""
        self.started = self.bedside.clock()
        self.query_one("#play-reveal-box").display = False
        self.query_one("#play-images").display = False
        self.set_interval(1.0, self.update_status)
        self.update_status()
        self.query_one("#ask", Input).focus()
        self.bedside.run_worker(self.consult(), group="play", exit_on_error=False,
                                name=f"play {self.consultation_id}")

    # -- status ---------------------------------------------------------------------------
    def update_status(self) -> None:
        """Turns used of the budget, elapsed time, then the case (or 'hidden').

        The budget and the clock come first so they are never the part cut off; the line
        wraps (the title may be long) rather than hiding anything.
        """
        if not self.is_attached:  # the engine's last call may come after the screen left
            return
        elapsed = int(self.bedside.clock() - self.started)
        case = "hidden until the end" if self.hidden and not self.finished else \
            f"{self.case.id} — {display_line(self.case.title)}"
        left = self.setup.budget - self.turns_used
        line = Text()
        line.append(f"Turn {self.turns_used}/{self.setup.budget}", style="bold")
        line.append(f" ({left} left)" if not self.finished else " (ended)")
        line.append(f" · {elapsed // 60:02d}:{elapsed % 60:02d}")
        if left == 1 and not self.finished:
            line.append(" · last turn: diagnose now (Ctrl+D)", style="bold red")
        if self.images_pending and not self.finished:
            n = self.images_pending
            line.append(f" · {n} image{'s' if n > 1 else ''} on request (Ctrl+G, one turn)",
                        style="bold")
        elif self.images:
            line.append(" · images full size: Ctrl+G")
        if not self.finished:
            line.append(" · your turn" if self.waiting else " · waiting for the reply…",
                        style="italic")
        line.append(" · Case: ", style="bold")
        line.append(sanitize(case))
        self.query_one("#play-status", Static).update(line)

    # -- the engine side ------------------------------------------------------------------
    async def next_action(self, state: Any = None, *_: Any, **__: Any) -> str | DiagnosisForm:
        """Awaited by the human doctor agent: the physician's next question, order or
        diagnosis. On the budget's last turn the diagnosis form opens by itself."""
        self.waiting = True
        self.started_turn = self.bedside.clock()
        self.last_turn = bool(getattr(state, "is_last", False))
        self.show_images(list(getattr(state, "images", ())),
                         int(getattr(state, "images_pending", 0)))
        self.update_status()
        if self.last_turn:
            self.announce_last_turn()
        try:
            return await self.actions.get()
        finally:
            self.waiting = False
            self.update_status()

    def show_images(self, images: list[CaseImage], pending: int) -> None:
        """Show the images the engine says the physician has been shown (when they
        change), under the presentation."""
        self.images_pending = pending
        if [i.number for i in images] == [i.number for i in self.images]:
            return
        self.images = images
        panel = self.query_one("#play-images", Horizontal)
        panel.remove_children()
        panel.display = bool(images)
        self.fit_images()
        if images:  # textual-image is loaded only when there is an image to draw
            renderer = load_renderer(self.app)
            panel.mount_all([CaseImageView(i, renderer) for i in images])

    def on_resize(self) -> None:
        """Keep the images panel small enough to leave the transcript room."""
        self.fit_images()

    def fit_images(self) -> None:
        """The panel's height: 11 rows on a tall screen, down to 4 (caption and thumbnail)
        at 24 lines; Ctrl+G shows the images full size."""
        self.query_one("#play-images").styles.height = max(4, min(11, self.size.height - 19))

    def action_images(self) -> None:
        """Ctrl+G: ask for the images that wait (after a yes: it uses a turn), else show
        those already shown full size."""
        if self.finished or (not self.images_pending and self.images):
            if self.images:
                self.app.push_screen(ImagesScreen(self.images, load_renderer(self.app)))
            return
        if not self.images_pending:
            self.notify("This case has no images.")
            return
        if not self.waiting:
            self.notify("Please wait for the answer.", severity="warning")
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._send(REQUEST_KEYWORD)

        n = self.images_pending
        self.app.push_screen(ConfirmScreen(
            f"Ask for the case's {n} image{'s' if n > 1 else ''}? It uses one turn.",
            yes="Ask", no="Not now"), answered)

    def announce_last_turn(self) -> None:
        """Offer the diagnosis form, which says it is the last turn (Esc keeps the turn for
        a question); if another dialog is open, say so in a message instead."""
        if self.is_current:
            self.action_diagnose()
        else:
            self.notify("This is your last turn: give your diagnosis now (Ctrl+D). A "
                        "question or a test order instead ends the consultation without one.",
                        title="Last turn", severity="warning", timeout=10)

    def on_engine_event(self, event: Event) -> None:
        """Show completed turns (and a model patient's reply as it streams); count turns."""
        view = self.query_one(TranscriptView)
        if isinstance(event, TurnCompleted):
            view.add_turn(event.turn)
            if str(event.turn.role) == "doctor" and event.turn.doctor_turn:
                self.turns_used = max(self.turns_used, event.turn.doctor_turn)
                self.update_status()
        elif isinstance(event, TurnStarted):
            view.end_stream()
        elif isinstance(event, TokenDelta):
            view.show_stream(str(event.role), view.stream_text + event.text)

    async def consult(self) -> None:
        """Run the consultation through the engine, then reveal the truth and verdict."""
        from core.usecases.play import run_human

        setup = self.setup
        try:
            await run_human(self.bedside.store, self.case, name=setup.name,
                            budget=setup.budget, patient=setup.patient,
                            examiner=setup.examiner, api_base=setup.api_base,
                            patient_bias=setup.patient_bias,
                            consultation_id=self.consultation_id, sink=ScreenSink(self),
                            next_action=self.next_action, cancel_event=self.cancel_event,
                            images=setup.images)
        except Exception as err:
            self.bedside.show_error(err)
        finally:
            if self.is_attached:
                self.reveal()

    def reveal(self) -> None:
        """The consultation is over: show the truth and the verdict from the database."""
        from tui.app.services import USER_ERRORS

        self.finished = True
        # The inputs go away (room for the transcript and the verdict at 80x24), and so do
        # their keys from the footer (check_action).
        for widget in self.query("#play-inputs, #play-inputs-2"):
            widget.display = False
        self.refresh_bindings()
        try:
            row = self.bedside.store.get_consultation(self.consultation_id)
        except USER_ERRORS:  # it never started (the error was shown): reveal nothing
            row = None
        if row is None:
            self.outcome = Outcome(end_reason="not started", status="not started")
        else:
            self.outcome = Outcome.of(row, self.case.truth.diagnosis)
        text = render_outcome(self.outcome)
        text.append("\nEscape: back to the case library", style="dim")
        self.query_one("#play-reveal", Static).update(text)
        self.query_one("#play-reveal-box").display = True
        self.update_status()

    # -- the physician side ---------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Once the consultation is over, only Leave (and the app's keys) remain."""
        if self.finished and action in ("diagnose", "focus_order", "focus_ask"):
            return False
        return True

    def _send(self, action: str | DiagnosisForm) -> bool:
        if self.finished:
            return False
        if not self.waiting:
            self.notify("Please wait for the answer.", severity="warning")
            return False
        self.actions.put_nowait(action)
        return True

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a field asks or orders."""
        if event.input.id == "ask":
            self.ask()
        elif event.input.id == "order":
            self.order()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Buttons do the same as Enter and Ctrl+D."""
        {"ask-btn": self.ask, "order-btn": self.order,
         "diagnose-btn": self.action_diagnose}.get(event.button.id or "", lambda: None)()

    def ask(self) -> None:
        """Send the question to the patient."""
        box = self.query_one("#ask", Input)
        if box.value.strip() and self._send(box.value.strip()):
            box.value = ""

    def order(self) -> None:
        """Order the test(s) typed."""
        box = self.query_one("#order", Input)
        if box.value.strip() and self._send("REQUEST TEST: " + box.value.strip()):
            box.value = ""

    def action_diagnose(self) -> None:
        """Open the diagnosis form; committing ends the consultation."""
        if self.finished:
            return

        def done(form: DiagnosisForm | None) -> None:
            if form is not None:
                self._send(form)

        self.app.push_screen(DiagnosisScreen(last_turn=self.last_turn), done)

    def action_focus_order(self) -> None:
        """Jump to the test order field."""
        self.query_one("#order", Input).focus()

    def action_focus_ask(self) -> None:
        """Jump to the question field."""
        self.query_one("#ask", Input).focus()
