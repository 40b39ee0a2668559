"""What screens may ask of the app: the `AppServices` protocol, the user-error tuple and the
small settings file.

Screens see the app only through `AppServices` (via `screens.base.BedsideScreen.bedside`),
so no screen imports the application module and the screen modules form no import loop
with it. `application.BedsideApp` implements the protocol.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from core.errors import BedsideError

if TYPE_CHECKING:
    from sqlite_utils import Database
    from textual.worker import Worker
    from textual.worker_manager import WorkerManager

    from core.case import Case
    from db.store import SqliteStore
    from tui.app.hospital_watch import HospitalWatch
    from tui.app.live_registry import LiveRegistry

#: Errors caused by the user's input or environment: shown as one line, the app goes on.
#: Anything else is a bug: it is logged and shown with its type (`AppServices.show_error`).
USER_ERRORS: tuple[type[BaseException], ...] = (BedsideError, OSError, sqlite3.Error)


class AppServices(Protocol):
    """The app as its screens see it: shared state, navigation and the error path."""

    clock: Callable[[], float]
    doctor_name: str

    @property
    def store(self) -> SqliteStore:
        """The project's store (opened and migrated on first use, on the app's thread):
        screens read and write through it and the use cases."""
        ...

    @property
    def db(self) -> Database:
        """The store's raw connection, for the reader-study screens until their repository
        is behind the store too (`store.db`)."""
        ...

    @property
    def db_path(self) -> Path:
        """Where the project database lives."""
        ...

    @property
    def live(self) -> LiveRegistry:
        """Consultations started in this app (an event sink)."""
        ...

    @property
    def hospital(self) -> HospitalWatch | None:
        """The hospital simulated in this app (the latest one started), if any."""
        ...

    def start_hospital(self, req: Any) -> None:
        """Simulate a hospital in the app (a worker on the App)."""
        ...

    @property
    def workers(self) -> WorkerManager:
        """The app's workers (long runs live on the app, not on a screen)."""
        ...

    def run_worker(self, work: Any, *args: Any, **kwargs: Any) -> Worker[Any]:
        """Start a worker on the app."""
        ...

    async def preload(self) -> None:
        """Import the heavy modules in a thread."""
        ...

    def library(self) -> Awaitable[list[Case]]:
        """Bundled plus stored cases."""
        ...

    def physician_languages(self) -> list[str]:
        """The languages the last physician said they read ([] for every language)."""
        ...

    def show_error(self, err: BaseException) -> None:
        """The one place errors become a message."""
        ...

    def open_transcript(self, consultation_id: str) -> None:
        """Show a stored consultation."""
        ...

    def ask_play(self, case_id: str | None, filters: dict[str, str] | None = None) -> None:
        """Set up and play a case (None: the next unseen one)."""
        ...

    def ask_play_patient(self, case_id: str) -> None:
        """Set up and play the patient of a case for a model or scripted doctor."""
        ...

    def open_live(self, run_id: str | None = None) -> None:
        """Show live runs."""
        ...

    def open_hospital(self) -> None:
        """Show the whole hospital, live."""
        ...

    def start_batch(self, req: Any) -> None:
        """Start an in-app batch."""
        ...

    def open_results(self) -> None:
        """Show the results table."""
        ...

    def open_analysis(self, study: str | None = None) -> None:
        """Show the agreement analysis."""
        ...

    def ask_new_study(self) -> None:
        """Ask for a new study definition."""
        ...

    def open_study(self, study_id: str) -> None:
        """Open the rating screen of a study."""
        ...


def settings_path() -> Path:
    """The small settings file (last physician name and the languages they read) in the
    bedside home directory."""
    from db.files import bedside_home

    return bedside_home() / "settings.json"


def load_settings() -> dict[str, Any]:
    """The saved settings; {} when there are none or the file is unreadable (never fatal)."""
    try:
        data = json.loads(settings_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_settings(**changes: Any) -> None:
    """Merge `changes` into the settings file (written whole, then renamed into place)."""
    path = settings_path()
    data = {**load_settings(), **changes}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)
