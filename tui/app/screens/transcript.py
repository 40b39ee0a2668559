"""Transcript screen: one stored consultation with its outcome (end reason, verdict, truth).

Loads through the app's store; renders with tui.app.widgets.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, Static

from core.errors import BedsideError
from tui.app.screens.base import BedsideScreen
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.literal import sanitize
from tui.app.widgets.transcript_view import Outcome, TranscriptView, render_outcome


class TranscriptScreen(BedsideScreen):
    """Shows one consultation, read from the database."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back"),
                Binding("r", "reload", "Reload"),
                Binding("end", "bottom", "Go to end", show=False)]

    def __init__(self, consultation_id: str) -> None:
        super().__init__()
        self.consultation_id = consultation_id
        self.outcome: Outcome | None = None

    def compose(self) -> ComposeResult:
        """Title line, transcript, outcome."""
        yield Header()
        yield Static(id="transcript-title")
        yield TranscriptView(id="transcript")
        with VerticalScroll(id="outcome-box"):
            yield Static(id="outcome")
        yield KeyFooter()

    def on_mount(self) -> None:
        """Load from the database."""
        self.action_reload()

    def action_reload(self) -> None:
        """Read the consultation again (it may still be running)."""
        store = self.bedside.store
        try:
            row = store.get_consultation(self.consultation_id)
            transcript = store.get_transcript(self.consultation_id)
        except BedsideError as err:
            self.bedside.show_error(err)
            return
        truth, title = None, row.case_id
        try:
            case = store.get_case(row.case_id)
            truth, title = case.truth.diagnosis, f"{case.id} — {case.title}"
        except BedsideError:
            pass
        head = Text(sanitize(title), style="bold")
        head.append(sanitize(f"   doctor: {row.doctor or '?'}   status: {row.status}"),
                    style="dim")
        self.query_one("#transcript-title", Static).update(head)
        self.query_one(TranscriptView).set_turns(transcript.turns)
        self.outcome = Outcome.of(row, truth)
        self.query_one("#outcome", Static).update(render_outcome(self.outcome))

    def action_bottom(self) -> None:
        """Scroll to the last turn."""
        self.query_one(TranscriptView).scroll_end(animate=False)
