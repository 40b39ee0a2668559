"""Watch runs live: consultations started in the app (event sink) or by `bedside run` in
another terminal (polled from the shared database).

In-app runs are workers on the App, so they go on when this screen is closed. The screen
polls: the in-app registry every 0.1 s (token deltas batched per tick) and the database
every second; tables and the transcript re-render only when a count changed.

Must not import at module level: core.engine, litellm.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from tui.screens import queries
from tui.screens.forms_batch import BatchRequest, StartBatchScreen
from tui.widgets.tables import fill, selected_key
from tui.widgets.transcript_view import TranscriptView

if TYPE_CHECKING:
    from tui.app import BedsideApp

COLUMNS = ("Consultation", "Case", "Doctor", "Status", "Turn", "Tokens", "Cost $")


class LiveScreen(Screen[None]):
    """Live consultations with the focused one streaming below."""

    BINDINGS = [
        Binding("s", "start", "Start batch"),
        Binding("c", "cancel", "Cancel selected"),
        Binding("x", "cancel_all", "Cancel all"),
        Binding("a", "attach", "Attach latest run"),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    def __init__(self, run_id: str | None = None) -> None:
        super().__init__()
        self.run_id = run_id
        self._seen: tuple[Any, ...] = ()
        self._db_stamp: tuple[int, int, int] | None = None
        self._focus_seen: tuple[Any, ...] = ()
        self.focused_id: str | None = None

    @property
    def bedside(self) -> BedsideApp:
        """The app, typed."""
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        """Status line, table, streaming transcript."""
        yield Header()
        yield Static(id="live-status")
        yield DataTable(id="live-table", cursor_type="row", zebra_stripes=True)
        yield TranscriptView(id="live-stream")
        yield Footer()

    def on_mount(self) -> None:
        """Start polling."""
        self.poll_db()
        self.set_interval(0.1, self.poll_registry)
        self.set_interval(1.0, self.poll_db)

    # -- data -----------------------------------------------------------------------------
    def rows(self) -> list[dict[str, Any]]:
        """In-app items first (fresh from the sink), then attached rows from the database."""
        out: dict[str, dict[str, Any]] = {}
        for item in self.bedside.live.items.values():
            out[item.consultation_id] = {
                "id": item.consultation_id, "case_id": item.case_id, "doctor": item.doctor,
                "status": item.status, "doctor_turns": item.doctor_turn,
                "tokens": item.tokens, "cost_usd": item.cost}
        if self.run_id:
            for row in queries.live_rows(self.bedside.db, self.run_id):
                out.setdefault(row["id"], row)
        return list(out.values())

    def poll_registry(self) -> None:
        """Re-render from the in-app registry when it changed."""
        self._maybe_render()

    def poll_db(self) -> None:
        """Re-render from the database when its counts changed (attached runs)."""
        if self.run_id:
            self._db_stamp = queries.progress_counts(self.bedside.db, self.run_id)
        self._maybe_render()

    def _maybe_render(self) -> None:
        stamp = (self.bedside.live.version, self._db_stamp, self.run_id)
        if stamp == self._seen:
            return
        self._seen = stamp
        rows = self.rows()
        table = self.query_one("#live-table", DataTable)
        fill(table, COLUMNS, ((r["id"], (r["id"][-8:], r["case_id"], r["doctor"], r["status"],
                                         r["doctor_turns"], r["tokens"] or 0,
                                         r["cost_usd"] or 0.0)) for r in rows))
        counts: dict[str, int] = {}
        for r in rows:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        status = Text(f"Run: {self.run_id or 'started here'}   ", style="bold")
        status.append("   ".join(f"{n} {s}" for s, n in sorted(counts.items())) or
                      "nothing running — press s to start a batch")
        self.query_one("#live-status", Static).update(status)
        self.render_focused()

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
            if item.stream_text:
                view.show_stream(item.stream_role or "doctor", item.stream_text)
        elif cid is not None:
            n = self.bedside.db["turns"].count_where("consultation_id = ?", [cid])
            if (cid, n) != self._focus_seen:
                from db.consultations import get_transcript

                view.set_turns(get_transcript(self.bedside.db, cid).turns)
                self._focus_seen = (cid, n)
        self.focused_id = cid

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Another consultation is focused."""
        if event.row_key.value != self.focused_id:
            self.render_focused()

    # -- actions --------------------------------------------------------------------------
    def action_start(self) -> None:
        """Ask for cases, models and concurrency, then start a batch on the App."""

        def start(req: BatchRequest | None) -> None:
            if req is not None:
                self.bedside.start_batch(req)

        self.app.push_screen(StartBatchScreen(), start)

    def action_cancel(self) -> None:
        """Cancel the selected consultation (in-app runs only)."""
        cid = selected_key(self.query_one("#live-table", DataTable))
        if cid is None:
            return
        if cid not in self.bedside.live.items:
            self.notify("That run belongs to another terminal; stop it there with Ctrl+C.",
                        severity="warning")
        elif self.bedside.live.cancel(cid):
            self.notify("Cancelling…")

    def action_cancel_all(self) -> None:
        """Cancel every consultation started in this app."""
        n = self.bedside.live.cancel_all()
        self.notify(f"Cancelling {n} consultation(s)…" if n else "Nothing to cancel.")

    def action_attach(self) -> None:
        """Follow the most recent run in the database (e.g. one started by `bedside run`)."""
        runs = queries.run_rows(self.bedside.db)
        if not runs:
            self.notify("No runs in this database yet.", severity="warning")
            return
        self.run_id = runs[0]["id"]
        self._seen = ()
        self.poll_db()
