"""The transcript view: one block per turn, each role in its own style, results as tables.

Attributes down: a screen hands turns (core.transcript.Turn) and an outcome to this widget;
it never reads the database or calls a model. Every piece of turn text is untrusted and is
rendered through `tui.app.widgets.literal` (never parsed as markup).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.widgets import Static

from core.collaboration import speaker
from core.transcript import Turn
from tui.app.widgets.bidi import display_line, literal_block
from tui.app.widgets.literal import literal, sanitize

# A tool turn (the doctor's reasoning, search, reflection or notebook) is the doctor's
# alone: labelled apart, so a reader sees at once what the patient never heard.
ROLE_LABELS = {"doctor": "Doctor", "patient": "Patient", "examiner": "Examiner",
               "moderator": "Moderator", "system": "System", "tool": "Doctor's tool",
               "host": "Host"}
ROLE_STYLES = {"doctor": "bold #5fafff", "patient": "bold #87d787", "examiner": "bold #ffaf5f",
               "moderator": "bold #d787ff", "system": "bold #a8a8a8", "tool": "bold #5fafaf",
               "host": "bold #d7af87"}
#: Whom each role speaks to unless the turn says otherwise (the header names any other
#: addressee: a patient relaying a test request to the examiner).
_USUAL = {("doctor", "patient"), ("doctor", "examiner"), ("doctor", "host"),
          ("patient", "doctor"), ("examiner", "doctor")}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def result_rows(content: str) -> list[tuple[str, str]]:
    """Split an examiner's report into (test, result) rows; [] when it is not line-structured.

    Each line `Name: value` becomes a row; indentation (panel → analyte) is kept in the name.
    A line with no `:` followed by more indented lines is a panel heading (a row of its own,
    with no value: "Complete blood count" above its analytes), never the end of the value
    above it; any other such line continues the previous value. A report with no
    `name: value` line is not a table.
    """
    lines = [raw for raw in content.splitlines() if raw.strip()]
    rows: list[tuple[str, str]] = []
    for i, raw in enumerate(lines):
        name, sep, value = raw.partition(":")
        if not sep or len(name.strip()) > 60:
            heading = i + 1 < len(lines) and _indent(lines[i + 1]) > _indent(raw) \
                and len(raw.strip()) <= 60
            if heading:
                rows.append((" " * _indent(raw) + raw.strip(" -*•"), ""))
                continue
            if rows:  # a continuation line of the previous value
                rows[-1] = (rows[-1][0], f"{rows[-1][1]} {raw.strip()}".strip())
                continue
            return []
        rows.append((" " * _indent(name) + name.strip(" -*•"), value.strip()))
    return rows if any(value for _, value in rows) else []


def result_table(content: str) -> Table | None:
    """A two-column table of test results, or None when the text has no such structure."""
    rows = result_rows(content)
    if not rows:
        return None
    table = Table(show_header=True, header_style="bold", expand=True, show_edge=False,
                  pad_edge=False)
    table.add_column("Test", ratio=1, overflow="fold")
    table.add_column("Result", ratio=2, overflow="fold")
    for name, value in rows:
        # A panel heading (no value of its own) stands out from the analytes under it.
        table.add_row(literal_block(name, "bold") if not value else literal_block(name),
                      literal_block(value))
    return table


def turn_header(turn: Turn) -> Text:
    """The one-line heading of a turn: who speaks ('Doctor A' for one of collaborating
    doctors), to whom when not the usual one, doctor-turn number or a collaboration's
    round, kind, latency."""
    role = str(turn.role)
    who = speaker(role, turn.meta) if role in ROLE_LABELS else role.title()
    head = literal(who, style=ROLE_STYLES.get(role, "bold"))
    bits = []
    to = str(turn.addressee) if turn.addressee else None
    if to and (role, to) not in _USUAL:
        bits.append(f"to the {to}")
    if turn.doctor_turn:
        bits.append(f"turn {turn.doctor_turn}")
    if isinstance(turn.meta.get("round"), int) and turn.meta["round"]:
        bits.append(f"round {turn.meta['round']}")
    if turn.kind and turn.kind != "message":
        bits.append(turn.kind.replace("_", " "))
    if turn.tests:
        bits.append("tests: " + ", ".join(sanitize(t) for t in turn.tests))
    if turn.latency_ms is not None:
        bits.append(f"{turn.latency_ms / 1000:.1f} s")
    if bits:
        head.append(display_line(sanitize("  " + " · ".join(bits))), style="dim")
    return head


def render_turn(turn: Turn) -> RenderableType:
    """Heading plus body; examiner results become a table when they are line-structured."""
    body: RenderableType | None = None
    if str(turn.role) == "examiner" and turn.kind in ("result", "message", "answer"):
        body = result_table(turn.content)
    return Group(turn_header(turn), body if body is not None else literal_block(turn.content))


#: Why a consultation ended, in words (the stored reason follows in brackets).
END_WORDS = {"diagnosis": "a diagnosis was given",
             "budget": "the turn budget ran out before a diagnosis",
             "cancelled": "cancelled", "error": "an error stopped it",
             "not started": "it never started"}


@dataclass
class Outcome:
    """How a consultation ended, as shown below its transcript."""

    end_reason: str | None = None
    diagnosis: str | None = None
    correct: bool | None = None
    truth: str | None = None
    status: str | None = None
    error: str | None = None
    #: The rest of the doctor's answer (a physician's diagnosis form, a model's report).
    differential: list[str] = field(default_factory=list)
    rationale: str | None = None
    treatment: str | None = None

    @classmethod
    def of(cls, row: Any, truth: str | None) -> Outcome:
        """The outcome of a stored consultation (a `ConsultationSummary`)."""
        report = row.report
        return cls(end_reason=row.end_reason, diagnosis=row.diagnosis, correct=row.correct,
                   truth=truth, status=row.status, error=row.error,
                   differential=list(report.differential) if report else [],
                   rationale=report.rationale if report else None,
                   treatment=report.treatment_plan if report else None)


def _ended(o: Outcome) -> str:
    reason = o.end_reason or o.status or "in progress"
    words = END_WORDS.get(reason)
    return f"{words} ({reason})" if words and words != reason else sanitize(reason)


def render_outcome(o: Outcome) -> Text:
    """The end reason, the diagnosis (with the differential, rationale and treatment plan
    when there are any) and the verdict, all literal."""
    out = Text()
    out.append("Ended: ", style="bold")
    out.append(_ended(o))
    if o.error and o.error != o.end_reason:
        out.append("  (" + sanitize(o.error) + ")", style="italic")
    out.append("\nDiagnosis: ", style="bold")
    out.append(display_line(sanitize(o.diagnosis)) or "none given")
    if o.truth:
        out.append("\nTruth: ", style="bold")
        out.append(display_line(sanitize(o.truth)))
    out.append("\nVerdict: ", style="bold")
    text, style = verdict_words(o)
    out.append(text, style=style)
    # The rest of the answer after the verdict, so a small screen shows the verdict first.
    for label, value in (("Differential", "; ".join(o.differential)),
                         ("Rationale", o.rationale), ("Treatment plan", o.treatment)):
        if value and value.strip():
            out.append(f"\n{label}: ", style="bold")
            out.append(display_line(sanitize(value.strip())))
    return out


def verdict_words(o: Outcome) -> tuple[str, str]:
    """The verdict as the results table scores it, and its style ('correct' and 'wrong', the
    words of every table).

    Only finished consultations are scored; among them no diagnosis counts as wrong, and a
    diagnosis no moderator could judge is 'undecided' (counted apart from the accuracy).
    """
    if o.correct is True:
        return "correct", "bold green"
    if o.correct is False:
        return "wrong", "bold red"
    if o.status in (None, "running"):
        return "in progress", "dim"
    if o.status != "finished":
        return f"not scored ({sanitize(o.status)})", "bold yellow"
    if not (o.diagnosis or "").strip():
        return "no diagnosis (counts as wrong)", "bold red"
    return "undecided (no moderator could judge the diagnosis)", "bold yellow"


class TurnBlock(Static):
    """One turn of the transcript."""

    def __init__(self, turn: Turn) -> None:
        super().__init__(render_turn(turn), classes=f"turn role-{turn.role}")
        self.turn = turn


class TranscriptView(VerticalScroll):
    """A scrolling transcript; follows new turns only while the reader is at the bottom."""

    DEFAULT_CSS = """
    TranscriptView { height: 1fr; }
    """

    def __init__(self, turns: list[Turn] | None = None, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._initial = list(turns or [])
        self._streaming: Static | None = None
        self._stream_text = ""

    def on_mount(self) -> None:
        """Show the turns given at construction."""
        if self._initial:
            self.mount_all([TurnBlock(t) for t in self._initial])

    @property
    def stream_text(self) -> str:
        """The text of the turn in progress shown so far ('' when none)."""
        return self._stream_text

    @property
    def turn_count(self) -> int:
        """How many completed turns are shown."""
        return len(self.query(TurnBlock))

    def _at_bottom(self) -> bool:
        return self.scroll_y >= self.max_scroll_y - 1

    def set_turns(self, turns: list[Turn]) -> None:
        """Replace everything shown by these turns."""
        self.remove_children()
        self._streaming = None
        self.mount_all([TurnBlock(t) for t in turns])
        self.call_after_refresh(self.scroll_end, animate=False)

    def add_turn(self, turn: Turn) -> None:
        """Append a completed turn (replacing any streamed text for it)."""
        follow = self._at_bottom()
        self.end_stream()
        self.mount(TurnBlock(turn))
        if follow:
            self.call_after_refresh(self.scroll_end, animate=False)

    def show_stream(self, role: str, text: str) -> None:
        """Show the text streamed so far of the turn in progress (created on first call)."""
        follow = self._at_bottom()
        if self._streaming is None:
            self._streaming = Static(classes=f"turn streaming role-{role}")
            self.mount(self._streaming)
        self._stream_text = text
        head = literal(ROLE_LABELS.get(role, role) + " …", style=ROLE_STYLES.get(role, "bold"))
        self._streaming.update(Group(head, literal_block(text)))
        if follow:
            self.call_after_refresh(self.scroll_end, animate=False)

    def end_stream(self) -> None:
        """Drop the in-progress block (its completed turn is about to be added)."""
        if self._streaming is not None:
            self._streaming.remove()
            self._streaming = None
            self._stream_text = ""
