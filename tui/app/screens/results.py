"""Results screen: the table of `bedside results` (accuracy with 95 % CI and every metric),
grouped by model, case source, specialty, language or any experimental factor, one row per
doctor and settings within a group — human physicians (`human:NAME`), models and scripted
doctors side by side, one-step (upper-bound) rows apart. Below it, the consultations of the
highlighted row and the metrics of the highlighted consultation with the reason of each
undefined one; or (`c`) the chart of `bedside results --plot`: accuracy with its interval
per row of the table.

The work (computing missing or stale offline metrics, aggregating) runs in a thread worker
on its own SQLite connection, because a connection belongs to the thread that opened it;
the tables are filled back on the event loop with `call_from_thread`. Every text that came
from a user or a model (doctor labels, diagnoses) is rendered literally.
"""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Header, Label, Select, Static

from core.factors import grouping_keys
from core.metrics.names import ALL_METRICS, public_name
# One source of truth for the columns: the same cells as the CLI's text tables.
from tui.app.screens.base import BedsideScreen
from tui.text.results_table import CONSULTATION_COLUMNS, FOOTNOTE, cell, derived, table_columns
from tui.app.widgets.accuracy_chart import AccuracyChart
from tui.app.widgets.bidi import display_line
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.literal import literal

#: What the table can be grouped by: the keys of `bedside results --by`.
GROUPINGS = grouping_keys()
KIND_STYLE = {"human": "bold #87d787", "model": "#5fafff", "scripted": "dim"}
_LITERAL_FIELDS = {"model", "doctor", "source", "specialty", "language", "consultation_id",
                   "case_id", "end_reason"}


def columns(by: str) -> list[tuple[str, str, str]]:
    """(field, header, format) of every column when grouping by `by`."""
    return table_columns(by)


def _cells(row: dict[str, Any], cols: list[tuple[str, str, str]]) -> list[Text]:
    out = []
    for field, _, fmt in cols:
        text = cell(row.get(field), fmt)
        if field == "doctor_kind":
            out.append(Text(text, style=KIND_STYLE.get(text, "")))
        elif fmt == "s" or field in _LITERAL_FIELDS:
            # Labels and ids are user-supplied text; a Persian diagnosis read backwards
            # (letters in stored order) until put in display order.
            out.append(literal(display_line(text)))
        else:
            out.append(Text(text, justify="right"))
    return out


def row_cells(row: dict[str, Any], by: str) -> list[Text]:
    """The cells of one results row, formatted as the CLI formats them."""
    return _cells(derived(row), columns(by))


def members(row: dict[str, Any], by: str,
            consultations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The consultations behind one results row (same doctor, group and settings)."""
    return [c for c in consultations if c["doctor"] == row["doctor"]
            and (c.get("settings") or "") == (row.get("settings") or "")
            and (by == "model" or (c.get(by) or "unknown") == row[by])]


def split_reasons(text: str | None) -> dict[str, str]:
    """'name: reason; name: reason' (a consultation row's `reasons`) → {name: reason}."""
    names = "|".join(map(re.escape, ALL_METRICS))
    parts = re.split(rf"(?:^|; )({names}): ", text or "")
    return dict(zip(parts[1::2], parts[2::2], strict=False))


def metric_lines(consultation: dict[str, Any]) -> Text:
    """Every metric of one consultation, value or the reason it is undefined."""
    reasons = split_reasons(consultation.get("reasons"))
    out = Text()
    out.append("Consultation ", style="bold")
    out.append_text(literal(consultation["consultation_id"]))
    out.append(" · case ")
    out.append_text(literal(consultation.get("case_id") or "?"))
    out.append(" · diagnosis: ")
    out.append_text(literal(consultation.get("diagnosis") or "(none)"))
    for field in ("report_judge", "rating_patient"):  # whose LLM-judged values these are
        if consultation.get(field):
            out.append(f"\n{field:<26}", style="dim")
            out.append_text(literal(str(consultation[field])))
    for name in ALL_METRICS:
        value = consultation.get(name)
        out.append(f"\n{public_name(name):<26}", style="dim")
        if value is not None:
            out.append(f"{value:.3g}")
        else:
            out.append_text(literal(f"— {reasons.get(name, 'not computed')}", style="italic"))
    return out


def load_results(db_path: Any, by: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Compute missing or stale offline metrics, then the results rows and the consultation
    rows (the use cases of `bedside results`); opens (and closes) its own store so it can
    run in any thread."""
    from core.usecases.results import consultation_table, results_table
    from core.usecases.scoring import compute_offline
    from db.store import open_store

    store = open_store(db_path)
    try:
        compute_offline(store)
        return (results_table(store, by=by, run_id=None),
                consultation_table(store, by=by))
    finally:
        store.close()


class ResultsScreen(BedsideScreen):
    """The results table with a grouping selector, and the consultations behind a row."""

    # Short terminals (24 rows) cannot hold both tables, the metrics and the six-line
    # footnote: there the footnote moves to the help (F1, from HELP) and the metrics panel
    # shrinks (it scrolls), so the results table itself keeps room for its rows.
    DEFAULT_CSS = """
    ResultsScreen #results-table { height: 1fr; min-height: 4; }
    ResultsScreen #results-consultations { height: 8; }
    ResultsScreen #results-detail { height: auto; max-height: 12; padding: 0 1;
                                    overflow-y: auto; }
    ResultsScreen.-short #results-detail { max-height: 5; }
    ResultsScreen.-short #results-footnote { display: none; }
    ResultsScreen #results-chart-box { display: none; height: 2fr; }
    ResultsScreen.-chart #results-chart-box { display: block; }
    ResultsScreen.-chart #results-consultations { display: none; }
    ResultsScreen.-chart #results-detail { display: none; }
    """
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]
    HELP = (f"The columns: {FOOTNOTE} c shows the chart of the rows in place of their "
            "consultations: accuracy (●) with its Wilson 95 % interval (├─┤) per row, as "
            "`bedside results --plot` draws it.")
    BINDINGS = [Binding("escape", "app.pop_screen", "Back"),
                Binding("g", "next_grouping", "Next grouping"),
                Binding("c", "chart", "Chart"),
                Binding("r", "reload", "Recompute")]

    def __init__(self, by: str = "model") -> None:
        super().__init__()
        self.by = by
        #: The rows shown (`core.usecases.results.results_table`); None until first loaded.
        self.rows: list[dict[str, Any]] | None = None
        #: The grouping of `rows`.
        self.rows_by: str | None = None
        #: Every consultation row (`consultation_table`), for the lower table.
        self.consultations: list[dict[str, Any]] = []
        #: The consultations of the highlighted results row, as listed below it.
        self.shown: list[dict[str, Any]] = []

    def compose(self) -> ComposeResult:
        """Grouping selector, status line, the two tables, the metrics panel, the footnote."""
        yield Header()
        with Horizontal(id="results-bar"):
            yield Label("Group by ")
            yield Select([(Text(g), g) for g in GROUPINGS], value=self.by, allow_blank=False,
                         id="results-by", compact=True)
            yield Static(Text("Loading…"), id="results-status")
        yield DataTable(id="results-table", cursor_type="row", zebra_stripes=True)
        yield DataTable(id="results-consultations", cursor_type="row")
        yield Static(Text("Highlight a consultation to see its metrics."), id="results-detail")
        with VerticalScroll(id="results-chart-box"):
            yield AccuracyChart(id="results-chart")
        yield Static(Text(FOOTNOTE), classes="hint", id="results-footnote")
        yield KeyFooter()  # Help first, no palette hint: fits 80 columns

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
        """Cycle model → source → specialty → language → each experimental factor."""
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
            rows, consultations = load_results(db_path, by)
        except Exception as err:  # shown as one line; the app logs unexpected ones
            self.app.call_from_thread(self._failed, err)
            return
        self.app.call_from_thread(self.show_rows, rows, by, consultations)

    def _failed(self, err: BaseException) -> None:
        self.query_one("#results-status", Static).update(Text("Could not compute results."))
        self.bedside.show_error(err)

    def show_rows(self, rows: list[dict[str, Any]], by: str,
                  consultations: list[dict[str, Any]] | None = None) -> None:
        """Fill the table (on the event loop); stale results of another grouping are dropped."""
        if by != self.by:
            return
        self.rows, self.rows_by = rows, by
        self.consultations = consultations or []
        table = self.query_one("#results-table", DataTable)
        table.clear(columns=True)
        table.add_columns(*(header for _, header, _ in columns(by)))
        for i, row in enumerate(rows):
            table.add_row(*row_cells(row, by), key=f"{i}")
        self.query_one("#results-chart", AccuracyChart).show(rows, by)
        humans = sum(r["doctor_kind"] == "human" for r in rows)
        below = "chart" if self.has_class("-chart") else "consultations of the row"
        status = (f"{len(rows)} row{'s' * (len(rows) != 1)} by {by} · {humans} human, "
                  f"{len(rows) - humans} model/scripted · ↓ {below} (c)" if rows
                  else "No consultations yet: run a batch (w) or play a case (p) first.")
        self.query_one("#results-status", Static).update(Text(status))
        self.show_members(0 if rows else None)

    def action_chart(self) -> None:
        """Show the chart of the rows below the table, or the consultations again."""
        self.toggle_class("-chart")
        if self.rows is not None and self.rows_by is not None:
            self.show_rows(self.rows, self.rows_by, self.consultations)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """A results row lists its consultations; a consultation shows its metrics."""
        index = event.cursor_row
        if event.data_table.id == "results-table":
            self.show_members(index)
        elif event.data_table.id == "results-consultations" and 0 <= index < len(self.shown):
            self.query_one("#results-detail", Static).update(metric_lines(self.shown[index]))

    def show_members(self, index: int | None) -> None:
        """List the consultations of results row `index` (None: none)."""
        table = self.query_one("#results-consultations", DataTable)
        table.clear(columns=True)
        table.add_columns(*(header for _, header, _ in CONSULTATION_COLUMNS))
        rows = self.rows or []
        self.shown = (members(rows[index], self.by, self.consultations)
                      if index is not None and 0 <= index < len(rows) else [])
        for c in self.shown:
            table.add_row(*_cells(c, CONSULTATION_COLUMNS))
        detail = self.query_one("#results-detail", Static)
        detail.update(metric_lines(self.shown[0]) if self.shown
                      else Text("No consultation to show."))
