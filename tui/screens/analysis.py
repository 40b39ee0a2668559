"""Analysis screen: inter-rater agreement and judge-versus-human statistics of a reader study
(or of a long-format CSV file), per rubric item, with terminal plots.

The report (`annotation.analysis_study.study_report`, or `load_long_csv` + `agreement_report`)
is computed in a thread worker on its own SQLite connection; the per-unit values the plots
need (mean of humans against the judge) are computed from the same ratings. Widgets are
only touched on the event loop (`call_from_thread`).

Must not import: core.engine, litellm.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, DataTable, Footer, Header, Input, Label, Select, Static
from textual.worker import get_current_worker

from annotation.analysis.render import STAT_LABELS, Section, fmt, interval
from tui.widgets import plots
from tui.widgets.literal import literal
from tui.widgets.tables import cell

if TYPE_CHECKING:
    from tui.app import BedsideApp

LEVELS = ("ordinal", "nominal", "interval", "ratio")
N_BOOT = 200


@dataclass
class ItemView:
    """One analysed rubric item: its report part and the per-unit data of its plots."""

    item: str
    level: str
    judge: str | None
    part: dict[str, Any]
    pairs: list[tuple[float, float]] = field(default_factory=list)  # (mean of humans, judge)
    human_values: list[Any] = field(default_factory=list)


def _number(value: Any) -> float | None:
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def unit_pairs(rows: list[dict[str, Any]], judge: str | None) -> list[tuple[float, float]]:
    """(mean of the humans, judge) for every unit both rated with a number."""
    if judge is None:
        return []
    humans: dict[str, list[float]] = defaultdict(list)
    judged: dict[str, float] = {}
    for r in rows:
        x = _number(r["value"])
        if x is None:
            continue
        if r["rater"] == judge:
            judged[r["unit"]] = x
        else:
            humans[r["unit"]].append(x)
    return [(sum(humans[u]) / len(humans[u]), judged[u]) for u in sorted(judged) if humans[u]]


def item_views(reports: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[ItemView]:
    """Flatten agreement reports to one view per item, with the ratings of its plots.

    `rows` are the analysed ratings as dicts with unit, rater, value and item.
    """
    by_item: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_item[r.get("item") or "(one item)"].append(r)
    views = []
    for report in reports:
        judge, level = report.get("judge"), report["level"]
        for part in report["items"]:
            mine = by_item.get(part["item"], [])
            item_judge = judge if part.get("judge") else None
            views.append(ItemView(
                item=part["item"], level=level, judge=item_judge, part=part,
                pairs=unit_pairs(mine, item_judge) if level != "nominal" else [],
                human_values=[r["value"] for r in mine if r["rater"] != item_judge]))
    return views


def compute_study(db_path: Any, study: str) -> tuple[str, list[ItemView]]:
    """Thread-safe: the study report (n_boot=200) and its per-item views."""
    from annotation.analysis_study import study_report
    from annotation.exchange import export_rows
    from db.connection import open_db

    db = open_db(db_path)
    try:
        report = study_report(db, study, n_boot=N_BOOT)
        rows = [{"unit": f"{r['consultation']}/{r['unit']}", "rater": r["rater"],
                 "value": r["value"], "item": r["item"]}
                for r in export_rows(db, study) if r["value"] is not None]
    finally:
        db.conn.close()
    title = f"Study '{report['study']}', judge {report['judge'] or '(none)'}"
    return title, item_views(report["reports"], rows)


def compute_csv(path: str, level: str, judge: str | None) -> tuple[str, list[ItemView]]:
    """The agreement report of a long-format CSV file (InputError for a bad file)."""
    from annotation.analysis.report import agreement_report, load_long_csv

    rows = load_long_csv(path, level=level)
    report = agreement_report(rows, judge=judge, level=level, n_boot=N_BOOT)
    plain = [{"unit": r.unit, "rater": r.rater, "value": r.value, "item": r.item}
             for r in rows]
    return f"{path} ({level}), judge {judge or '(none)'}", item_views([report], plain)


def overview_row(v: ItemView) -> list[Any]:
    """Item, level, units, humans, alpha [CI], Fleiss, % exact, judge headline, ceiling."""
    ag = v.part["agreement"]
    alpha = ag["alpha"]
    key = "accuracy" if v.level == "nominal" else "spearman"
    judge, ceiling = "—", "—"
    if v.judge:
        jr = v.part["judge"]
        judge = f"{STAT_LABELS[key].split()[0]} {fmt(jr['item_level'][key]['value'])}"
        ceiling = fmt(jr["ceiling_mean"].get(f"human.{key}"))
    return [literal(v.item), v.level, v.part["n_units"], len(v.part["humans"]),
            f"{fmt(alpha['value'])} {interval(alpha)}".strip(), fmt(ag["fleiss"]["value"]),
            fmt(ag["percent_exact"]["value"]), judge, ceiling]


OVERVIEW = ("Item", "Level", "Units", "Humans", "α [95% CI]", "Fleiss κ", "% exact",
            "Judge", "Human ceiling")


def agreement_section(v: ItemView) -> Section:
    """Agreement among humans: alpha (with CI) at every level, Fleiss, percent, ICC."""
    ag = v.part["agreement"]
    s = Section("Agreement among humans", ["Statistic", "Value", "95% interval", "n"])
    s.stat_row("Krippendorff α", ag["alpha"])
    for lv, st in ag["alpha_levels"].items():
        s.stat_row(f"  α ({lv})", st)
    s.stat_row("Fleiss κ", ag["fleiss"])
    s.stat_row("Percent agreement (exact)", ag["percent_exact"])
    s.stat_row("Percent agreement (±1)", ag["percent_within_1"])
    for form, st in ((ag.get("icc") or {}).get("forms") or {}).items():
        s.stat_row(form, st)
    return s


def judge_section(v: ItemView) -> Section | None:
    """Judge against the mean of humans, with the leave-one-out human ceiling."""
    if not v.judge:
        return None
    jr = v.part["judge"]
    s = Section(f"Judge '{v.judge}' versus the mean of humans",
                ["Statistic", "Value", "95% interval", "n", "Human ceiling",
                 "Judge (same refs)"])
    for key, label in STAT_LABELS.items():
        if (key == "accuracy") != (v.level == "nominal"):
            continue
        s.stat_row(label, jr["item_level"][key], fmt(jr["ceiling_mean"].get(f"human.{key}")),
                   fmt(jr["ceiling_mean"].get(f"judge.{key}")))
    return s


def fill_section(table: DataTable, note: Static, section: Section | None) -> None:
    """Show a Section in a table, with its notes (undefined values' reasons) below."""
    table.clear(columns=True)
    if section is None:
        note.update(Text(""))
        return
    table.add_columns(*section.headers)
    for i, row in enumerate(section.rows):
        table.add_row(literal(row[0]), *(cell(c) for c in row[1:]), key=str(i))
    note.update(Text("\n".join(f"* {n}" for n in section.all_notes())))


class AnalysisScreen(Screen[None]):
    """Pick a study (or a CSV file); see agreement per item, judge statistics and plots."""

    BINDINGS = [Binding("escape", "app.pop_screen", "Back"),
                Binding("f5", "analyse", "Analyse study")]

    def __init__(self, study: str | None = None) -> None:
        super().__init__()
        self.study = study
        #: The analysed items (empty until a report is shown).
        self.views: list[ItemView] = []
        self.current: ItemView | None = None
        self.title_text = ""

    @property
    def bedside(self) -> BedsideApp:
        """The app, typed."""
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        """Study picker, CSV entry, status, then the tables and plots in a scroll."""
        yield Header()
        with Horizontal(id="analysis-bar"):
            yield Label(Text("Study "))
            yield Select[str]([], prompt="no study yet", id="study-select")
            yield Button("Analyse", id="analyse", variant="primary")
        with Horizontal(id="analysis-csv"):
            yield Label(Text("CSV "))
            yield Input(placeholder="ratings.csv (unit,rater,value[,item])", id="csv-path")
            yield Select([(Text(lv), lv) for lv in LEVELS], value="ordinal",
                         allow_blank=False, id="csv-level")
            yield Input(placeholder="judge (optional)", id="csv-judge")
            yield Button("Load", id="csv-load")
        yield Static(Text("Choose a study or a CSV file."), id="analysis-status")
        with VerticalScroll(id="analysis-body"):
            yield DataTable(id="items-table", cursor_type="row", zebra_stripes=True)
            yield Static(id="agreement-title", classes="section")
            yield DataTable(id="agreement-table", cursor_type="row")
            yield Static(id="agreement-notes", classes="hint")
            yield Static(id="judge-title", classes="section")
            yield DataTable(id="judge-table", cursor_type="row")
            yield Static(id="judge-notes", classes="hint")
            with Container(id="analysis-plots"):
                for name in ("scatter", "ba", "dist"):
                    yield Static(id=f"plot-{name}")
        yield Footer()

    def on_mount(self) -> None:
        """List the studies (newest preselected) and analyse the chosen one."""
        from db.studies import list_studies

        studies = list_studies(self.bedside.db)
        select = self.query_one("#study-select", Select)
        select.set_options([(literal(s["name"]), s["id"]) for s in reversed(studies)])
        chosen = next((s["id"] for s in studies if self.study in (s["id"], s["name"])), None)
        if chosen is None and studies:
            chosen = studies[-1]["id"]
        if chosen is None:
            self._status("No reader study yet (press s on the home screen to create one); "
                         "or load a long-format CSV file.")
            self.query_one("#csv-path", Input).focus()
            return
        select.value = chosen
        self.action_analyse()

    def _status(self, text: str) -> None:
        self.query_one("#analysis-status", Static).update(Text(text))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Analyse the study, or load the CSV file."""
        if event.button.id == "analyse":
            self.action_analyse()
        elif event.button.id == "csv-load":
            self.load_csv()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the CSV fields loads the file."""
        self.load_csv()

    def action_analyse(self) -> None:
        """Compute the report of the selected study."""
        value = self.query_one("#study-select", Select).value
        if not isinstance(value, str):
            self.notify("Choose a study first.", severity="warning")
            return
        self._status("Computing the agreement report…")
        self.run_report(compute_study, self.bedside.db_path, value)

    def load_csv(self) -> None:
        """Compute the report of the CSV file named in the path field."""
        path = self.query_one("#csv-path", Input).value.strip()
        if not path:
            self.notify("Type the path of a CSV file first.", severity="warning")
            return
        level = str(self.query_one("#csv-level", Select).value)
        judge = self.query_one("#csv-judge", Input).value.strip() or None
        self._status(f"Reading {path}…")
        self.run_report(compute_csv, path, level, judge)

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
            self.app.call_from_thread(self.show_report, *result)

    def _failed(self, err: BaseException) -> None:
        self._status("The analysis could not be computed (see the message).")
        self.bedside.show_error(err)

    def show_report(self, title: str, views: list[ItemView]) -> None:
        """Show the overview table and the first item's details."""
        self.title_text, self.views = title, views
        table = self.query_one("#items-table", DataTable)
        table.clear(columns=True)
        table.add_columns(*OVERVIEW)
        for i, v in enumerate(views):
            table.add_row(*(cell(c) for c in overview_row(v)), key=str(i))
        self._status(f"{title} · {len(views)} items · {N_BOOT} bootstrap resamples · "
                     "choose an item row for its details and plots")
        if views:
            self.show_item(0)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Moving in the overview shows that item's details."""
        if event.data_table.id == "items-table" and event.row_key.value is not None:
            index = int(event.row_key.value)
            if index < len(self.views) and self.views[index] is not self.current:
                self.show_item(index)

    def show_item(self, index: int) -> None:
        """Fill the agreement and judge tables and the plots of one item."""
        v = self.current = self.views[index]
        self.query_one("#agreement-title", Static).update(
            literal(f"{v.item}: agreement among {len(v.part['humans'])} humans"))
        fill_section(self.query_one("#agreement-table", DataTable),
                     self.query_one("#agreement-notes", Static), agreement_section(v))
        judge = judge_section(v)
        self.query_one("#judge-title", Static).update(
            literal(judge.title if judge else v.part.get("judge_reason") or "No judge"))
        fill_section(self.query_one("#judge-table", DataTable),
                     self.query_one("#judge-notes", Static), judge)
        self.draw_plots()

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
        """Plots are drawn to the width; redraw them when it changes."""
        self.call_after_refresh(self.draw_plots)
