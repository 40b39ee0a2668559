"""Batches: run (case, config) jobs under a global and per-model concurrency limit.

Failures are isolated per consultation (the engine records them; anything that still
escapes is recorded here) and the batch goes on. A batch resumes: jobs whose
(case_id, config_key) the store reports as done for the run are skipped, so nothing is
redone or duplicated. Cancelling stops new jobs from starting and records the running
ones as cancelled. Per-model limits bound how many consultations using a model run at
once (a consultation using several models holds a slot of each).

Must not import: textual, rich, litellm, or any other bedside package (db, tui).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from core.case import Case
from core.config import ConsultationConfig
from core.engine import run_consultation
from core.events import (ConsultationFailed, ConsultationFinished, ConsultationStarted,
                         Event, EventSink)
from core.ids import new_id
from core.llm import LLMClient
from core.transcript import EndReason

log = logging.getLogger("bedside.batch")
Progress = Callable[[int, int, "JobOutcome"], None]


class BatchStore(Protocol):
    """What a batch needs from the store."""

    def done_keys(self, run_id: str) -> set[tuple[str, str]]:
        """(case_id, config_key) pairs of the run already finished or failed."""
        ...

    def sink(self) -> EventSink:
        """A sink that records every event (and commits each completed turn)."""
        ...


@dataclass
class JobOutcome:
    """How one job of a batch ended."""

    case_id: str
    config_key: str
    consultation_id: str | None
    status: str  # finished | failed | cancelled | skipped
    end_reason: str | None = None
    reason: str | None = None
    correct: bool | None = None


class MemoryBatchStore:
    """An in-memory BatchStore for tests: keeps every event per consultation."""

    def __init__(self) -> None:
        self.events: dict[str, list[Event]] = {}
        self.started: dict[str, ConsultationStarted] = {}

    def emit(self, event: Event) -> None:
        """Record an event."""
        self.events.setdefault(event.consultation_id, []).append(event)
        if isinstance(event, ConsultationStarted):
            self.started[event.consultation_id] = event

    def sink(self) -> EventSink:
        """This store is its own sink."""
        return self

    def status(self, consultation_id: str) -> str:
        """running | finished | failed | cancelled."""
        for e in reversed(self.events.get(consultation_id, [])):
            if isinstance(e, ConsultationFinished):
                return "finished"
            if isinstance(e, ConsultationFailed):
                return "cancelled" if e.end_reason == EndReason.CANCELLED else "failed"
        return "running"

    def done_keys(self, run_id: str) -> set[tuple[str, str]]:
        """Finished or failed (not cancelled, not running) pairs of the run."""
        return {(s.case_id, s.config.get("config_key", "")) for cid, s in self.started.items()
                if s.run_id == run_id and self.status(cid) in ("finished", "failed")}


class _Watch:
    """Sink wrapper that remembers how its consultation ended."""

    def __init__(self, inner: EventSink) -> None:
        self.inner = inner
        self.last: Event | None = None

    def emit(self, event: Event) -> None:
        """Pass the event on, noting a final one."""
        if isinstance(event, ConsultationFinished | ConsultationFailed):
            self.last = event
        self.inner.emit(event)


def _outcome(case: Case, key: str, cid: str, last: Event | None) -> JobOutcome:
    if isinstance(last, ConsultationFinished):
        decided = [v.correct for v in last.verdicts if v.correct is not None]
        return JobOutcome(case.id, key, cid, "finished", str(last.end_reason),
                          correct=decided[0] if decided else None)
    if isinstance(last, ConsultationFailed):
        status = "cancelled" if last.end_reason == EndReason.CANCELLED else "failed"
        return JobOutcome(case.id, key, cid, status, str(last.end_reason), last.reason)
    return JobOutcome(case.id, key, cid, "failed", "error", "ended without a final event")


class _Limits:
    """The global semaphore and one per model."""

    def __init__(self, concurrency: int, model_limits: dict[str, int] | None) -> None:
        self.all = asyncio.Semaphore(max(1, concurrency))
        self.models = {m: asyncio.Semaphore(max(1, n)) for m, n in (model_limits or {}).items()}

    def for_config(self, config: ConsultationConfig) -> list[asyncio.Semaphore]:
        # Sorted model order everywhere, so two jobs never wait on each other in a cycle.
        return [self.models[m] for m in config.models() if m in self.models]


async def _job(case: Case, config: ConsultationConfig, store: BatchStore, run_id: str,
               limits: _Limits, cancel: asyncio.Event, llm: LLMClient) -> JobOutcome:
    key = config.config_key()
    async with limits.all:
        held = limits.for_config(config)
        for sem in held:
            await sem.acquire()
        try:
            if cancel.is_set():
                return JobOutcome(case.id, key, None, "cancelled", "cancelled", "not started")
            cid = new_id("c-")
            watch = _Watch(store.sink())
            try:
                await run_consultation(case, config, watch, consultation_id=cid, run_id=run_id,
                                       cancel_event=cancel, llm=llm)
            except Exception as err:  # the engine should not raise; never let one job sink all
                log.exception("consultation %s escaped the engine", cid)
                watch.emit(ConsultationFailed(consultation_id=cid, end_reason=EndReason.ERROR,
                                              reason=f"{type(err).__name__}: {err}"[:300]))
            return _outcome(case, key, cid, watch.last)
        finally:
            for sem in reversed(held):
                sem.release()


async def run_batch(jobs: list[tuple[Case, ConsultationConfig]], store: BatchStore,
                    run_id: str, *, concurrency: int = 4,
                    model_limits: dict[str, int] | None = None,
                    progress: Progress | None = None, cancel_event: asyncio.Event | None = None,
                    llm: LLMClient | None = None) -> list[JobOutcome]:
    """Run every job not already done for `run_id`; outcomes in job order."""
    cancel = cancel_event or asyncio.Event()
    client = llm or LLMClient()
    limits = _Limits(concurrency, model_limits)
    done = store.done_keys(run_id)
    outcomes: list[JobOutcome | None] = [None] * len(jobs)
    finished = 0

    async def one(i: int, case: Case, config: ConsultationConfig) -> None:
        nonlocal finished
        key = config.config_key()
        if (case.id, key) in done:
            outcome = JobOutcome(case.id, key, None, "skipped")
        else:
            done.add((case.id, key))  # the same pair twice in one batch runs once
            outcome = await _job(case, config, store, run_id, limits, cancel, client)
        outcomes[i] = outcome
        finished += 1
        if progress is not None:
            progress(finished, len(jobs), outcome)

    await asyncio.gather(*(one(i, c, cfg) for i, (c, cfg) in enumerate(jobs)))
    return [o for o in outcomes if o is not None]


def summary(outcomes: list[JobOutcome]) -> dict[str, Any]:
    """Counts by status, and accuracy over finished jobs with a decided verdict."""
    counts: dict[str, int] = {}
    for o in outcomes:
        counts[o.status] = counts.get(o.status, 0) + 1
    decided = [o.correct for o in outcomes if o.correct is not None]
    return {"counts": counts, "accuracy": sum(decided) / len(decided) if decided else None}
