"""Batches: run (case, config) jobs under a global and per-model concurrency limit.

Failures are isolated per consultation (the engine records them, a sink that cannot
record one included; anything that still escapes is recorded here) and the batch goes on.
A batch resumes: jobs whose (case_id, job key) the store reports as done for the run are
skipped, so nothing is redone or duplicated.

Cancelling: the batch-wide `cancel_event` stops new jobs from starting and records the
running ones as cancelled. A caller that wants to cancel jobs one by one passes `plan`,
which gives each job its own consultation id and cancel event before the batch starts (the
app's live registry does); a planned job cancelled before it started is still recorded, as
cancelled, so every job the caller announced has a row.

Per-model limits bound how many consultations using a model run at once (a consultation
using several models holds a slot of each). Model slots are taken before the global slot,
always in sorted model order, so a job waiting for a busy model holds no global slot (jobs
of other models are not starved) and no two jobs can wait on each other in a cycle.

Must not import: textual, rich, litellm, or any other bedside package (db, tui).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from core.case import Case
from core.config import ConsultationConfig
from core.engine import (ONE_STEP, describe_consultation, one_step_key, run_consultation,
                         run_one_step_consultation)
from core.events import (ConsultationFailed, ConsultationFinished, ConsultationStarted,
                         Event, EventSink)
from core.ids import new_id
from core.llm import LLMClient
from core.transcript import EndReason, verdict_correct

log = logging.getLogger("bedside.batch")
Progress = Callable[[int, int, "JobOutcome"], None]
INTERACTIVE = "interactive"


class Job(NamedTuple):
    """One consultation to run: a case, a configuration, and the mode."""

    case: Case
    config: ConsultationConfig
    mode: str = INTERACTIVE  # 'interactive' or 'one_step' (the upper bound)

    def key(self) -> str:
        """The job key stored as the consultation's config_key (resume matches on it)."""
        return one_step_key(self.config) if self.mode == ONE_STEP else self.config.config_key()


@dataclass
class JobControl:
    """What a caller supplies for one job to control it on its own (see `plan`)."""

    consultation_id: str
    cancel_event: asyncio.Event


Plan = Callable[[Job], JobControl]


class BatchStore(Protocol):
    """What a batch needs from the store."""

    def done_keys(self, run_id: str) -> set[tuple[str, str]]:
        """(case_id, job key) pairs of the run that must not be run again."""
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
    """An in-memory BatchStore for tests: keeps every event per consultation.

    Follows the SQLite store's rules: finished and failed pairs are done (failed ones not
    with `retry_failed`), and a consultation that redoes a pair supersedes the earlier
    ones, so each pair keeps exactly one consultation that is not 'superseded'.
    """

    def __init__(self, *, retry_failed: bool = False) -> None:
        self.events: dict[str, list[Event]] = {}
        self.started: dict[str, ConsultationStarted] = {}
        self.superseded: set[str] = set()
        self.retry_failed = retry_failed

    def emit(self, event: Event) -> None:
        """Record an event."""
        if isinstance(event, ConsultationStarted):
            key = (event.run_id, event.case_id, event.config.get("config_key"))
            if event.run_id is not None:
                self.superseded |= {cid for cid, s in self.started.items()
                                    if (s.run_id, s.case_id, s.config.get("config_key")) == key}
            self.started[event.consultation_id] = event
        self.events.setdefault(event.consultation_id, []).append(event)

    def sink(self) -> EventSink:
        """This store is its own sink."""
        return self

    def status(self, consultation_id: str) -> str:
        """running | finished | failed | cancelled | superseded."""
        if consultation_id in self.superseded:
            return "superseded"
        for e in reversed(self.events.get(consultation_id, [])):
            if isinstance(e, ConsultationFinished):
                return "finished"
            if isinstance(e, ConsultationFailed):
                return "cancelled" if e.end_reason == EndReason.CANCELLED else "failed"
        return "running"

    def done_keys(self, run_id: str) -> set[tuple[str, str]]:
        """Finished (and, unless retrying, failed) pairs of the run."""
        done = ("finished",) if self.retry_failed else ("finished", "failed")
        return {(s.case_id, s.config.get("config_key", "")) for cid, s in self.started.items()
                if s.run_id == run_id and self.status(cid) in done}


class _Watch:
    """Sink wrapper that remembers how its consultation ended (even if the inner sink
    then fails to record it)."""

    def __init__(self, inner: EventSink) -> None:
        self.inner = inner
        self.last: Event | None = None

    def emit(self, event: Event) -> None:
        """Pass the event on, noting a final one."""
        if isinstance(event, ConsultationFinished | ConsultationFailed):
            self.last = event
        self.inner.emit(event)


def _outcome(job: Job, cid: str, last: Event | None) -> JobOutcome:
    key = job.key()
    if isinstance(last, ConsultationFinished):
        return JobOutcome(job.case.id, key, cid, "finished", str(last.end_reason),
                          correct=verdict_correct(last.verdicts))
    if isinstance(last, ConsultationFailed):
        status = "cancelled" if last.end_reason == EndReason.CANCELLED else "failed"
        return JobOutcome(job.case.id, key, cid, status, str(last.end_reason), last.reason)
    return JobOutcome(job.case.id, key, cid, "failed", "error", "ended without a final event")


class _Limits:
    """The global semaphore and one per model."""

    def __init__(self, concurrency: int, model_limits: dict[str, int] | None) -> None:
        self.all = asyncio.Semaphore(max(1, concurrency))
        self.models = {m: asyncio.Semaphore(max(1, n)) for m, n in (model_limits or {}).items()}

    @contextlib.asynccontextmanager
    async def slot(self, config: ConsultationConfig) -> AsyncIterator[None]:
        """Hold a slot of each limited model (sorted order), then a global slot."""
        held: list[asyncio.Semaphore] = []
        try:
            for model in config.models():  # sorted: no two jobs wait on each other in a cycle
                if model in self.models:
                    await self.models[model].acquire()
                    held.append(self.models[model])
            async with self.all:
                yield
        finally:
            for sem in reversed(held):
                sem.release()


def _record_unstarted(job: Job, cid: str, run_id: str, sink: EventSink) -> JobOutcome:
    """A planned job cancelled before it started: recorded as cancelled, never run."""
    watch = _Watch(sink)
    described = describe_consultation(job.case, job.config, one_step=job.mode == ONE_STEP)
    try:
        watch.emit(ConsultationStarted(consultation_id=cid, case_id=job.case.id, run_id=run_id,
                                       config=described, origin=_origin(job)))
        watch.emit(ConsultationFailed(consultation_id=cid, end_reason=EndReason.CANCELLED,
                                      reason="cancelled before it started"))
    except Exception as err:
        log.exception("could not record the cancellation of %s", cid)
        return JobOutcome(job.case.id, job.key(), cid, "cancelled", "cancelled",
                          f"cancelled before it started (not recorded: {err})"[:300])
    return _outcome(job, cid, watch.last)


def _origin(job: Job) -> str:
    return ONE_STEP if job.mode == ONE_STEP else "engine"


async def _run_one(job: Job, watch: _Watch, cid: str, run_id: str, cancel: asyncio.Event,
                   llm: LLMClient) -> None:
    if job.mode == ONE_STEP:
        await run_one_step_consultation(job.case, job.config, watch, consultation_id=cid,
                                        run_id=run_id, cancel_event=cancel, llm=llm)
    else:
        await run_consultation(job.case, job.config, watch, consultation_id=cid,
                               run_id=run_id, cancel_event=cancel, llm=llm)


async def _job(job: Job, store: BatchStore, run_id: str, limits: _Limits,
               control: JobControl, llm: LLMClient, planned: bool,
               batch_cancel: asyncio.Event) -> JobOutcome:
    cid, cancel = control.consultation_id, control.cancel_event
    async with limits.slot(job.config):
        if cancel.is_set() or batch_cancel.is_set():
            if planned:
                return _record_unstarted(job, cid, run_id, store.sink())
            return JobOutcome(job.case.id, job.key(), None, "cancelled", "cancelled",
                              "not started")
        watch = _Watch(store.sink())
        try:
            await _run_one(job, watch, cid, run_id, cancel, llm)
        except Exception as err:  # the engine should not raise; never let one job sink all
            log.exception("consultation %s escaped the engine", cid)
            failed = ConsultationFailed(consultation_id=cid, end_reason=EndReason.ERROR,
                                        reason=f"{type(err).__name__}: {err}"[:300])
            try:
                watch.emit(failed)
            except Exception:  # the store is failing too: the outcome still says why
                log.exception("could not record the failure of %s", cid)
        return _outcome(job, cid, watch.last)


def _cancel_all_on(cancel: asyncio.Event, controls: list[JobControl]) -> asyncio.Task[None]:
    """A watcher that passes the batch-wide cancel on to every job's own event."""
    async def watch() -> None:
        await cancel.wait()
        for control in controls:
            control.cancel_event.set()
    return asyncio.create_task(watch())


async def run_batch(jobs: Sequence[tuple[Case, ConsultationConfig] | Job], store: BatchStore,
                    run_id: str, *, concurrency: int = 4,
                    model_limits: dict[str, int] | None = None,
                    progress: Progress | None = None, cancel_event: asyncio.Event | None = None,
                    llm: LLMClient | None = None, plan: Plan | None = None) -> list[JobOutcome]:
    """Run every job not already done for `run_id`; outcomes in job order.

    `jobs` are `Job`s or (case, config) pairs (interactive). `plan`, if given, is called
    once per job to be run, in order, before any starts, and returns that job's
    consultation id and cancel event.
    """
    cancel = cancel_event or asyncio.Event()
    client = llm or LLMClient()
    limits = _Limits(concurrency, model_limits)
    done = store.done_keys(run_id)
    todo: list[tuple[int, Job, JobControl | None]] = []
    outcomes: list[JobOutcome | None] = [None] * len(jobs)
    for i, raw in enumerate(jobs):
        job = raw if isinstance(raw, Job) else Job(*raw)
        if (job.case.id, job.key()) in done:
            outcomes[i] = JobOutcome(job.case.id, job.key(), None, "skipped")
        else:
            done.add((job.case.id, job.key()))  # the same pair twice in one batch runs once
            todo.append((i, job, plan(job) if plan is not None else None))
    controls = [c if c is not None else JobControl(new_id("c-"), asyncio.Event())
                for _, _, c in todo]
    finished = 0

    def report(i: int, outcome: JobOutcome) -> None:
        nonlocal finished
        outcomes[i] = outcome
        finished += 1
        if progress is not None:
            progress(finished, len(jobs), outcome)

    for i, outcome in enumerate(outcomes):
        if outcome is not None:
            report(i, outcome)

    async def one(i: int, job: Job, control: JobControl, planned: bool) -> None:
        report(i, await _job(job, store, run_id, limits, control, client, planned, cancel))

    watcher = _cancel_all_on(cancel, controls)
    try:
        await asyncio.gather(*(one(i, job, control, given is not None)
                               for (i, job, given), control in zip(todo, controls, strict=False)))
    finally:
        watcher.cancel()
    return [o for o in outcomes if o is not None]


def summary(outcomes: list[JobOutcome]) -> dict[str, Any]:
    """Counts by status, and accuracy over finished jobs with a decided verdict."""
    counts: dict[str, int] = {}
    for o in outcomes:
        counts[o.status] = counts.get(o.status, 0) + 1
    decided = [o.correct for o in outcomes if o.correct is not None]
    return {"counts": counts, "accuracy": sum(decided) / len(decided) if decided else None}
