"""The whole hospital, live: the stations with their counts, each department's queue and
who is in consultation, and the patients moving through as a log — for a hospital started
here (`s`) or one started by `bedside hospital` in another terminal (read from the
database).

The screen is an observer. A simulation started here runs as a worker on the App and
emits its events to the app's `HospitalWatch` (the reducer `core.hospital.state`); one
started elsewhere is read from its stored events, the new ones every half second, into a
reducer of the screen's own. Either way the view is re-rendered only when the state's
version changed. When the physician took a department, the patient waiting for them
appears here as a short form per task (as in Agent Hospital's tasks, `t` at home): the
simulation waits for the answer.

Must not import at module level: core.engine, litellm.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Header, OptionList, Static
from textual.widgets.option_list import Option

from core.hospital.state import HospitalState
from tui.app.screens.base import BedsideScreen
from tui.app.screens.forms_hospital import HospitalFormScreen, HospitalRequest
from tui.app.widgets.footer import KeyFooter
from tui.app.widgets.literal import literal
from tui.app.widgets.tables import fill

COLUMNS = ("Department", "Doctor", "Cap", "Queue", "In consultation", "Seen", "Exam", "Diag",
           "Treat")
#: Below this many columns the table names departments by id and leaves out the capacity.
NARROW = 100
NARROW_COLUMNS = ("Dept", "Doctor", "Queue", "Now", "Seen", "Exam", "Diag", "Treat")
_SHORT = {"examination": "exam", "diagnosis": "diag", "treatment": "treat",
          "dispensary": "disp"}
TITLES = {"examination": "1/3 Examination: which one examination?",
          "diagnosis": "2/3 Diagnosis: which disease?",
          "treatment": "3/3 Treatment: which level for this patient?"}
DB_EVERY = 5  # ticks (of 0.1 s) between reads of a hospital started elsewhere


def _pct(right: int, n: int) -> str:
    return f"{right / n:.0%}" if n else "—"


def department_rows(state: HospitalState, narrow: bool = False
                    ) -> list[tuple[str, tuple[Any, ...]]]:
    """One row per department: doctor, capacity, the queue (count and its head), who is in
    consultation at which task, consultations and the three accuracies so far (`narrow`:
    the department's id, no capacity, a shorter queue and task)."""
    rows = []
    for d in state.departments:
        dept = str(d.get("id"))
        queue = state.queues.get(dept, [])
        shown = 2 if narrow else 3
        head = " ".join(queue[:shown]) + (" …" if len(queue) > shown else "")
        now = state.current.get(dept)
        t = state.tally(dept)
        task = (_SHORT.get(now[1], now[1]) if narrow else now[1]) if now else ""
        scores = (t.seen, *(_pct(t.right[k], t.answered[k])
                            for k in ("examination", "diagnosis", "treatment")))
        cells = (dept if narrow else d.get("name"), d.get("doctor"),
                 *(() if narrow else (d.get("capacity"),)),
                 f"{len(queue)}: {head}" if queue else "0",
                 f"{now[0]} {task}" if now else "—", *scores)
        rows.append((dept, cells))
    return rows


def stations_text(state: HospitalState) -> Text:
    """The stations in a patient's order: today's flows (ill, triage, dispensary,
    follow-up) and where everyone is now (queued, in consultation, home, recovered)."""
    flow = state.flows.get(state.day)
    census = state.census()
    parts = [("ill", flow.ill if flow else 0), ("triage", flow.triaged if flow else 0),
             ("queued", census["queue"]), ("consulting", census["consultation"]),
             ("dispensary", flow.dispensed if flow else 0), ("home", census["home"]),
             ("follow-up", flow.followed_up if flow else 0),
             ("recovered", census["recovered"])]
    text = Text()
    for i, (name, n) in enumerate(parts):
        if i:
            text.append(" → ", style="dim")
        text.append(f"{name} ")
        text.append(f"{n}", style="bold")
    return text


def last_patient(state: HospitalState, department: str | None) -> str:
    """How the department's last patient went, e.g. 'r0046: examination right, diagnosis
    right, treatment wrong' ('' before the first)."""
    said: list[str] = []
    patient = None
    for e in reversed(state.log):
        if e.department != department or e.station not in _SHORT or e.what != "answered":
            continue
        if patient is not None and e.patient != patient:
            break
        patient = e.patient
        said.insert(0, f"{e.station} {'right' if e.detail.get('correct') else 'wrong'}")
    return f"last patient {patient}: {', '.join(said)}" if patient else ""


class HospitalScreen(BedsideScreen):
    """The live hospital (see the module docstring)."""

    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("s", "start", "Start hospital"),
        Binding("x", "stop", "Stop"),
        Binding("a", "attach", "Attach"),
    ]
    HELP = ("The stations in a patient's order: fell ill, triaged, dispensed and followed "
            "up count today's patients; queued, consulting, home (until the follow-up) and "
            "recovered say where everyone is now. Then a row per department — its "
            "doctor, capacity a day, its queue (how many, the first in line), who is in "
            "consultation and at which task, the accuracies so far — and the patients "
            "moving as a log. s starts a hospital here (you may take one department: your "
            "patients appear as a form per task and the simulation waits for you); x stops "
            "it; it goes on when you leave this screen. a attaches to the newest hospital "
            "in the database, e.g. `bedside hospital --pace 0.2` in another terminal (read "
            "from its stored events).")

    def __init__(self, run_id: str | None = None) -> None:
        super().__init__()
        self.run_id = run_id
        self.db_state: HospitalState | None = None  # a hospital read from the database
        self.shown = (-1, -1)
        self.shown_question = 0
        self.ticks = 0

    def compose(self) -> ComposeResult:
        """Status, stations, departments, the physician's form, the log."""
        yield Header()
        yield Static(id="hosp-status")
        yield Static(id="hosp-stations")
        yield DataTable(id="hosp-departments", cursor_type="row", zebra_stripes=True)
        yield Static(id="hosp-question")
        yield OptionList(id="hosp-options")
        with VerticalScroll(id="hosp-log-box"):
            yield Static(id="hosp-log")
        yield KeyFooter()

    def on_mount(self) -> None:
        """Follow the hospital running here, else the given or newest one stored."""
        self.query_one("#hosp-options").display = False
        self.query_one("#hosp-question").display = False
        watch = self.bedside.hospital
        if self.run_id is None and watch is None:
            self.action_attach(quiet=True)
        elif self.run_id is not None and (watch is None or watch.run_id != self.run_id):
            self.db_state = HospitalState()
        self.set_interval(0.1, self.tick)
        self.tick()

    # -- data -----------------------------------------------------------------------------
    @property
    def state(self) -> HospitalState | None:
        """The state shown: the database's when attached, else the in-app hospital's."""
        if self.db_state is not None:
            return self.db_state
        watch = self.bedside.hospital
        return watch.state if watch is not None else None

    def tick(self) -> None:
        """Read new stored events (attached), show a waiting question, re-render."""
        self.ticks += 1
        if self.db_state is not None and self.run_id and (self.ticks % DB_EVERY == 1):
            for event in self.bedside.store.hospital_events(self.run_id, self.db_state.seq):
                self.db_state.apply(event)
        self.show_question()
        self.render_state()

    def render_state(self) -> None:
        """Everything, when the state changed."""
        state = self.state
        stamp = (id(state), state.version if state is not None else -1)
        if stamp == self.shown:
            return
        self.shown = stamp
        self.query_one("#hosp-status", Static).update(self.status_text(state))
        if state is None:
            return
        self.query_one("#hosp-stations", Static).update(stations_text(state))
        narrow = self.size.width < NARROW
        fill(self.query_one("#hosp-departments", DataTable),
             NARROW_COLUMNS if narrow else COLUMNS, department_rows(state, narrow))
        self.render_log(state)

    def render_log(self, state: HospitalState) -> None:
        """The latest events, newest last (kept scrolled to the end)."""
        from tui.text.hospital import event_line

        names = {str(d.get("id")): str(d.get("name")) for d in state.departments}
        # A physician taking a department must not read its patients' diagnoses here first.
        blind = any(str(d.get("doctor", "")).startswith("human") for d in state.departments)
        lines = [event_line(e, names, blind=blind) for e in list(state.log)[-60:]]
        self.query_one("#hosp-log", Static).update(literal("\n".join(lines)))
        self.query_one("#hosp-log-box", VerticalScroll).scroll_end(animate=False)

    def status_text(self, state: HospitalState | None) -> Text:
        """Which hospital, its day and status, and its settings."""
        if state is None:
            return Text("No hospital yet: s starts one here; `bedside hospital` in another "
                        "terminal, then a, shows it live.", style="bold")
        o = state.opened
        watch = self.bedside.hospital
        here = self.db_state is None and watch is not None
        run = (watch.run_id if here and watch is not None else self.run_id) or "starting"
        text = Text(f"Day {state.day} of {o.get('days', '?')} · {state.status} · ",
                    style="bold")
        text.append_text(literal(f"{run} · {o.get('residents', '?')} residents, seed "
                                 f"{o.get('seed', '?')}, triage {o.get('triage', '?')}"))
        if not here:
            text.append(" · read from the database (stop it in its own terminal)", style="dim")
        elif watch is not None and watch.department:
            text.append_text(literal(f" · you ({watch.physician}) take {watch.department}"))
        return text

    def on_resize(self) -> None:
        """Lay the table out again for the new width."""
        self.shown = (-1, -1)

    # -- the physician's department -------------------------------------------------------
    def show_question(self) -> None:
        """Show the physician's pending task, once; hide the form when none is pending."""
        watch = self.bedside.hospital
        question = watch.question if watch is not None and self.db_state is None else None
        options = self.query_one("#hosp-options", OptionList)
        box = self.query_one("#hosp-question", Static)
        if question is None:
            if options.display:
                self._asking(False)
            return
        if watch is None or watch.asked == self.shown_question:
            return
        self.shown_question = watch.asked
        text = Text(TITLES.get(question.task, ""), style="bold")
        last = last_patient(watch.state, watch.department) if question.task == "examination" \
            else None
        if last:
            text.append(f"  ({last})", style="dim")
        text.append("\n")
        text.append_text(literal(question.context()))
        box.update(text)
        plans = question.plans or {}
        options.clear_options()
        options.add_options([Option(literal(f"{o}: {plans[o]}" if o in plans else o), id=o)
                             for o in question.options])
        self._asking(True)
        options.highlighted = 0
        options.focus()

    def _asking(self, on: bool) -> None:
        """The physician's form in place of the departments and the log (room to read the
        patient's account and finding at 80×24), or back."""
        for name in ("#hosp-question", "#hosp-options"):
            self.query_one(name).display = on
        for name in ("#hosp-departments", "#hosp-log-box"):
            self.query_one(name).display = not on

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on an option answers the physician's task."""
        watch = self.bedside.hospital
        if watch is not None and event.option.id and watch.answer(event.option.id):
            self._asking(False)

    # -- actions --------------------------------------------------------------------------
    def action_start(self) -> None:
        """Ask for the hospital's settings, then simulate it on the App."""
        watch = self.bedside.hospital
        if watch is not None and watch.running:
            self.notify("A hospital is already running here: x stops it.", severity="warning")
            return

        def start(req: HospitalRequest | None) -> None:
            if req is not None:
                self.db_state, self.run_id, self.shown = None, None, (-1, -1)
                self.bedside.start_hospital(req)

        self.app.push_screen(HospitalFormScreen(self.bedside.physician_name()), start)

    def action_stop(self) -> None:
        """Stop the hospital running here."""
        watch = self.bedside.hospital
        if self.db_state is not None or watch is None or not watch.running:
            self.notify("No hospital is running in this window (one started in another "
                        "terminal stops there with Ctrl+C).", severity="warning")
            return
        watch.stop()
        self.notify("Stopping the hospital…")

    def action_attach(self, quiet: bool = False) -> None:
        """Show the newest hospital in the database (e.g. `bedside hospital` elsewhere)."""
        from core.usecases.hospital import hospital_runs

        found = hospital_runs(self.bedside.store)
        if not found:
            if not quiet:
                self.notify("No hospital in this database yet.", severity="warning")
            return
        self.run_id, self.db_state, self.shown, self.ticks = found[0].id, HospitalState(), \
            (-1, -1), 0
