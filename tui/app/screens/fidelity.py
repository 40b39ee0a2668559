"""Fidelity screen: how faithfully the patient and examiner agents of runs answered (the
figures of `bedside fidelity`, read from the store without recomputing).

Above, the runs (how many of each run's consultations have stored findings); Space marks
runs to compare side by side. Below, one table per role: agents as columns, ranked, checks
as rows, each share with its Wilson 95 % interval and counts, and the stored LLM grader's
verdicts and agreement with the rules when a grader was run (`bedside fidelity --grader`).
`c` checks the marked runs with the rules (no model call) and stores the findings.

Store work runs in a thread worker on its own connection (a connection belongs to the
thread that opened it); the tables are filled on the event loop. Labels and run names are
untrusted text, rendered literally.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Header, Static

from tui.app.screens.base import BedsideScreen
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.literal import literal
from tui.app.widgets.tables import cell, selected_key

if TYPE_CHECKING:
    from core.records.runs import RunRecord
    from core.usecases.fidelity import FidelityTable

ROLES = ("patient", "examiner")


def fill_sized(table: DataTable, headers: list[str], rows: list[tuple[str, list[Any]]]) -> None:
    """Replace a table's content with columns as wide as their widest cell (set, not left
    to the table: filled right after the screen is pushed, auto widths could stay at the
    headers' width); the cursor row is kept when it can be."""
    cursor = table.cursor_row
    cells = [(key, [cell(v) for v in values]) for key, values in rows]
    table.clear(columns=True)
    for i, header in enumerate(headers):
        width = max([len(header), *(c[i].cell_len for _, c in cells)])
        table.add_column(header, width=width)
    for key, values in cells:
        table.add_row(*values, key=key)
    if table.row_count:
        table.move_cursor(row=min(cursor, table.row_count - 1))


def load(db_path: Any, run_ids: list[str], check: bool) -> tuple[
        list[RunRecord], dict[str, int], FidelityTable | None]:
    """Runs, their checked counts and the report of `run_ids` (checked first with `check`);
    opens and closes its own store so it can run in any thread."""
    from core.usecases.fidelity import check_runs, report
    from db.store import open_store

    store = open_store(db_path)
    try:
        if check and run_ids:
            check_runs(store, run_ids)
        runs, counts = store.list_runs(), store.fidelity_counts()
        if not run_ids:  # first visit: the newest run with stored findings
            run_ids = [r.id for r in runs if counts.get(r.id)][:1]
        table = report(store, run_ids) if run_ids else None
        return runs, counts, table
    finally:
        store.close()


class FidelityScreen(BedsideScreen):
    """Runs to choose from, and the fidelity figures of the marked ones side by side."""

    DEFAULT_CSS = """
    FidelityScreen #fidelity-runs { height: auto; max-height: 8; }
    FidelityScreen .fidelity-role { height: 1fr; min-height: 5; }
    FidelityScreen #fidelity-status { padding: 0 1; }
    """
    HELP = ("Agents are columns, ranked within their role; each share is over the answers "
            "the rules decided, with its Wilson 95 % interval and counts. 'grader vs rules' "
            "is percent agreement and Cohen's kappa where both decide. Mark runs with Space "
            "to compare them; replaying one file in each run (bedside run --doctor "
            "replay:FILE) makes their agents answer the same questions. The LLM grader runs "
            "from the command line (bedside fidelity --grader MODEL).")
    BINDINGS = [Binding("escape", "app.pop_screen", "Back"),
                Binding("space", "mark", "Mark run"),
                Binding("c", "check", "Check runs"),
                Binding("f5", "reload", "Reload")]

    def __init__(self, run_id: str | None = None) -> None:
        super().__init__()
        #: The runs whose figures are shown, in the order they were marked.
        self.marked: list[str] = [run_id] if run_id else []
        #: The report shown (None until loaded, or when no run is marked).
        self.table: FidelityTable | None = None

    def compose(self) -> ComposeResult:
        """Runs, status line, one figures table per role."""
        yield Header()
        yield DataTable(id="fidelity-runs", cursor_type="row", zebra_stripes=True)
        yield Static(Text("Loading…"), id="fidelity-status")
        for role in ROLES:
            yield DataTable(id=f"fidelity-{role}", classes="fidelity-role", cursor_type="row")
        yield KeyFooter()

    def on_mount(self) -> None:
        """Read the stored figures."""
        self.query_one("#fidelity-runs", DataTable).focus()
        self.action_reload()

    def action_reload(self) -> None:
        """Read the runs and the stored figures again."""
        self.compute(list(self.marked), False, self.bedside.db_path)

    def action_check(self) -> None:
        """Check the marked runs (or the highlighted one) with the rules, then show them."""
        if not self.marked:
            key = selected_key(self.query_one("#fidelity-runs", DataTable))
            self.marked = [key] if key else []
        if not self.marked:
            self.notify("No run to check: run a batch first (w at home).", severity="warning")
            return
        self.query_one("#fidelity-status", Static).update(Text("Checking…"))
        self.compute(list(self.marked), True, self.bedside.db_path)

    def action_mark(self) -> None:
        """Add the highlighted run to the comparison, or take it out."""
        key = selected_key(self.query_one("#fidelity-runs", DataTable))
        if key is None:
            return
        self.marked = [m for m in self.marked if m != key] if key in self.marked \
            else [*self.marked, key]
        self.action_reload()

    @work(thread=True, exclusive=True, group="fidelity", exit_on_error=False)
    def compute(self, run_ids: list[str], check: bool, db_path: Any) -> None:
        """Thread worker: store work on its own connection; widgets via call_from_thread."""
        try:
            found = load(db_path, run_ids, check)
        except Exception as err:  # one line for the user; the app logs unexpected ones
            self.app.call_from_thread(self.bedside.show_error, err)
            return
        self.app.call_from_thread(self.show, *found)

    def show(self, runs: list[RunRecord], counts: dict[str, int],
             table: FidelityTable | None) -> None:
        """Fill the runs and the figures (on the event loop)."""
        self.table = table
        if table is not None and not self.marked:
            self.marked = [r.run_id for r in table.runs]
        fill_sized(self.query_one("#fidelity-runs", DataTable),
                   ["", "run", "created", "status", "consultations", "checked"],
                   [(r.id, ["✓" if r.id in self.marked else "", r.name or r.id,
                            (r.created_at or "")[:16].replace("T", " "), r.status,
                            r.counts.consultations if r.counts else None,
                            counts.get(r.id, 0)]) for r in runs])
        self.query_one("#fidelity-status", Static).update(self._status(runs, table))
        for role in ROLES:
            self._fill_role(role, table)

    def _status(self, runs: list[RunRecord], table: FidelityTable | None) -> Text:
        from tui.text.fidelity_table import heading

        if not runs:
            return Text("No runs yet: start a batch (w at home) or `bedside run`.")
        if table is None:
            return Text("No run checked yet: highlight a run and press c (or Space to mark "
                        "several), or run `bedside fidelity --run RUN`.")
        lines = heading(table)
        if not table.rows:
            lines.append("Nothing stored for these runs yet: press c to check them.")
        return literal("\n".join(lines))

    def _fill_role(self, role: str, table: FidelityTable | None) -> None:
        from tui.text.fidelity_table import HEAD_LINES, role_block

        widget = self.query_one(f"#fidelity-{role}", DataTable)
        labels, columns = role_block(table, role) if table is not None else ([], [])
        # Rank, run and agent (the first lines) head each agent's column.
        headers = [f"{role} agents"] + [f"{col[0]} {col[1]} · {col[2]}"[:48]
                                        for col in columns]
        fill_sized(widget, headers, [(str(i), [label, *(col[i] for col in columns)])
                                     for i, label in enumerate(labels) if i >= HEAD_LINES])
