"""The bedside Textual app: owns the database connection, the case library and live runs.

Screens are pushed on top of the home screen. Long-running work (batches, played
consultations) runs as workers on the App, never on a screen, so it keeps going when the
user switches screens. Heavy modules (the store, the engine, litellm) are imported only
after the first paint or when a consultation starts, to keep start-up under a second.
Every error a worker meets goes through `show_error`, the one place errors become a message.

Must not import at module level: core.engine, core.llm, core.batch, litellm, db, sqlite_utils.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import App
from textual.binding import Binding

from core.errors import BedsideError
from tui.app.screens.home import HomeScreen
from tui.app.services import USER_ERRORS, load_settings, save_settings

if TYPE_CHECKING:
    from sqlite_utils import Database

    from core.batch import Job
    from core.case import Case
    from db.store import SqliteStore
    from tui.app.hospital_watch import HospitalWatch
    from tui.app.live_registry import LiveRegistry
    from tui.app.screens.forms import PlaySetup
    from tui.app.screens.forms_hospital import HospitalRequest
    from tui.app.screens.forms_batch import BatchRequest
    from tui.app.screens.study_form import CreatedStudy


class BedsideApp(App[None]):
    """The terminal workbench."""

    TITLE = "bedside"
    SUB_TITLE = "clinical consultation workbench"
    CSS_PATH = "bedside.tcss"
    # Priority: Help and Quit work on every screen, forms (modal screens) and text boxes
    # included; '?' is not priority, so it can still be typed.
    BINDINGS = [
        Binding("f1", "help", "Help", priority=True),
        Binding("question_mark", "help", "Help", show=False),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, db_path: Path | str | None = None, *, doctor_name: str | None = None,
                 first_paint_hook: Any = None) -> None:
        super().__init__()
        self._db_path = Path(db_path) if db_path else None
        # An explicit name, else $BEDSIDE_DOCTOR; the last name used is read lazily from
        # the settings file when a session is set up (see `physician_name`).
        self.doctor_name = doctor_name or os.environ.get("BEDSIDE_DOCTOR") or ""
        self._store: SqliteStore | None = None
        self._bundled: list[Case] | None = None
        self._live: LiveRegistry | None = None
        self._hospital: HospitalWatch | None = None
        self._first_paint_hook = first_paint_hook
        #: Monotonic clock for elapsed times; tests and snapshots replace it to freeze time.
        self.clock: Any = time.monotonic

    async def action_quit(self) -> None:
        """Quit; on a rating screen with answers not yet saved, ask first (as `q` does)."""
        from tui.app.rating.screen import RatingScreen  # here, not at import: keeps start-up light

        screen = next((s for s in self.screen_stack if isinstance(s, RatingScreen)), None)
        if screen is not None and screen.unsaved():
            self._confirm_quit(screen)
            return
        self.exit()

    @work(exclusive=True, group="quit")
    async def _confirm_quit(self, screen: Any) -> None:
        if await screen.may_discard("Quit without saving the answers on this transcript?"):
            self.exit()

    # -- shared state -------------------------------------------------------------------
    @property
    def db_path(self) -> Path:
        """The --db path, else `db.files.default_db_path()`."""
        if self._db_path is None:
            from db.files import default_db_path

            self._db_path = default_db_path()
        return self._db_path

    async def preload(self) -> None:
        """Import the store and case modules in a thread while the first screen paints."""
        def heavy() -> None:
            import core.caseio  # noqa: F401  (pydantic models, yaml)
            import db.store  # noqa: F401  (sqlite_utils and every repository)

        await asyncio.to_thread(heavy)

    @property
    def store(self) -> SqliteStore:
        """The project's store, opened (and migrated) on first use, on the app's thread."""
        if self._store is None:
            from db.store import open_store

            self._store = open_store(self.db_path)
        return self._store

    @property
    def db(self) -> Database:
        """The store's connection (for the reader-study screens, until their repository is
        behind the store too)."""
        return self.store.db

    async def library(self) -> list[Case]:
        """Bundled plus stored cases; the bundled YAML is parsed in a thread, once."""
        if self._bundled is None:
            from core.caseio import load_bundled_cases

            self._bundled = await asyncio.to_thread(load_bundled_cases)
        from core.usecases.library import library

        return library(self.store, self._bundled)

    @property
    def live(self) -> LiveRegistry:
        """The registry of consultations started in this app (an event sink)."""
        if self._live is None:
            from tui.app.live_registry import LiveRegistry

            self._live = LiveRegistry()
        return self._live

    @property
    def hospital(self) -> HospitalWatch | None:
        """The hospital simulated in this app (the latest one started), if any."""
        return self._hospital

    def physician_languages(self) -> list[str]:
        """The languages the last physician said they read (settings file; [] for all)."""
        saved = load_settings().get("doctor_languages")
        return [str(t) for t in saved] if isinstance(saved, list) else []

    def physician_name(self) -> str:
        """The name to offer in the play form: explicit or $BEDSIDE_DOCTOR, else the last used."""
        if not self.doctor_name:
            saved = load_settings().get("doctor_name")
            self.doctor_name = saved if isinstance(saved, str) else ""
        return self.doctor_name

    # -- lifecycle ----------------------------------------------------------------------
    def on_mount(self) -> None:
        """Show the home screen."""
        self.push_screen(HomeScreen())
        if self._first_paint_hook is not None:
            self.call_after_refresh(self._first_paint_hook, self)

    def show_error(self, err: BaseException) -> None:
        """The one place where errors become a message; user errors are one line."""
        if isinstance(err, BedsideError):
            self.notify(str(err), title=err.title, severity="error", markup=False)
        elif isinstance(err, OSError):
            where = f"{err.filename}: " if err.filename else ""
            self.notify(f"{where}{err.strerror or err}", title="File error",
                        severity="error", markup=False)
        elif isinstance(err, sqlite3.Error):
            self.notify(f"database problem: {err}", title="Database error", severity="error",
                        markup=False)
        else:
            self.log.error(repr(err))
            self.notify(f"{type(err).__name__}: {err}", title="Unexpected error",
                        severity="error", markup=False, timeout=10)

    # -- navigation ---------------------------------------------------------------------
    def action_help(self) -> None:
        """Show the keys of the current screen (F1 again closes the help)."""
        from tui.app.screens.help import HelpScreen, screen_keys

        if isinstance(self.screen, HelpScreen):
            self.screen.dismiss(None)
            return
        screen = self.screen
        self.push_screen(HelpScreen(screen_keys(screen), getattr(screen, "HELP", "")))

    def open_transcript(self, consultation_id: str) -> None:
        """Show a stored consultation."""
        from tui.app.screens.transcript import TranscriptScreen

        self.push_screen(TranscriptScreen(consultation_id))

    def ask_play(self, case_id: str | None, filters: dict[str, str] | None = None) -> None:
        """Ask for the physician's name, budget and agents, then start playing `case_id`.

        `case_id=None` means the next case this physician has not seen among those matching
        `filters` (specialty, language, source), identity hidden.
        """
        from tui.app.screens.forms import PlaySetupScreen

        def start(setup: PlaySetup | None) -> None:
            if setup is None:
                return
            self.doctor_name = setup.name
            try:
                save_settings(doctor_name=setup.name, doctor_languages=setup.languages)
            except OSError as err:  # remembering the name is a convenience, never fatal
                self.log.warning(f"settings not saved: {err!r}")
            self.run_worker(self.start_play(setup), group="play", exit_on_error=False)

        self.push_screen(PlaySetupScreen(case_id, self.physician_name(), filters or {},
                                         self.physician_languages()), start)

    async def start_play(self, setup: PlaySetup) -> None:
        """Resolve the case (next unseen if none chosen) and push the play screen."""
        from core.usecases.play import next_case
        from tui.app.screens.play import PlayScreen

        try:
            cases = await self.library()
            case = next_case(self.store, cases, setup.filters, setup.name, setup.languages) \
                if setup.case_id is None else None
        except USER_ERRORS as err:
            self.show_error(err)
            return
        if setup.case_id is None:
            if case is None:
                which = ", ".join(f"{k} {v}" for k, v in sorted(setup.filters.items()))
                if setup.languages and "language" not in setup.filters:
                    which = ", ".join(filter(None, (which, "in " + " or ".join(
                        setup.languages))))
                self.notify("You have played every case in the library"
                            + (f" with {which} (change the filters on the Cases tab)."
                               if which else "."), severity="warning", markup=False)
                return
            hidden = True
        else:
            found = [c for c in cases if c.id == setup.case_id]
            if not found:
                self.notify("That case is no longer in the library.", severity="error")
                return
            case, hidden = found[0], False
        await self.push_screen(PlayScreen(case, setup, hidden=hidden))

    def ask_play_patient(self, case_id: str) -> None:
        """Ask for the actor's name, the doctor, budget and bias, then play the patient."""
        from tui.app.screens.patient_play import (ActorSetup, ActorSetupScreen,
                                                  PatientPlayScreen)

        async def start(setup: ActorSetup | None) -> None:
            if setup is None:
                return
            try:
                found = [c for c in await self.library() if c.id == setup.case_id]
            except USER_ERRORS as err:
                self.show_error(err)
                return
            if not found:
                self.notify("That case is no longer in the library.", severity="error")
                return
            await self.push_screen(PatientPlayScreen(found[0], setup))

        self.push_screen(ActorSetupScreen(case_id, self.physician_name()),
                         lambda setup: self.run_worker(start(setup), group="play",
                                                       exit_on_error=False))

    def open_live(self, run_id: str | None = None) -> None:
        """Show live runs (attached to `run_id` from the database, if given)."""
        from tui.app.screens.live import LiveScreen

        self.push_screen(LiveScreen(run_id=run_id))

    def start_batch(self, req: BatchRequest) -> None:
        """Start a batch as a worker on the App (it outlives every screen)."""
        self.run_worker(self._batch(req), group="runs", exit_on_error=False,
                        name="in-app batch")

    async def _batch(self, req: BatchRequest) -> None:
        """Run cases × doctors as a stored run, exactly as `bedside run` would (same stored
        configuration, so `bedside run --resume` can finish it; status set however it
        ends), streaming every event to the live registry. Each consultation is registered
        before the batch starts and can be cancelled on its own (or all at once)."""
        from core.selection import select_cases
        from core.usecases import runs

        try:
            cases = select_cases(await self.library(), req.cases or None, req.limit)
            configs = [runs.model_config(m, req.api_base, req.patient, req.examiner)
                       for m in req.models]
            spec = runs.create(self.store, cases, configs, concurrency=req.concurrency,
                               origin="app")
            await runs.execute(self.store, spec, plan=self._live_plan(spec.run_id),
                               extra_sink=self.live)
            message, severity = runs.outcome_message(self.store, spec.run_id)
        except Exception as err:  # user errors are one line; bugs are logged (show_error)
            self.show_error(err)
            return
        self.notify(message, severity=severity, markup=False, timeout=8)

    def _live_plan(self, run_id: str) -> Any:
        """The batch's plan: each job gets an id and a cancel event from the live registry."""
        from core.batch import JobControl
        from core.ids import new_id
        from tui.app.live_registry import LiveItem

        def plan(job: Job) -> JobControl:
            # display(): the label, the model, or the kind ('scripted' for the offline doctor).
            label = job.config.doctor.display()
            item = self.live.register(LiveItem(
                new_id("c-"), job.case.id,
                label + (" [one-step]" if job.mode == "one_step" else ""), run_id=run_id))
            return JobControl(item.consultation_id, item.cancel_event)

        return plan

    def open_hospital(self) -> None:
        """Show the whole hospital, live."""
        from tui.app.screens.hospital import HospitalScreen

        self.push_screen(HospitalScreen())

    def start_hospital(self, req: HospitalRequest) -> None:
        """Simulate a hospital as a worker on the App (it outlives every screen)."""
        from tui.app.hospital_watch import HospitalWatch

        watch = HospitalWatch(req.physician, req.department)
        self._hospital = watch
        if req.physician:
            self.doctor_name = req.physician
        self.run_worker(self._simulate(req, watch), group="hospital", exit_on_error=False,
                        name="hospital")

    async def _simulate(self, req: HospitalRequest, watch: HospitalWatch) -> None:
        """Run and record the hospital exactly as `bedside hospital` would (origin 'app'),
        its events to the watch; the physician's department asks through it."""
        from core.usecases.hospital import run_hospital

        try:
            result = await run_hospital(self.store, req.settings, origin="app", sink=watch,
                                        human_input=watch.ask, cancel_event=watch.cancel_event,
                                        on_run=watch.set_run, pace=req.pace)
        except Exception as err:  # user errors are one line; bugs are logged (show_error)
            watch.error = str(err)
            self.show_error(err)
            return
        finally:
            watch.finished = True
        self.notify(f"Hospital {result.run_id}: {result.status} on day {result.state.day}.",
                    markup=False, timeout=8)

    def open_results(self) -> None:
        """Show the results table (humans and models side by side)."""
        from tui.app.screens.results import ResultsScreen

        self.push_screen(ResultsScreen())

    def open_analysis(self, study: str | None = None) -> None:
        """Show the agreement analysis (of `study`, if given, else the newest study)."""
        from tui.app.screens.analysis import AnalysisScreen

        self.push_screen(AnalysisScreen(study))

    def ask_new_study(self) -> None:
        """Ask for a study definition; on success the Studies tab shows the new study."""
        from tui.app.screens.study_form import StudyFormScreen

        self.push_screen(StudyFormScreen(), self._study_created)

    def _study_created(self, created: CreatedStudy | None) -> None:
        if created is None:
            return
        self.notify(f"Study '{created.name}' created with {created.transcripts} transcripts.",
                    markup=False)
        if isinstance(self.screen, HomeScreen):
            self.screen.refresh_db_tables()
            self.screen.action_tab("studies")

    def open_study(self, study_id: str) -> None:
        """Open the rating screen of a study (tui.app.rating.screen, written separately).

        HOOK: tui.app.rating.screen is owned by another engineer; until it offers `open_study(app,
        study_id)` (or `RatingScreen(study_id)`), the user is told it is not available.
        """
        try:
            import tui.app.rating.screen as rating
        except ModuleNotFoundError:
            self.notify("Rating is not available in this build yet.", severity="warning")
            return
        opener = getattr(rating, "open_study", None)
        screen_cls = getattr(rating, "RatingScreen", None)
        if opener is not None:
            opener(self, study_id)
        elif screen_cls is not None:
            self.push_screen(screen_cls(study_id))
        else:
            self.notify("Rating screen has no entry point yet.", severity="warning")
