"""Analysis screen: inter-rater agreement and judge-versus-human statistics of a reader study
(or of a long-format CSV file), per rubric item and over all items pooled, with plots.

The report (`annotation.analysis_study.study_report`, or `load_long_csv` + `agreement_report`)
is computed in a thread worker on its own SQLite connection, with the same defaults and
option checks as `bedside analyze` (`annotation.analysis.options`). Its sections are laid out
by `annotation.analysis.render` (the text report's own layout), so the app shows exactly
what the command line prints: agreement among humans, Cohen's κ per pair, the judge against
the humans with the leave-one-out ceiling, the system level, the alternative annotator test,
and the pooled block. Widgets are only touched on the event loop (`call_from_thread`). The
screen holds no SQL: studies are listed and read through the study store (`db.studies`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Button, DataTable, Header, Input, Select, Static
from textual.worker import get_current_worker

from annotation.analysis.display import (OVERVIEW, Analysis, ItemView, build_analysis,
                                         overview_row)
from annotation.analysis.options import (DEFAULT_BOOTSTRAP, DEFAULT_EPSILON, parse_bootstrap,
                                         parse_epsilon)
from annotation.analysis.render import Section
from tui.app.screens.base import BedsideScreen
from tui.app.widgets import plots
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.literal import literal


LEVELS = ("ordinal", "nominal", "interval", "ratio")


def compute_study(db_path: Any, study: str, judge: str | None = None,
                  n_boot: int = DEFAULT_BOOTSTRAP,
                  epsilon: float = DEFAULT_EPSILON) -> Analysis:
    """Thread-safe: the study report and its per-item views (own database connection)."""
    from annotation.analysis_study import study_report
    from annotation.exchange import export_rows
    from db.study_store import open_study_store

    store = open_study_store(db_path)
    try:
        report = study_report(store, study, judge=judge, n_boot=n_boot, epsilon=epsilon)
        rows = [{"unit": f"{r.consultation}/{r.unit}", "rater": r.rater, "value": r.value,
                 "item": r.item}
                for r in export_rows(store, study) if r.value is not None]
    finally:
        store.db.conn.close()
    title = f"Study '{report.study}', judge {report.judge or '(none)'}"
    notes = [report.judge_reason] if report.judge_reason else []
    return build_analysis(title, report.reports, rows, notes)


#: The CSV level choice that lets the values decide (yes/no → nominal).
AUTO = "auto"


def compute_csv(path: str, level: str, judge: str | None, n_boot: int = DEFAULT_BOOTSTRAP,
                epsilon: float = DEFAULT_EPSILON) -> Analysis:
    """The agreement report of a long-format CSV file (InputError for a bad file)."""
    from annotation.analysis.data import guess_level
    from annotation.analysis.report import agreement_report, load_long_csv

    # 'auto', as on the command line: ordinal when every value is a number, else nominal.
    rows = load_long_csv(path, level=None if level == AUTO else level)
    level = guess_level(rows) if level == AUTO else level
    report = agreement_report(rows, judge=judge, level=level, n_boot=n_boot, epsilon=epsilon,
                              path=path)
    plain = [{"unit": r.unit, "rater": r.rater, "value": r.value, "item": r.item}
             for r in rows]
    title = f"{path} ({level}), judge {judge or '(none)'}"
    return build_analysis(title, [report], plain, [])


WIDE = 150  # from this many columns, sections are laid out in two columns


def columns(sections: list[Section], split: int, wide: bool) -> Horizontal:
    """Sections in two columns (side by side when `wide`, else stacked), split at `split`."""
    left = Vertical(*[w for s in sections[:split] for w in section_widgets(s)],
                    classes="column")
    right = Vertical(*[w for s in sections[split:] for w in section_widgets(s)],
                     classes="column")
    return Horizontal(left, right, classes="columns -wide" if wide else "columns")


def section_widgets(section: Section) -> list[Widget]:
    """A Section as widgets: its title, its table (cells shown literally) and its notes."""
    out: list[Widget] = [Static(literal(section.title), classes="section")]
    if section.headers:
        table: DataTable[Text] = DataTable(cursor_type="row", zebra_stripes=True,
                                           classes="stats")
        table.add_columns(*section.headers)
        for i, row in enumerate(section.rows):
            # Labels and names are literal text; numbers are right-aligned.
            cells = [literal(row[0])] + [Text(c, justify="right") for c in row[1:]]
            table.add_row(*cells, key=str(i))
        out.append(table)
    notes = section.all_notes()
    if notes:
        out.append(Static(literal("\n".join(f"* {n}" for n in notes)), classes="hint"))
    return out


class AnalysisScreen(BedsideScreen):
    """Pick a study (or a CSV file); see agreement per item, judge statistics and plots."""

    DEFAULT_CSS = """
    AnalysisScreen .bar-label { width: auto; padding: 0 1 0 0; }
    AnalysisScreen #analysis-options { height: auto; padding: 0 1; }
    AnalysisScreen #analysis-options Input { width: 10; margin-right: 2; }
    AnalysisScreen #analysis-options #judge-name { width: 1fr; }
    AnalysisScreen .pooled-title { text-style: bold reverse; padding: 0 1; margin-top: 1; }
    AnalysisScreen #item-detail, AnalysisScreen #overall-detail { height: auto; }
    AnalysisScreen .columns { height: auto; layout: vertical; }
    AnalysisScreen .columns.-wide { layout: horizontal; }
    AnalysisScreen .column { height: auto; width: 1fr; }
    AnalysisScreen .columns.-wide .column { margin-right: 2; }
    """
    BINDINGS = [Binding("escape", "app.pop_screen", "Back"),
                Binding("f5", "analyse", "Analyse study")]

    def __init__(self, study: str | None = None) -> None:
        super().__init__()
        self.study = study
        #: The analysed items (empty until a report is shown).
        self.views: list[ItemView] = []
        self.current: ItemView | None = None
        self.title_text = ""
        self.analysis: Analysis | None = None
        self._detail_lock = asyncio.Lock()

    def compose(self) -> ComposeResult:
        """Study picker, CSV entry, options, status, then tables and plots in a scroll."""
        yield Header()
        with Horizontal(id="analysis-bar"):
            yield Static(Text("Study"), classes="bar-label")
            yield Select[str]([], prompt="no study yet", id="study-select", compact=True)
            yield Button("Analyse", id="analyse", variant="primary", compact=True)
        with Horizontal(id="analysis-csv"):
            yield Static(Text("CSV"), classes="bar-label")
            yield Input(placeholder="ratings.csv (unit,rater,value[,item])", id="csv-path",
                        compact=True)
            yield Select([(Text(lv), lv) for lv in (AUTO, *LEVELS)], value=AUTO,
                         allow_blank=False, id="csv-level", compact=True)
            yield Button("Load", id="csv-load", compact=True)
        with Horizontal(id="analysis-options"):
            yield Static(Text("Judge"), classes="bar-label")
            yield Input(placeholder="judge (default: the study's LLM judge)", id="judge-name",
                        compact=True)
            yield Static(Text("Resamples"), classes="bar-label")
            yield Input(str(DEFAULT_BOOTSTRAP), id="boot-count", compact=True)
            yield Static(Text("ε"), classes="bar-label")
            yield Input(str(DEFAULT_EPSILON), placeholder="expert", id="epsilon", compact=True)
        yield Static(Text("Choose a study or a CSV file."), id="analysis-status")
        with VerticalScroll(id="analysis-body"):
            yield DataTable(id="items-table", cursor_type="row", zebra_stripes=True)
            yield Vertical(id="item-detail")
            with Container(id="analysis-plots"):
                for name in ("scatter", "ba", "dist"):
                    yield Static(id=f"plot-{name}")
            yield Vertical(id="overall-detail")
        yield KeyFooter()  # Help first, no palette hint: fits 80 columns

    def on_mount(self) -> None:
        """List the studies (newest preselected) and analyse the chosen one."""
        from db.studies import StudyRepository

        studies = StudyRepository(self.bedside.db).list_studies()
        select = self.query_one("#study-select", Select)
        select.set_options([(literal(s.name), s.id) for s in reversed(studies)])
        chosen = next((s.id for s in studies if self.study in (s.id, s.name)), None)
        if chosen is None and studies:
            chosen = studies[-1].id
        if chosen is None:
            self._status("No reader study yet (press s on the home screen to create one); "
                         "or load a long-format CSV file.")
            self.query_one("#csv-path", Input).focus()
            return
        select.value = chosen
        self.action_analyse()

    def _status(self, text: str) -> None:
        self.query_one("#analysis-status", Static).update(literal(text))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Analyse the study, or load the CSV file."""
        if event.button.id == "analyse":
            self.action_analyse()
        elif event.button.id == "csv-load":
            self.load_csv()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the CSV path loads the file; in an option field, recomputes the study
        (or the CSV file, when one is named)."""
        if event.input.id == "csv-path" or self.query_one("#csv-path", Input).value.strip():
            self.load_csv()
        else:
            self.action_analyse()

    def _options(self) -> tuple[str | None, int, float] | None:
        """(judge, resamples, ε) from the option fields; None (and a message) if invalid."""
        judge = self.query_one("#judge-name", Input).value.strip() or None
        try:
            n_boot = parse_bootstrap(self.query_one("#boot-count", Input).value,
                                     field="resamples")
            eps = parse_epsilon(self.query_one("#epsilon", Input).value or "expert",
                                field="ε")
        except Exception as err:  # an InputError: one line, shown where errors are shown
            self.bedside.show_error(err)
            return None
        return judge, n_boot, eps

    def action_analyse(self) -> None:
        """Compute the report of the selected study."""
        value = self.query_one("#study-select", Select).value
        if not isinstance(value, str):
            self.notify("Choose a study first.", severity="warning")
            return
        options = self._options()
        if options is None:
            return
        self._status("Computing the agreement report…")
        self.run_report(compute_study, self.bedside.db_path, value, *options)

    def load_csv(self) -> None:
        """Compute the report of the CSV file named in the path field."""
        path = self.query_one("#csv-path", Input).value.strip()
        if not path:
            self.notify("Type the path of a CSV file first.", severity="warning")
            return
        options = self._options()
        if options is None:
            return
        level = str(self.query_one("#csv-level", Select).value)
        self._status(f"Reading {path}…")
        self.run_report(compute_csv, path, level, *options)

    @work(thread=True, exclusive=True, group="analysis", exit_on_error=False)
    def run_report(self, compute: Any, *args: Any) -> None:
        """Thread worker: compute, then hand the result (or the error) to the event loop."""
        try:
            result = compute(*args)
        except Exception as err:  # a BedsideError is one line; anything else is logged
            if not get_current_worker().is_cancelled:
                self.app.call_from_thread(self._failed, err)
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.show_report, result, args[-2])

    def _failed(self, err: BaseException) -> None:
        self._status("The analysis could not be computed (see the message).")
        self.bedside.show_error(err)

    async def show_report(self, analysis: Analysis, n_boot: int) -> None:
        """Show the overview table, the first item's details and the pooled blocks."""
        self.analysis, self.views, self.current = analysis, analysis.views, None
        table = self.query_one("#items-table", DataTable)
        table.clear(columns=True)
        table.add_columns(*OVERVIEW)
        for i, v in enumerate(analysis.views):
            table.add_row(*(literal(c) for c in overview_row(v)), key=str(i))
        status = (f"{analysis.title} · {len(analysis.views)} items · {n_boot} bootstrap "
                  "resamples · choose an item row for its details and plots")
        self._status(" · ".join([status, *analysis.notes]))
        overall = self.query_one("#overall-detail", Vertical)
        await overall.remove_children()
        widgets: list[Widget] = []
        for title, sections in analysis.pooled:
            widgets.append(Static(literal(title), classes="pooled-title"))
            # judge + ceiling | system level + alternative test
            widgets.append(columns(sections, 2, self.wide))
        await overall.mount_all(widgets)
        if analysis.views:
            await self.show_item(0)
        self.title_text = analysis.title  # last: the report is fully shown

    async def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Moving in the overview shows that item's details."""
        if event.data_table.id == "items-table" and event.row_key.value is not None:
            index = int(event.row_key.value)
            if index < len(self.views):
                await self.show_item(index)

    async def show_item(self, index: int) -> None:
        """Lay out one item's sections (agreement, Cohen, judge, ceiling, system, alt-test)."""
        async with self._detail_lock:  # a highlight event and show_report may both ask
            v = self.views[index]
            if v is self.current:
                return
            self.current = v
            detail = self.query_one("#item-detail", Vertical)
            await detail.remove_children()
            head = Static(literal(f"{v.item}: {len(v.part['humans'])} humans, "
                                  f"{v.part['n_units']} units, {v.level}"),
                          classes="pooled-title")
            # Agreement among humans + Cohen | everything about the judge.
            await detail.mount_all([head, columns(v.sections, 2, self.wide)])
        self.draw_plots()

    @property
    def wide(self) -> bool:
        """Whether the screen is wide enough for sections side by side."""
        return self.size.width >= WIDE

    def draw_plots(self) -> None:
        """Render the current item's plots to fit the screen width (1 to 3 per row)."""
        v = self.current
        if v is None:
            return
        width = max(40, self.query_one("#analysis-body").size.width - 2)
        cols = 3 if width >= 180 else 2 if width >= 110 else 1
        box = self.query_one("#analysis-plots", Container)
        box.styles.grid_size_columns = cols
        w, h = (width - 2 * (cols - 1)) // cols, 15
        numeric = v.level != "nominal"
        texts = {
            "scatter": plots.scatter(v.pairs, width=w, height=h) if numeric and v.judge
            else "Scatter: needs a judge and a numeric item",
            "ba": plots.bland_altman(v.pairs, width=w, height=h) if numeric and v.judge
            else "Bland–Altman: needs a judge and a numeric item",
            "dist": plots.distribution(v.human_values, scale=v.part.get("scale"), width=w,
                                       height=h, title="Human rating distribution"),
        }
        for name, text in texts.items():
            self.query_one(f"#plot-{name}", Static).update(literal(text))

    def on_resize(self) -> None:
        """Plots are drawn to the width, and sections go side by side on a wide screen."""
        for box in self.query(".columns"):
            box.set_class(self.wide, "-wide")
        self.call_after_refresh(self.draw_plots)
