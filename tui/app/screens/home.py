"""Home / browse: the case library (with filters), consultations, runs, studies, baseline.

The screen reads through the app's store; the Baseline tab is `core.usecases.results.
baseline` (the results table's own rules), computed in a thread worker on a store of its
own. Widgets get data as attributes. Loading happens in a worker after the first paint;
any error it meets (a database that cannot be opened or migrated) goes to the app's
`show_error`, and the tabs stay empty.

Must not import at module level: core.engine, litellm, the store or the use cases (they
load after the first paint).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import (DataTable, Header, Input, Select, Static, TabbedContent,
                             TabPane)

from tui.app.screens.base import BedsideScreen
from tui.app.widgets.bidi import display_line
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.literal import literal
from tui.app.widgets.tables import fill, selected_key

if TYPE_CHECKING:
    from pathlib import Path

    from core.case import Case
    from core.records.runs import BaselineRow, RunRecord

FILTERS = ("specialty", "language", "source")
#: The language box's value for "the languages I read".
MINE = "\x00mine"
#: From this many columns the case table also shows specialty and source.
WIDE = 110
#: The table each tab shows (focused when the tab is activated, so Enter works at once).
TAB_TABLES = {"cases": "#cases-table", "consultations": "#consultations-table",
              "runs": "#runs-table", "studies": "#studies-table", "baseline": "#baseline-table"}


def _verdict(correct: bool | None) -> Text:
    if correct is None:
        return Text("—", style="dim")
    return Text("correct", style="green") if correct else Text("wrong", style="red")


def _minute(stamp: str | None) -> str:
    """'2025-01-02T03:04:05.000Z' → '2025-01-02 03:04'."""
    return (stamp or "")[:16].replace("T", " ")


#: The Runs tab: what each run is (doctors, cases, settings that differ from the defaults)
#: before how it went; the id (or --name) last.
RUN_COLUMNS = ("Created", "Doctors", "Cases", "Settings", "Status", "Done", "Failed", "Run")


def _run_cells(run: RunRecord) -> tuple[object, ...]:
    """A run's cells (RUN_COLUMNS), from `core.usecases.run_listing.summarize`."""
    from core.usecases.run_listing import summarize

    s = summarize(run)
    planned = s.planned if s.planned is not None else s.counts.consultations
    return (_minute(s.created_at), ", ".join(s.doctors), s.cases,
            "; ".join(s.settings) or "defaults", s.status,
            f"{s.counts.finished}/{planned}", s.counts.failed, s.name or s.id)


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def _interval(low: float | None, high: float | None) -> str:
    return "—" if low is None or high is None else f"{low:.0%}–{high:.0%}"



def shown_title(case: Any) -> str:
    """A case's title as the list shows it: marked while a machine translation awaits
    review, right-to-left titles in visual order (display only)."""
    mark = "[MT review] " if getattr(case, "needs_review", False) else ""
    return display_line(mark + case.title)
def _turns_tests(c: Any) -> tuple[Any, Any]:
    """A consultation's doctor turns and tests; '-' for a collaboration's joint result,
    which has none of its own (its doctors' own consultations, listed too, have them)."""
    from core.collaboration import is_joint

    if is_joint(c.origin, c.config):
        return Text("-", justify="right"), Text("-", justify="right")
    return c.doctor_turns, c.tests_ordered


class HomeScreen(BedsideScreen):
    """Tabs: Cases, Consultations, Runs, Studies, Baseline."""

    HELP = ("The Cases tab lists the case library; the three boxes above it filter by "
            "specialty, language and source (choose the top line again to show all). "
            "'Next unseen' picks a case you have not played among those the filters show, "
            "in a language you read (stated in the play form, remembered with your name), "
            "in an order of its own for each physician, and hides its identity until the end. "
            "'Play patient' (h) lets a person play the selected case's patient for a scripted "
            "or model doctor.")

    BINDINGS = [
        Binding("p", "play", "Play case"),
        Binding("n", "next_unseen", "Next unseen"),
        Binding("w", "live", "Watch runs"),
        Binding("f5", "refresh", "Refresh"),
        # Not in the footer (it is full at 80 columns); the tab hints and help list them.
        Binding("r", "results", "Results", show=False),
        Binding("a", "analysis", "Analysis", show=False),
        Binding("f", "fidelity", "Fidelity", show=False),
        Binding("s", "new_study", "New study", show=False),
        Binding("h", "play_patient", "Play patient", show=False),
        Binding("t", "agent_hospital", "Agent Hospital tasks", show=False),
        Binding("e", "evolution", "Evolution", show=False),
        Binding("o", "hospital", "Hospital (live)", show=False),
        Binding("1", "tab('cases')", "Cases", show=False),
        Binding("2", "tab('consultations')", "Consultations", show=False),
        Binding("3", "tab('runs')", "Runs", show=False),
        Binding("4", "tab('studies')", "Studies", show=False),
        Binding("5", "tab('baseline')", "Baseline", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.cases: list[Case] = []
        self.shown_cases: list[Case] = []
        #: The Baseline tab's rows as last shown (None until the first load arrives).
        self.baseline_rows: list[BaselineRow] | None = None
        self.loaded = False
        self._cases_wide = True  # whether the case table shows every column
        #: The languages the physician reads, as the language box offers them.
        self.languages: list[str] = []

    def compose(self) -> ComposeResult:
        """Header, the five tabs, footer with key hints."""
        yield Header()
        with TabbedContent(id="tabs"):
            with TabPane("Cases", id="cases"):
                with Vertical():
                    with Horizontal(id="case-filters"):
                        for name in FILTERS:
                            # The prompt is what shows while no value is chosen ("any").
                            yield Select[str]([], prompt=f"Any {name}",
                                              id=f"filter-{name}", compact=True,
                                              tooltip=f"Show only cases of this {name}")
                        yield Input(placeholder="Title or id…", id="filter-text",
                                    tooltip="Show only cases whose title or id contains this")
                    yield DataTable(id="cases-table", cursor_type="row", zebra_stripes=True)
                    yield Static(Text("Enter or p: play this case as doctor · h: play its "
                                      "patient · n: a case you have not seen among those "
                                      "shown (identity hidden)"),
                                 classes="hint")
            with TabPane("Consultations", id="consultations"):
                yield DataTable(id="consultations-table", cursor_type="row", zebra_stripes=True)
                yield Static(Text("Enter: open the transcript · r: results table · "
                                  "physicians are listed as human:NAME"), classes="hint")
            with TabPane("Runs", id="runs"):
                yield DataTable(id="runs-table", cursor_type="row", zebra_stripes=True)
                yield Static(Text("Enter: watch this run · w: live runs (start a batch there)"
                                  " · r: results table · f: fidelity of this run · e: "
                                  "evolution curves (Agent Hospital)"), classes="hint")
            with TabPane("Studies", id="studies"):
                yield DataTable(id="studies-table", cursor_type="row", zebra_stripes=True)
                yield Static(Text("Enter: rate this study · s: new study · a: agreement "
                                  "analysis of this study"), classes="hint")
            with TabPane("Baseline", id="baseline"):
                yield DataTable(id="baseline-table", cursor_type="row", zebra_stripes=True)
                yield Static(Text("Finished consultations per doctor; physicians are "
                                  "human:NAME. CI: Wilson 95 %. r: full results table · t: "
                                  "take the Agent Hospital tasks"), classes="hint")
        yield KeyFooter()

    def on_mount(self) -> None:
        """Paint at once; the store and the library load right after, off the event loop."""
        self.load_cases()

    def on_screen_resume(self) -> None:
        """Coming back from a consultation: show what changed (the languages too)."""
        if self.loaded:
            self.refresh_db_tables()
        if self.cases and self.bedside.physician_languages() != self.languages:
            self.offer_my_languages()
            self.apply_filters()

    @work(exclusive=True, group="load-cases", exit_on_error=False)
    async def load_cases(self) -> None:
        """Load the store and the library, then fill every tab; errors go to show_error."""
        from tui.app.services import USER_ERRORS

        try:
            await self.bedside.preload()
            self.refresh_db_tables()
            self.loaded = True
            self.cases = await self.bedside.library()
        except USER_ERRORS as err:
            self.bedside.show_error(err)
            return
        for name in FILTERS:
            values = sorted({getattr(c, name) for c in self.cases})
            self.query_one(f"#filter-{name}", Select).set_options(
                [(literal(v), v) for v in values])
        self.offer_my_languages()
        self.apply_filters()

    def offer_my_languages(self) -> None:
        """When the physician stated the languages they read, the language box offers them
        as its first choice, chosen until another is (the top line shows every language)."""
        box = self.query_one("#filter-language", Select)
        languages = self.bedside.physician_languages()
        if languages == self.languages and self.cases:
            return
        self.languages = languages
        values = sorted({c.language for c in self.cases})
        options = [(literal(v), v) for v in values]
        if languages:
            options.insert(0, (literal("My languages (" + ", ".join(languages) + ")"), MINE))
        was = box.value
        with self.prevent(Select.Changed):
            box.set_options(options)
            if languages and (was == MINE or not isinstance(was, str)):
                box.value = MINE
            elif isinstance(was, str) and was in values:
                box.value = was

    def chosen_filters(self) -> dict[str, str]:
        """The filter values chosen above the case table (specialty, language, source)."""
        chosen = {}
        for name in FILTERS:
            value = self.query_one(f"#filter-{name}", Select).value
            if isinstance(value, str) and value != MINE:
                chosen[name] = value
        return chosen

    def apply_filters(self) -> None:
        """Show only the cases that match every chosen filter and the search text."""
        from core.usecases.play import reads

        chosen = self.chosen_filters()
        mine = self.languages if self.query_one("#filter-language", Select).value == MINE \
            else []
        text = self.query_one("#filter-text", Input).value.strip().lower()
        self.shown_cases = [
            c for c in self.cases
            if all(getattr(c, k) == v for k, v in chosen.items()) and reads(mine, c.language)
            and (not text or text in c.id.lower() or text in c.title.lower())]
        # The long title goes last, so a narrow terminal cuts the title, not the rest; below
        # WIDE columns the specialty and source (the filters above show and choose them,
        # and the id starts with the specialty) make room for the title.
        wide = self.size.width >= WIDE
        self._cases_wide = wide
        fill(self.query_one("#cases-table", DataTable),
             ("ID", "Specialty", "Lang", "Source", "Title") if wide else ("ID", "Lang", "Title"),
             ((c.id, (c.id, c.specialty, c.language, c.source, shown_title(c)) if wide
               else (c.id, c.language, shown_title(c))) for c in self.shown_cases))

    def on_resize(self) -> None:
        """Crossing WIDE columns changes the case table's columns."""
        if self.cases and (self.size.width >= WIDE) != self._cases_wide:
            self.apply_filters()

    def on_select_changed(self, event: Select.Changed) -> None:
        """A filter changed."""
        self.apply_filters()

    def on_input_changed(self, event: Input.Changed) -> None:
        """The search text changed."""
        if event.input.id == "filter-text":
            self.apply_filters()

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        """Focus the tab's table, so Enter and the arrow keys work on it straight away."""
        selector = TAB_TABLES.get(event.pane.id or "")
        if selector is not None:
            self.query_one(selector, DataTable).focus()

    def refresh_db_tables(self) -> None:
        """Re-read consultations, runs, studies and the baseline."""
        store = self.bedside.store
        fill(self.query_one("#consultations-table", DataTable),
             ("Case", "Doctor", "Status", "Verdict", "Turns", "Tests", "Cost $", "Started"),
             ((c.id, (c.case_id, c.doctor, c.status, _verdict(c.correct),
                      *_turns_tests(c), c.cost_usd, _minute(c.started_at)))
              for c in store.list_consultations(include_superseded=True, newest_first=True,
                                                limit=1000)))
        fill(self.query_one("#runs-table", DataTable), RUN_COLUMNS,
             ((r.id, _run_cells(r)) for r in store.list_runs()))
        fill(self.query_one("#studies-table", DataTable),
             ("Study", "Created", "Assignments", "Done"),
             ((s.id, (s.name, (s.created_at or "")[:10], s.assignments, s.done))
              for s in store.study_rows()))
        self.load_baseline(self.bedside.db_path)

    @work(thread=True, exclusive=True, group="baseline", exit_on_error=False)
    def load_baseline(self, db_path: Path) -> None:
        """Thread worker: the Baseline rows, by the results table's rules over every finished
        consultation (more work than a paint should wait for), on a store of its own (a
        connection belongs to the thread that opened it); the table is filled back on the
        event loop."""
        from core.usecases.results import baseline
        from db.store import open_store

        try:
            store = open_store(db_path)
            try:
                rows = baseline(store, humans_only=False)
            finally:
                store.close()
        except Exception as err:  # one line for user errors; the app logs the others
            self.app.call_from_thread(self.bedside.show_error, err)
            return
        self.app.call_from_thread(self.show_baseline, rows)

    def show_baseline(self, rows: list[BaselineRow]) -> None:
        """Fill the Baseline tab: physicians first, then models, each by name."""
        self.baseline_rows = sorted(rows, key=lambda b: (not b.doctor.startswith("human:"),
                                                         b.doctor))
        fill(self.query_one("#baseline-table", DataTable),
             ("Doctor", "N", "Correct", "Accuracy", "95 % CI", "Turns", "Tests", "Minutes"),
             ((b.doctor, (b.doctor, b.n, b.correct, _percent(b.accuracy),
                          _interval(b.ci_low, b.ci_high), b.mean_turns, b.mean_tests,
                          b.mean_minutes))
              for b in self.baseline_rows))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter (or a double click) on a row opens it."""
        key = event.row_key.value
        table_id = event.data_table.id
        if key is None:
            return
        if table_id == "cases-table":
            self.bedside.ask_play(key)
        elif table_id == "consultations-table":
            self.bedside.open_transcript(key)
        elif table_id == "runs-table":
            self.bedside.open_live(run_id=key)
        elif table_id == "studies-table":
            self.bedside.open_study(key)

    def action_play(self) -> None:
        """Play the selected case."""
        key = selected_key(self.query_one("#cases-table", DataTable))
        if key is None:
            self.notify("Choose a case in the Cases tab first.", severity="warning")
            return
        self.bedside.ask_play(key)

    def action_play_patient(self) -> None:
        """Play the patient of the selected case, for a model or scripted doctor."""
        key = selected_key(self.query_one("#cases-table", DataTable))
        if key is None:
            self.notify("Choose a case in the Cases tab first.", severity="warning")
            return
        self.bedside.ask_play_patient(key)

    def action_next_unseen(self) -> None:
        """Play the next case this physician has not seen (within the filters), hidden."""
        self.bedside.ask_play(None, self.chosen_filters())

    def action_live(self) -> None:
        """Open the live runs screen."""
        self.bedside.open_live(run_id=None)

    def action_results(self) -> None:
        """Open the results table."""
        self.bedside.open_results()

    def action_analysis(self) -> None:
        """Open the agreement analysis (of the selected study, on the Studies tab)."""
        study = None
        if self.query_one(TabbedContent).active == "studies":
            study = selected_key(self.query_one("#studies-table", DataTable))
        self.bedside.open_analysis(study)

    def action_fidelity(self) -> None:
        """Open the fidelity figures (of the selected run, on the Runs tab)."""
        from tui.app.screens.fidelity import FidelityScreen

        run = None
        if self.query_one(TabbedContent).active == "runs":
            run = selected_key(self.query_one("#runs-table", DataTable))
        self.app.push_screen(FidelityScreen(run))

    def action_new_study(self) -> None:
        """Open the new-study form."""
        self.bedside.ask_new_study()

    def action_agent_hospital(self) -> None:
        """Ask who plays, then take the Agent Hospital tasks on generated patients."""
        from tui.app.rating.widgets import AskText
        from tui.app.screens.agenthospital import AgentHospitalScreen

        def start(name: str | None) -> None:
            name = (name or "").strip()
            if not name:
                return
            self.bedside.doctor_name = name
            self.app.push_screen(AgentHospitalScreen(name))

        self.app.push_screen(AskText("Agent Hospital: your name (the doctor is human:NAME)",
                                     self.bedside.physician_name()), start)

    def action_evolution(self) -> None:
        """Open the stored evolutions and their learning curves."""
        from tui.app.screens.evolution import EvolutionScreen

        self.app.push_screen(EvolutionScreen())

    def action_hospital(self) -> None:
        """Watch the whole hospital live (start one, or follow `bedside hospital`)."""
        self.bedside.open_hospital()

    def action_refresh(self) -> None:
        """Re-read everything (the worker shows any error)."""
        self.load_cases()

    def action_tab(self, tab: str) -> None:
        """Switch tab by number key."""
        self.query_one(TabbedContent).active = tab
