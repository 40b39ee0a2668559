"""Evolution: the stored MedAgent-Zero experiments (`bedside evolve`) and their learning
curves — the table of points and one terminal plot per task, test accuracy against
patients treated with one line per arm (the ablation), or training accuracy (`t`). `x`
writes the highlighted evolution's points as CSV to `exports/` beside the database.

Reads the store only; plots are plain text from `tui.text.curves` (plotext), shown
literally.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Header, Static

from tui.app.screens.base import BedsideScreen
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.literal import literal
from tui.app.widgets.tables import selected_key

COLUMNS = ("Evolution", "Status", "Doctor", "Train", "Test", "Every", "Arms", "Created")


class EvolutionScreen(BedsideScreen):
    """Stored evolutions and the curves of the highlighted one."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("t", "toggle", "Test/train"),
        Binding("x", "export", "Export CSV"),
        Binding("f5", "reload", "Reload"),
    ]
    HELP = ("Each row is one `bedside evolve` run. Below: its points (training and test "
            "accuracy per task, principles and records kept, wrong training answers) and a "
            "plot per task with one line per arm of the ablation: none (x), records (o), "
            "experience (+), both (*). t switches between test and training accuracy; x "
            "writes the points as CSV.")

    def __init__(self) -> None:
        super().__init__()
        self.which = "test"
        self.points: list[Any] = []
        self.shown: str | None = None

    def compose(self) -> ComposeResult:
        """The list of evolutions, then the curves of the highlighted one."""
        yield Header()
        yield DataTable(id="evo-table", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="evo-view"):
            yield Static(id="evo-curves")
        yield KeyFooter()

    def on_mount(self) -> None:
        """Fill the list; the newest is highlighted."""
        table = self.query_one("#evo-table", DataTable)
        table.add_columns(*COLUMNS)
        self.action_reload()
        table.focus()

    def action_reload(self) -> None:
        """Read the evolutions again."""
        table = self.query_one("#evo-table", DataTable)
        table.clear()
        for e in self.bedside.store.list_evolutions():
            c = e.config
            table.add_row(*(literal(str(v)) for v in (
                e.name, e.status, c.get("doctor"), c.get("train"), c.get("test"),
                c.get("test_every"), ",".join(c.get("arms", [])),
                e.created_at[:16].replace("T", " "))), key=e.id)
        if table.row_count:
            self.show(selected_key(table))
        else:
            self.query_one("#evo-curves", Static).update(Text(
                "No evolution yet. Run one: bedside evolve --train 1000 --test 200 "
                "--test-every 100"))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Show the highlighted evolution."""
        if event.row_key is not None and event.row_key.value:
            self.show(event.row_key.value)

    def show(self, evolution_id: str | None) -> None:
        """The points table and plots of one evolution."""
        from tui.text.curves import curve_plot, points_table

        if evolution_id is None:
            return
        self.shown = evolution_id
        self.points = self.bedside.store.evolution_points(evolution_id)
        width = max(40, min(110, self.size.width - 14))
        parts = [points_table(self.points), ""]
        parts += [curve_plot(self.points, t, which=self.which, width=width, height=12)
                  for t in ("examination", "diagnosis", "treatment")]
        self.query_one("#evo-curves", Static).update(literal("\n\n".join(parts)))

    def action_toggle(self) -> None:
        """Test accuracy ↔ training accuracy."""
        self.which = "train" if self.which == "test" else "test"
        self.show(self.shown)

    def action_export(self) -> None:
        """Write the shown evolution's points as CSV."""
        from tui.text.curves import points_csv

        if self.shown is None:
            return
        path = self.bedside.db_path.parent / "exports" / f"evolution-{self.shown}.csv"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(points_csv(self.points), encoding="utf-8")
        except OSError as err:
            self.bedside.show_error(err)
            return
        self.notify(f"Wrote {path}", markup=False)
