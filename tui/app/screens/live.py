"""Watch runs live: consultations started in the app (event sink) or by `bedside run` in
another terminal (polled from the shared database).

In-app runs are workers on the App, so they go on when this screen is closed. The screen
polls: the in-app registry every 0.1 s and the database every second; the table is re-filled
only when a row changed and the focused transcript only when its turn count changed, while
the streamed text of the turn in progress is updated on every tick (token deltas batched).

What the database can tell about a run started elsewhere is limited, and the screen says
so: completed turns (not tokens as they stream), the consultations started so far plus a
count of those still queued (from the run's stored plan), and no way to cancel it from
here (stop it in its terminal; `bedside run --resume RUN` finishes it later).

The database side reads through the app's store (`live_rows`, `run_progress`, the run's
stored plan through `core.usecases.runs.planned_size`).

Must not import at module level: core.engine, litellm.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Header, Static

from tui.app.screens.base import BedsideScreen
from tui.app.screens.forms_batch import BatchRequest, StartBatchScreen
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.literal import sanitize
from tui.app.widgets.tables import fill, selected_key
from tui.app.widgets.transcript_view import TranscriptView


COLUMNS = ("Consultation", "Case", "Doctor", "Status", "Verdict", "Turn", "Tokens", "Cost $")
STATUS_ORDER = ("running", "queued", "finished", "failed", "cancelled")
ELSEWHERE = ("Not started in this window (e.g. `bedside run` in another terminal): read from "
             "the database, so it shows completed turns only and cannot be cancelled here "
             "(Ctrl+C in its terminal stops it; `bedside run --resume RUN` finishes it later).")


def verdict_cell(row: dict[str, Any]) -> Text:
    """The verdict as the tables say it: correct, wrong, no diagnosis (counted wrong),
    undecided, or '—' until the consultation has finished."""
    if row["status"] != "finished":
        return Text("—", style="dim")
    if row.get("correct") is True:
        return Text("correct", style="green")
    if row.get("correct") is False:
        return Text("wrong", style="red")
    if not (row.get("diagnosis") or "").strip():
        return Text("no diagnosis", style="red")
    return Text("undecided", style="yellow")


def doctor_cell(row: dict[str, Any]) -> str:
    """The doctor as the table shows it: one of a collaboration's doctors, playing its own
    consultation, with its letter ('A: openai/x')."""
    doctor = row.get("doctor") or "?"
    key = row.get("config_key") or ""
    if row.get("origin") == "collaborator" and "~" in key:
        return f"{key.rsplit('~', 1)[1]}: {doctor}"
    return doctor


def status_counts(rows: list[dict[str, Any]]) -> dict[str, int]:
    """How many rows have each status."""
    counts: dict[str, int] = {}
    for r in rows:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    return counts


def describe_counts(counts: dict[str, int]) -> str:
    """'3 running · 11 queued · 6 finished' (fixed order, then any other status)."""
    keys = [s for s in STATUS_ORDER if s in counts] + sorted(set(counts) - set(STATUS_ORDER))
    return " · ".join(f"{counts[s]} {s}" for s in keys if counts[s])


class LiveScreen(BedsideScreen):
    """Live consultations with the focused one streaming below."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("s", "start", "Start batch"),
        Binding("c", "cancel", "Cancel"),
        Binding("x", "cancel_all", "Cancel all"),
        Binding("a", "attach", "Attach"),
    ]
    HELP = ("Runs started here (s) stream token by token; c cancels the selected consultation, "
            "x every one still queued or running; runs go on when you leave this screen. "
            "a attaches to the newest run in the database (also Enter on the Runs tab at "
            "home). " + ELSEWHERE)

    def __init__(self, run_id: str | None = None) -> None:
        super().__init__()
        self.run_id = run_id
        self._table_seen: tuple[Any, ...] | None = None
        self._db_stamp: tuple[int, int, int] | None = None  # (consultations, turns, ended)
        self._focus_seen: tuple[Any, ...] = ()
        self.focused_id: str | None = None
        self.shown_rows: list[dict[str, Any]] = []
        #: While a batch started here has no run yet: the newest run before it (a sentinel
        #: when none), to attach to the new one when it appears.
        self._follow: str | None = None

    def compose(self) -> ComposeResult:
        """Status line, table, streaming transcript."""
        yield Header()
        yield Static(id="live-status")
        yield DataTable(id="live-table", cursor_type="row", zebra_stripes=True)
        yield TranscriptView(id="live-stream")
        yield KeyFooter()

    def on_mount(self) -> None:
        """Start polling."""
        self.poll_db()
        self.set_interval(0.1, self.poll_registry)
        self.set_interval(1.0, self.poll_db)

    # -- data -----------------------------------------------------------------------------
    def _in_app(self) -> list[Any]:
        """Registry items shown: those of the attached run, or every one started here."""
        items = self.bedside.live.items.values()
        return [i for i in items if self.run_id is None or i.run_id == self.run_id]

    def rows(self) -> list[dict[str, Any]]:
        """In-app items (fresh from the sink), then the attached run's rows from the database."""
        out: dict[str, dict[str, Any]] = {}
        for item in self._in_app():
            out[item.consultation_id] = {
                "id": item.consultation_id, "case_id": item.case_id, "doctor": item.doctor,
                "status": item.status, "doctor_turns": item.doctor_turn,
                "tokens": item.tokens, "cost_usd": item.cost,
                "diagnosis": item.state.diagnosis, "correct": item.state.correct}
        if self.run_id:
            for row in self.bedside.store.live_rows(self.run_id):
                out.setdefault(row.id, row.model_dump())
        return list(out.values())

    def poll_registry(self) -> None:
        """Re-render from the in-app registry (cheap when nothing changed); a batch just
        started here is attached as soon as its run exists."""
        newest = self.bedside.live.newest_run
        if self._follow is not None and newest not in (None, self._follow):
            self._follow = None
            self.run_id = newest
            self._table_seen = None
            self.poll_db()
            return
        self.render_live()

    def poll_db(self) -> None:
        """Re-read the attached run's counts from the database, then re-render."""
        if self.run_id:
            got = self.bedside.store.run_progress(self.run_id)
            self._db_stamp = (got.consultations, got.turns, got.finished)
        self.render_live()

    def render_live(self) -> None:
        """Table and status when a row changed; the focused transcript (and its stream)."""
        rows = self.rows()
        stamp = (self.run_id, self._db_stamp, tuple(tuple(r.values()) for r in rows))
        if stamp != self._table_seen:
            self._table_seen = stamp
            self.shown_rows = rows
            fill(self.query_one("#live-table", DataTable), COLUMNS,
                 ((r["id"], (r["id"][-8:], r["case_id"], doctor_cell(r), r["status"],
                             verdict_cell(r), r["doctor_turns"], r["tokens"] or 0,
                             Text(f"{r['cost_usd'] or 0.0:.4f}", justify="right")))
                  for r in rows))
            self.query_one("#live-status", Static).update(self.status_text(rows))
        self.render_focused()

    def status_text(self, rows: list[dict[str, Any]]) -> Text:
        """Which run, counts by status (queued ones of a run elsewhere from its plan), limits."""
        counts = status_counts(rows)
        if self.run_id is None:
            head = Text("Runs started here: ", style="bold")
            head.append(describe_counts(counts) or
                        "nothing yet — s starts a batch, a attaches to the newest run")
            return head
        from core.usecases.runs import planned_size

        run = self.bedside.store.find_run(self.run_id)
        planned = planned_size(run)
        state = (run.status if run is not None else None) or "unknown"
        elsewhere = not any(True for _ in self._in_app())
        if elsewhere and planned is not None and planned > len(rows):
            # Not yet started: queued while the run goes on, else left for a resume.
            counts["queued" if state == "running" else "not started"] = planned - len(rows)
        head = Text(f"Run {sanitize(self.run_id)} ({sanitize(state)}): ", style="bold")
        head.append(describe_counts(counts) or "no consultations yet")
        if planned is not None:
            head.append(f" — {planned} planned")
        if elsewhere:
            head.append("\nStarted outside this window: read from the database (completed "
                        "turns only); stop it in its own terminal. F1: more.", style="dim")
        return head

    def render_focused(self) -> None:
        """Show the selected consultation: streamed (in-app) or turn by turn (database)."""
        cid = selected_key(self.query_one("#live-table", DataTable))
        view = self.query_one(TranscriptView)
        item = self.bedside.live.items.get(cid or "")
        if item is not None:
            stamp: tuple[Any, ...] = (cid, len(item.turns))
            if stamp != self._focus_seen:
                view.set_turns(item.turns)
                self._focus_seen = stamp
            if item.stream_text and item.stream_text != view.stream_text:
                view.show_stream(item.stream_role or "doctor", item.stream_text)
        elif cid is not None:
            store = self.bedside.store
            n = store.turn_count(cid)
            if (cid, n) != self._focus_seen:
                view.set_turns(store.get_transcript(cid).turns)
                self._focus_seen = (cid, n)
        self.focused_id = cid

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Another consultation is focused."""
        if event.row_key.value != self.focused_id:
            self.render_focused()

    # -- actions --------------------------------------------------------------------------
    def action_start(self) -> None:
        """Ask for cases, doctors and concurrency, then start a batch on the App."""

        def start(req: BatchRequest | None) -> None:
            if req is not None:
                self._follow = self.bedside.live.newest_run or "\x00none"
                self.bedside.start_batch(req)

        self.app.push_screen(StartBatchScreen(), start)

    def action_cancel(self) -> None:
        """Cancel the selected consultation (in-app runs only)."""
        cid = selected_key(self.query_one("#live-table", DataTable))
        if cid is None:
            self.notify("Nothing selected.", severity="warning")
            return
        if cid not in self.bedside.live.items:
            self.notify("That consultation belongs to a run started in another terminal; "
                        "stop it there with Ctrl+C.", severity="warning")
        elif self.bedside.live.cancel(cid):
            self.notify("Cancelling…")
        else:
            self.notify("That consultation has already ended.")

    def action_cancel_all(self) -> None:
        """Cancel every consultation of the shown runs still queued or running here."""
        items = self._in_app()
        n = sum(self.bedside.live.cancel(i.consultation_id) for i in items)
        if n:
            self.notify(f"Cancelling {n} consultation(s)…")
        elif self.run_id and not items:
            self.notify("This run was started in another terminal; stop it there with Ctrl+C.",
                        severity="warning")
        else:
            self.notify("Nothing to cancel.")

    def action_attach(self) -> None:
        """Follow the most recent run in the database (e.g. one started by `bedside run`)."""
        runs = self.bedside.store.list_runs()
        if not runs:
            self.notify("No runs in this database yet.", severity="warning")
            return
        self.run_id = runs[0].id
        self._table_seen = None
        self.poll_db()
