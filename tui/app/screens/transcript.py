"""Transcript screen: one stored consultation with its outcome (end reason, verdict, truth).

A collaboration's joint consultation says under its title who its doctors were and how the
conference went (rounds, consensus); `o` opens each doctor's own consultation in turn.
Loads through the app's store; renders with tui.app.widgets.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Header, Static

from core.collaboration import Member, Summary, summary_of
from core.errors import BedsideError
from tui.app.screens.base import BedsideScreen
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.literal import sanitize
from tui.app.widgets.transcript_view import Outcome, TranscriptView, render_outcome


class TranscriptScreen(BedsideScreen):
    """Shows one consultation, read from the database."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back"),
                Binding("r", "reload", "Reload"),
                Binding("o", "own", "Doctors' own"),
                Binding("end", "bottom", "Go to end", show=False)]

    def __init__(self, consultation_id: str) -> None:
        super().__init__()
        self.consultation_id = consultation_id
        self.outcome: Outcome | None = None
        self.members: list[Member] = []  # a collaboration's doctors
        self._next_member = 0

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
        summary = summary_of(row.meta)
        self.members = summary.doctors if summary else []
        if summary is not None:
            head.append("\n" + sanitize(conference_line(summary)), style="dim")
        self.query_one("#transcript-title", Static).update(head)
        self.query_one(TranscriptView).set_turns(transcript.turns)
        self.outcome = Outcome.of(row, truth)
        self.query_one("#outcome", Static).update(render_outcome(self.outcome))

    def action_own(self) -> None:
        """Open the next doctor's own consultation (A, then B, …) of a collaboration."""
        linked = [m for m in self.members if m.consultation_id]
        if not self.members:
            self.notify("Not a collaboration: o opens the doctors' own consultations of a "
                        "collaboration (bedside run --collaborate …).")
            return
        if not linked:
            self.notify("No doctor's own consultation is linked (import their dialogues, "
                        "then the collaboration file again).", severity="warning")
            return
        member = linked[self._next_member % len(linked)]
        self._next_member += 1
        self.app.push_screen(TranscriptScreen(str(member.consultation_id)))
        self.notify(sanitize(f"Doctor {member.label}'s own consultation ({member.doctor})"
                             + ("; o on the collaboration opens the next" if len(linked) > 1
                                else "")))

    def action_bottom(self) -> None:
        """Scroll to the last turn."""
        self.query_one(TranscriptView).scroll_end(animate=False)


def conference_line(s: Summary) -> str:
    """How a collaboration went, in one line: its doctors and the conference's end."""
    doctors = ", ".join(f"{m.label} {m.doctor}" + ("" if m.consultation_id else " (not linked)")
                        for m in s.doctors)
    if s.consensus:
        end = ("agreed at once" if not s.consensus_round
               else f"consensus after round {s.consensus_round}")
    elif s.consensus is None:
        end = f"{s.rounds} rounds (consensus not said)"
    else:
        end = f"no consensus after {s.rounds} rounds"
    limit = f" of {s.max_rounds}" if s.max_rounds and s.consensus else ""
    dr = {True: "", False: ", without dispute resolution", None: ""}[s.dispute_resolution]
    return f"collaboration: {doctors} — {end}{limit}{dr}; o: each doctor's own consultation"
