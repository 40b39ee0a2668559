"""The one place the app reaches the engine: play sessions and in-app batches.

Imports `core.engine` (and through it litellm, lazily) only when called, never at start-up.
Guarantees the store's invariants the UI relies on: the case row exists before the
consultation (foreign key), and a consultation the user cancels is stored as 'cancelled'
even if the engine was interrupted mid-turn.

Must not import at module level: core.engine, core.batch, litellm.
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

    from tui.app import BedsideApp
    from tui.screens.forms import PlaySetup


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


def human_config(engine: ModuleType, setup: PlaySetup) -> Any:
    """The consultation config of a physician session: offline patient and examiner."""
    from core.config import AgentSpec, ConsultationConfig

    return ConsultationConfig(doctor=AgentSpec(kind="human", label=f"human:{setup.name}"),
                              max_turns=setup.budget)


async def run_human(app: BedsideApp, case: Case, setup: PlaySetup, *, consultation_id: str,
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
    config = human_config(engine, setup)
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


def model_config(engine: ModuleType, model: str, api_base: str | None = None) -> Any:
    """The consultation config of a batch entry: `offline` or a model string for the doctor."""
    from core.config import AgentSpec, ConsultationConfig

    if model == "offline":
        return ConsultationConfig()
    return ConsultationConfig(doctor=AgentSpec(kind="llm", model=model, api_base=api_base))


def config_label(config: Any, model: str) -> str:
    """What the live table shows as the doctor."""
    doctor = getattr(config, "doctor", None)
    return str(getattr(doctor, "label", None) or getattr(doctor, "model", None) or model)


async def _one(app: BedsideApp, engine: ModuleType, case: Case, config: Any, item: Any,
               sink: EventSink, sem: asyncio.Semaphore) -> None:
    """Run one consultation of an in-app batch; cancellation is stored, errors are shown."""
    from core.events import ConsultationStarted

    db = app.db
    try:
        async with sem:
            if item.cancel_event.is_set():
                raise asyncio.CancelledError
            await engine.run_consultation(case, config, sink,
                                          consultation_id=item.consultation_id,
                                          run_id=item.run_id, cancel_event=item.cancel_event)
    except asyncio.CancelledError:
        if not db["consultations"].count_where("id = ?", [item.consultation_id]):
            sink.emit(ConsultationStarted(consultation_id=item.consultation_id, case_id=case.id,
                                          run_id=item.run_id, config={"doctor": item.doctor}))
        mark_cancelled(db, item.consultation_id, sink)
    except Exception as err:  # the engine records failures; the run goes on
        app.show_error(err)
    finally:
        if item.cancel_event.is_set():
            mark_cancelled(db, item.consultation_id, sink)


async def run_batch_in_app(app: BedsideApp, cases: list[Case], models: list[str],
                           concurrency: int, api_base: str | None = None) -> str:
    """Run cases × models with bounded concurrency, each consultation individually cancellable."""
    from core.ids import new_id
    from db.cases import save_cases
    from db.consultations import Recorder
    from db.runs import create_run, set_run_status
    from tui.screens.live_model import LiveItem

    db, registry = app.db, app.live
    engine = load_engine()
    configs = [(m, model_config(engine, m, api_base)) for m in models]
    save_cases(db, [c for c in cases if not db["cases"].count_where("id = ?", [c.id])])
    run_id = create_run(db, config={"models": models, "cases": [c.id for c in cases],
                                    "concurrency": concurrency}, provenance={"origin": "app"})
    sink = FanOut(Recorder(db), registry)
    sem = asyncio.Semaphore(concurrency)
    tasks = []
    for case in cases:
        for model, config in configs:
            item = registry.register(LiveItem(new_id("c-"), case.id, config_label(config, model),
                                              run_id=run_id))
            item.task = asyncio.create_task(_one(app, engine, case, config, item, sink, sem))
            tasks.append(item.task)
    results = await asyncio.gather(*tasks, return_exceptions=True)
    cancelled = any(isinstance(r, asyncio.CancelledError) for r in results) or any(
        registry.items[i].status == "cancelled" for i in registry.items
        if registry.items[i].run_id == run_id)
    set_run_status(db, run_id, "cancelled" if cancelled else "finished")
    return run_id
