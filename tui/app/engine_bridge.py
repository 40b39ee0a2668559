"""The one place the app reaches the engine: play sessions and in-app batches.

Imports `core.engine` (and through it litellm, lazily and off the event loop) only when
called, never at start-up; `preload_models` starts litellm's import in a background thread
so the first model batch does not wait for it. Play sessions: the case row exists before
the consultation (foreign key), and a consultation the user cancels is stored as
'cancelled' even if the engine was interrupted mid-turn. Batches are `core.usecases.runs`,
the orchestration `bedside run` uses, with the live registry as an extra sink and per-job
cancel events.

Must not import at module level: core.engine, core.batch, core.llm, core.usecases, litellm.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from core.case import Case
from core.events import ConsultationFailed, EventSink, FanOut
from core.transcript import EndReason, Transcript

if TYPE_CHECKING:
    from sqlite_utils import Database

    from tui.app.services import AppServices
    from tui.app.screens.forms import PlaySetup


def load_engine() -> ModuleType:
    """`core.engine`, imported on first use (tests replace this function)."""
    import importlib

    from core.errors import BedsideError

    try:
        return importlib.import_module("core.engine")
    except ModuleNotFoundError as err:
        if err.name not in ("core.engine", "core.config"):
            raise
        raise BedsideError("the consultation engine (core/engine.py) is not available in "
                           "this build", title="Cannot start") from None


def preload_models() -> None:
    """Start importing litellm in a background thread (returns at once; idempotent)."""
    from core.llm import preload

    preload()


def mark_cancelled(db: Database, consultation_id: str, sink: EventSink,
                   reason: str = "cancelled by the user") -> None:
    """Emit a cancellation for a consultation still 'running' (or never started) in the store."""
    row = db.execute("SELECT status, doctor_turns FROM consultations WHERE id = ?",
                     [consultation_id]).fetchone()
    if row is None or row[0] != "running":
        return
    sink.emit(ConsultationFailed(consultation_id=consultation_id,
                                 end_reason=EndReason.CANCELLED, reason=reason,
                                 doctor_turns=row[1] or 0))


def _agents(doctor: str, patient: str, examiner: str, api_base: str | None,
            **rules: Any) -> Any:
    from core.config import parse_config

    params = {"api_base": api_base} if api_base else {}
    return parse_config(doctor, patient or "retrieval", examiner or "retrieval", "exact",
                        params=params, **rules)


def human_config(name: str, patient: str = "retrieval", examiner: str = "retrieval",
                 api_base: str | None = None, *, max_turns: int = 20) -> Any:
    """The consultation config of a physician session: `human:NAME` plays the doctor; the
    patient and examiner are agent strings (`retrieval`, offline, by default, or a model
    string reached through `api_base`). Raises InputError (one line) for a bad agent."""
    config = _agents("human", patient, examiner, api_base, max_turns=max_turns)
    doctor = config.doctor.model_copy(update={"label": f"human:{name}"})
    return config.model_copy(update={"doctor": doctor})


async def run_human(app: AppServices, case: Case, setup: PlaySetup, *, consultation_id: str,
                    sink: EventSink, next_action: Callable[..., Awaitable[Any]],
                    cancel_event: asyncio.Event) -> Transcript | None:
    """Run one physician session through the engine, recording every event as it happens."""
    from db.cases import save_cases
    from db.consultations import Recorder

    db = app.db
    if not db["cases"].count_where("id = ?", [case.id]):
        save_cases(db, [case])
    recorder = Recorder(db)
    fan = FanOut(recorder, sink)
    engine = load_engine()
    config = human_config(setup.name, getattr(setup, "patient", "retrieval"),
                          getattr(setup, "examiner", "retrieval"),
                          getattr(setup, "api_base", None), max_turns=setup.budget)
    try:
        return await engine.run_consultation(
            case, config, fan, consultation_id=consultation_id, cancel_event=cancel_event,
            human_input=next_action)
    except asyncio.CancelledError:
        mark_cancelled(db, consultation_id, fan)
        raise
    finally:
        if cancel_event.is_set():
            mark_cancelled(db, consultation_id, fan)


def model_config(doctor: str, api_base: str | None, patient: str = "retrieval",
                 examiner: str = "retrieval") -> Any:
    """The consultation config of a batch entry: the doctor is `offline` (the scripted
    doctor) or a model string; patient and examiner are agent strings (default retrieval).
    Models are reached through `api_base` when given. Raises InputError (one line)."""
    return _agents("scripted" if doctor == "offline" else doctor, patient, examiner, api_base)


def config_label(config: Any, model: str) -> str:
    """What the live table shows as the doctor."""
    doctor = getattr(config, "doctor", None)
    return str(getattr(doctor, "label", None) or getattr(doctor, "model", None) or model)


async def run_batch_in_app(app: AppServices, cases: list[Case], models: list[str],
                           concurrency: int, api_base: str | None = None, *,
                           patient: str = "retrieval", examiner: str = "retrieval",
                           one_step: bool = False) -> str:
    """Run cases × doctors as a stored run, exactly as `bedside run` would (same stored
    configuration, so `bedside run --resume` can finish it; status set however it ends),
    streaming every event to the app's live registry. Each consultation is registered
    before the batch starts and can be cancelled on its own (or all at once)."""
    from core.batch import Job, JobControl
    from core.ids import new_id
    from core.usecases import runs
    from db.store import SqliteStore
    from tui.app.live_registry import LiveItem

    store, registry = SqliteStore(app.db), app.live
    configs = [model_config(m, api_base, patient, examiner) for m in models]
    spec = runs.create(store, cases, configs, concurrency=concurrency, one_step=one_step,
                       origin="app")

    def plan(job: Job) -> JobControl:
        label = config_label(job.config, "")
        item = registry.register(LiveItem(new_id("c-"), job.case.id,
                                          label + (" [one-step]" if job.mode == "one_step"
                                                   else ""), run_id=spec.run_id))
        return JobControl(item.consultation_id, item.cancel_event)

    await runs.execute(store, spec, plan=plan, extra_sink=registry)
    return spec.run_id
