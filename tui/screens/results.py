"""Results screen: the table of `bedside results` (accuracy with 95 % CI and every metric),
grouped by model, case source, specialty or language; human physicians (`human:NAME`),
models and scripted doctors in rows side by side.

The work (computing missing offline metrics, aggregating) runs in a thread worker on its
own SQLite connection, because a connection belongs to the thread that opened it; the
table is filled back on the event loop with `call_from_thread`.

Must not import: core.engine, litellm.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Label, Select, Static

from db.metrics import GROUPINGS
# One source of truth for the columns: the same cells as the CLI's text table.
from tui.cmd_results import _TEXT_COLUMNS, _cell, _derived
from tui.widgets.literal import literal

if TYPE_CHECKING:
    from tui.app import BedsideApp

KIND_STYLE = {"human": "bold #87d787", "model": "#5fafff", "scripted": "dim"}
FOOTNOTE = ("ACC counts no-diagnosis consultations as wrong; 95% CI is Wilson's. REPORT is "
            "0-100 with a bootstrap 95% interval. PATIENT c/f/a: confidence / compliance / "
            "would consult again.")


def columns(by: str) -> list[tuple[str, str, str]]:
    """(field, header, format) of every column when grouping by `by`."""
    return [(by, by.upper(), "s"), *_TEXT_COLUMNS]


def row_cells(row: dict[str, Any], by: str) -> list[Text]:
    """The cells of one results row, formatted as the CLI formats them."""
    derived = _derived(row)
    cells = []
    for field, _, fmt in columns(by):
        text = _cell(derived.get(field), fmt)
        if field == "doctor_kind":
            cells.append(Text(text, style=KIND_STYLE.get(text, "")))
        elif fmt == "s":
            cells.append(literal(text))  # model labels are user-supplied text
        else:
            cells.append(Text(text, justify="right"))
    return cells


def load_results(db_path: Any, by: str) -> list[dict[str, Any]]:
    """Compute missing offline metrics, then aggregate; opens (and closes) its own
    connection so it can run in any thread."""
    from db.connection import open_db
    from db.metrics import compute_offline, results_table

    db = open_db(db_path)
    try:
        compute_offline(db)
        return results_table(db, by=by, run_id=None)
    finally:
        db.conn.close()


class ResultsScreen(Screen[None]):
    """The results table with a grouping selector."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back"),
                Binding("g", "next_grouping", "Next grouping"),
                Binding("r", "reload", "Recompute")]

    def __init__(self, by: str = "model") -> None:
        super().__init__()
        self.by = by
        #: The rows shown (dicts of `db.metrics.results_table`); None until first loaded.
        self.rows: list[dict[str, Any]] | None = None
        #: The grouping of `rows`.
        self.rows_by: str | None = None

    @property
    def bedside(self) -> BedsideApp:
        """The app, typed."""
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        """Grouping selector, status line, the table, the footnote."""
        yield Header()
        with Horizontal(id="results-bar"):
            yield Label("Group by ")
            yield Select([(Text(g), g) for g in GROUPINGS], value=self.by, allow_blank=False,
                         id="results-by", compact=True)
            yield Static(Text("Loading…"), id="results-status")
        yield DataTable(id="results-table", cursor_type="row", zebra_stripes=True)
        yield Static(Text(FOOTNOTE), classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        """Start the first load."""
        self.query_one("#results-table", DataTable).focus()
        self.action_reload()

    def on_select_changed(self, event: Select.Changed) -> None:
        """A new grouping was chosen."""
        if event.select.id == "results-by" and isinstance(event.value, str) \
                and event.value != self.by:
            self.by = event.value
            self.action_reload()

    def action_next_grouping(self) -> None:
        """Cycle model → source → specialty → language."""
        nxt = GROUPINGS[(GROUPINGS.index(self.by) + 1) % len(GROUPINGS)]
        self.query_one("#results-by", Select).value = nxt  # posts Select.Changed → reload

    def action_reload(self) -> None:
        """Recompute and show the table for the current grouping."""
        self.query_one("#results-status", Static).update(Text("Computing…"))
        self.compute(self.by, self.bedside.db_path)

    @work(thread=True, exclusive=True, group="results", exit_on_error=False)
    def compute(self, by: str, db_path: Any) -> None:
        """Thread worker: DB work on its own connection; widgets only via call_from_thread."""
        try:
            rows = load_results(db_path, by)
        except Exception as err:  # shown as one line; the app logs unexpected ones
            self.app.call_from_thread(self._failed, err)
            return
        self.app.call_from_thread(self.show_rows, rows, by)

    def _failed(self, err: BaseException) -> None:
        self.query_one("#results-status", Static).update(Text("Could not compute results."))
        self.bedside.show_error(err)

    def show_rows(self, rows: list[dict[str, Any]], by: str) -> None:
        """Fill the table (on the event loop); stale results of another grouping are dropped."""
        if by != self.by:
            return
        self.rows, self.rows_by = rows, by
        table = self.query_one("#results-table", DataTable)
        table.clear(columns=True)
        table.add_columns(*(header for _, header, _ in columns(by)))
        for i, row in enumerate(rows):
            table.add_row(*row_cells(row, by), key=f"{i}:{row.get(by)}:{row['doctor_kind']}")
        humans = sum(r["doctor_kind"] == "human" for r in rows)
        status = (f"{len(rows)} row{'s' * (len(rows) != 1)} by {by} · {humans} human, "
                  f"{len(rows) - humans} model/scripted" if rows else
                  "No consultations yet: run a batch (w) or play a case (p) first.")
        self.query_one("#results-status", Static).update(Text(status))

