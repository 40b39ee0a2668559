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

A run spread over several worker processes (`bedside run --workers N`) passes `claim`:
each lane is claimed (atomically, in the store) when it gets its slot, and a lane another
worker claimed is left to it (outcome 'elsewhere'), so no consultation is played twice.

A sink that says the run cannot go on (`core.errors.RunHalted`: the database cannot be
written, or another process took the run over) halts the batch: nothing more is recorded,
the jobs still running are cancelled, and `run_batch` raises that error once they have
stopped. What was committed is kept; the consultations left 'running' are redone on resume.

A job is played by its solver (`core.engine.job_solver`: the configuration's own, or its
upper bound). The consultations of a run share one `RunState` (a solver's memory across
cases); a solver marked `sequential` has the jobs of each of its configurations played one
after another, in job order, instead of side by side.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from core.case import Case
from core.config import ConsultationConfig
from core.consultation_state import (ConsultationState, apply, failure_status, is_done,
                                     supersedes)
from core.engine import ONE_STEP, describe_consultation, job_solver, run_solver
from core.errors import RunHalted
from core.events import (ConsultationFailed, ConsultationFinished, ConsultationStarted,
                         Event, EventSink)
from core.ids import new_id
from core.llm import LLMClient
from core.solvers.base import Solver
from core.solvers.solution import RunState
from core.transcript import EndReason, verdict_correct

log = logging.getLogger("bedside.batch")
Progress = Callable[[int, int, "JobOutcome"], None]
Claim = Callable[[str], bool]  # a unit of work ('case<TAB>key', or '*<TAB>key' for a lane)
INTERACTIVE = "interactive"
ELSEWHERE = "elsewhere"  # the outcome of a job another worker process claimed


class Job(NamedTuple):
    """One consultation to run: a case, a configuration, and the mode."""

    case: Case
    config: ConsultationConfig
    mode: str = INTERACTIVE  # 'interactive' or 'one_step' (the upper bound)

    def solver(self) -> Solver:
        """The solver that plays it."""
        return job_solver(self.config, self.mode)

    def key(self) -> str:
        """The job key stored as the consultation's config_key (resume matches on it)."""
        return self.solver().key(self.config)


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
    status: str  # finished | failed | cancelled | skipped | elsewhere
    end_reason: str | None = None
    reason: str | None = None
    correct: bool | None = None


class MemoryBatchStore:
    """An in-memory BatchStore for tests: keeps every event per consultation.

    Follows the SQLite store's rules (`core.consultation_state`): finished and failed pairs
    are done (failed ones not with `retry_failed`), and a consultation that redoes a pair
    supersedes the earlier ones, so each pair keeps exactly one consultation that is not
    'superseded'.
    """

    def __init__(self, *, retry_failed: bool = False) -> None:
        self.events: dict[str, list[Event]] = {}
        self.started: dict[str, ConsultationStarted] = {}
        self.states: dict[str, ConsultationState] = {}
        self.retry_failed = retry_failed

    def emit(self, event: Event) -> None:
        """Record an event."""
        cid = event.consultation_id
        if isinstance(event, ConsultationStarted):
            self.states.update({other: state.model_copy(update={"status": "superseded"})
                                for other, state in self.states.items()
                                if supersedes(event, state)})
            self.started[cid] = event
        state = apply(self.states.get(cid), event)
        if state is not None:
            self.states[cid] = state
        self.events.setdefault(cid, []).append(event)

    def sink(self) -> EventSink:
        """This store is its own sink."""
        return self

    def status(self, consultation_id: str) -> str:
        """running | finished | failed | cancelled | superseded."""
        state = self.states.get(consultation_id)
        return "running" if state is None else state.status

    def done_keys(self, run_id: str) -> set[tuple[str, str]]:
        """Finished (and, unless retrying, failed) pairs of the run."""
        return {(s.case_id, s.config_key or "") for s in self.states.values()
                if s.run_id == run_id and is_done(s.status, retry_failed=self.retry_failed)}


class _Halt:
    """The batch-wide stop a RunHalted from the sink causes (first error kept)."""

    def __init__(self, cancel: asyncio.Event) -> None:
        self.cancel = cancel
        self.error: RunHalted | None = None

    def halt(self, err: RunHalted) -> None:
        """Stop the batch: no more recording, every job cancelled."""
        if self.error is None:
            self.error = err
            log.info("run halted: %s", err)
        self.cancel.set()


class _Watch:
    """Sink wrapper that remembers how its consultation ended (even if the inner sink
    then fails to record it); the events of consultations it plays on the side (a
    collaborating doctor's own) pass through unnoted. It halts the batch when the sink says
    the run cannot go on (after which it records nothing more)."""

    def __init__(self, inner: EventSink, consultation_id: str, halt: _Halt) -> None:
        self.inner, self.consultation_id, self.halt = inner, consultation_id, halt
        self.last: Event | None = None

    def emit(self, event: Event) -> None:
        """Pass the event on, noting a final one of its own consultation."""
        if isinstance(event, ConsultationFinished | ConsultationFailed) \
                and event.consultation_id == self.consultation_id:
            self.last = event
        if self.halt.error is not None:
            return  # halted: the row stays 'running' and is redone on resume
        try:
            self.inner.emit(event)
        except RunHalted as err:
            self.halt.halt(err)
            raise


def _outcome(job: Job, cid: str, last: Event | None) -> JobOutcome:
    key = job.key()
    if isinstance(last, ConsultationFinished):
        return JobOutcome(job.case.id, key, cid, "finished", str(last.end_reason),
                          correct=verdict_correct(last.verdicts))
    if isinstance(last, ConsultationFailed):
        return JobOutcome(job.case.id, key, cid, failure_status(last.end_reason),
                          str(last.end_reason), last.reason)
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


def _record_unstarted(job: Job, cid: str, run_id: str, sink: EventSink,
                      halt: _Halt) -> JobOutcome:
    """A planned job cancelled before it started: recorded as cancelled, never run."""
    watch = _Watch(sink, cid, halt)
    described = describe_consultation(job.case, job.config, one_step=job.mode == ONE_STEP)
    try:
        watch.emit(ConsultationStarted(consultation_id=cid, case_id=job.case.id, run_id=run_id,
                                       config=described, origin=job.solver().origin))
        watch.emit(ConsultationFailed(consultation_id=cid, end_reason=EndReason.CANCELLED,
                                      reason="cancelled before it started"))
    except Exception as err:
        log.exception("could not record the cancellation of %s", cid)
        return JobOutcome(job.case.id, job.key(), cid, "cancelled", "cancelled",
                          f"cancelled before it started (not recorded: {err})"[:300])
    return _outcome(job, cid, watch.last)


@dataclass
class _Batch:
    """What every job of one batch shares."""

    store: BatchStore
    run_id: str
    limits: _Limits
    llm: LLMClient
    cancel: asyncio.Event  # batch-wide
    run_state: RunState
    halt: _Halt
    claim: Claim | None = None
    live: dict[str, JobControl] = field(default_factory=dict)  # running jobs, by id


def _unit(job: Job) -> str:
    """What a worker claims to play a job: the (case, key) pair, or the whole lane of a
    sequential solver's configuration."""
    return f"*\t{job.key()}" if job.solver().sequential else f"{job.case.id}\t{job.key()}"


async def _job(b: _Batch, job: Job, given: JobControl | None, claim: bool) -> JobOutcome:
    """Play one job once it has its slots. `given`: the control the caller planned for it
    (None: one is made now, so a long batch holds controls only for its running jobs)."""
    async with b.limits.slot(job.config):
        if (given is not None and given.cancel_event.is_set()) or b.cancel.is_set():
            if given is not None:
                return _record_unstarted(job, given.consultation_id, b.run_id,
                                         b.store.sink(), b.halt)
            return JobOutcome(job.case.id, job.key(), None, "cancelled", "cancelled",
                              "not started")
        if claim and b.claim is not None and not b.claim(_unit(job)):
            return JobOutcome(job.case.id, job.key(), None, ELSEWHERE)
        control = given or JobControl(new_id("c-"), asyncio.Event())
        cid = control.consultation_id
        watch = _Watch(b.store.sink(), cid, b.halt)
        b.live[cid] = control
        try:
            await run_solver(job.solver(), job.case, job.config, watch, consultation_id=cid,
                             run_id=b.run_id, cancel_event=control.cancel_event, llm=b.llm,
                             run_state=b.run_state)
        except Exception as err:  # the engine should not raise; never let one job sink all
            log.exception("consultation %s escaped the engine", cid)
            failed = ConsultationFailed(consultation_id=cid, end_reason=EndReason.ERROR,
                                        reason=f"{type(err).__name__}: {err}"[:300])
            try:
                watch.emit(failed)
            except Exception:  # the store is failing too: the outcome still says why
                log.exception("could not record the failure of %s", cid)
        finally:
            b.live.pop(cid, None)
        return _outcome(job, cid, watch.last)


def _cancel_running_on(b: _Batch) -> asyncio.Task[None]:
    """A watcher that passes the batch-wide cancel on to every running job's own event
    (the jobs not yet started see the batch-wide event when they get their slot)."""
    async def watch() -> None:
        await b.cancel.wait()
        for control in list(b.live.values()):
            control.cancel_event.set()
    return asyncio.create_task(watch())


Todo = list[tuple[int, Job, JobControl | None]]  # (position, job, planned control)


def _lanes(todo: Todo) -> list[Todo]:
    """The jobs as lanes played side by side: one job each, except that the jobs of a
    sequential solver's configuration share one lane, in job order."""
    lanes: list[Todo] = []
    chained: dict[str, Todo] = {}
    for item in todo:
        job = item[1]
        if job.solver().sequential:
            lane = chained.get(job.key())
            if lane is None:
                lane = chained[job.key()] = []
                lanes.append(lane)
            lane.append(item)
        else:
            lanes.append([item])
    return lanes


def _queues(lanes: list[Todo], limits: _Limits) -> list[collections.deque[Todo]]:
    """The lanes in queues, one per set of limited models the lanes' jobs use (in job
    order within each): each queue gets its own runners, so lanes waiting for a busy model
    never keep the lanes of other models from their global slots."""
    queues: dict[tuple[str, ...], collections.deque[Todo]] = {}
    for lane in lanes:
        limited = tuple(m for m in lane[0][1].config.models() if m in limits.models)
        queues.setdefault(limited, collections.deque()).append(lane)
    return list(queues.values())


def _todo(jobs: Sequence[tuple[Case, ConsultationConfig] | Job], done: set[tuple[str, str]],
          plan: Plan | None, skipped: Callable[[int, JobOutcome], None]) -> Todo:
    """The jobs to run (skipped ones are reported now), each with its planned control."""
    todo: Todo = []
    for i, raw in enumerate(jobs):
        job = raw if isinstance(raw, Job) else Job(*raw)
        if (job.case.id, job.key()) in done:
            skipped(i, JobOutcome(job.case.id, job.key(), None, "skipped"))
            continue
        done.add((job.case.id, job.key()))  # the same pair twice in one batch runs once
        todo.append((i, job, plan(job) if plan is not None else None))
    return todo


async def run_batch(jobs: Sequence[tuple[Case, ConsultationConfig] | Job], store: BatchStore,
                    run_id: str, *, concurrency: int = 4,
                    model_limits: dict[str, int] | None = None,
                    progress: Progress | None = None, cancel_event: asyncio.Event | None = None,
                    llm: LLMClient | None = None, plan: Plan | None = None,
                    run_state: RunState | None = None,
                    claim: Claim | None = None, keep: bool = True) -> list[JobOutcome]:
    """Run every job not already done for `run_id`; outcomes in job order.

    `jobs` are `Job`s or (case, config) pairs (interactive). `plan`, if given, is called
    once per job to be run, in order, before any starts, and returns that job's
    consultation id and cancel event. `run_state` is the memory the run's consultations
    share (a fresh one by default). `claim`, in a worker process, claims a unit of work
    before it is played (False: another worker has it). `keep=False` keeps no outcomes
    (`progress` still sees each one) and returns []: a run of many thousands of
    consultations then needs the same memory at its end as at its start. Raises the
    sink's RunHalted once the jobs have stopped, if one came.

    The jobs are played by a bounded pool of runners (at most `concurrency` per set of
    limited models), not one task each, for the same reason.
    """
    cancel = cancel_event or asyncio.Event()
    b = _Batch(store, run_id, _Limits(concurrency, model_limits), llm or LLMClient(),
               cancel, run_state or RunState(), _Halt(cancel), claim)
    outcomes: list[JobOutcome | None] = [None] * len(jobs) if keep else []
    finished = 0

    def report(i: int, outcome: JobOutcome) -> None:
        nonlocal finished
        if keep:
            outcomes[i] = outcome
        finished += 1
        if progress is not None:
            progress(finished, len(jobs), outcome)

    todo = _todo(jobs, store.done_keys(run_id), plan, report)

    async def lane(items: Todo) -> None:
        for n, (i, job, given) in enumerate(items):
            outcome = await _job(b, job, given, claim=n == 0)
            report(i, outcome)
            if outcome.status == ELSEWHERE:  # the whole lane is another worker's
                for j, other, _ in items[n + 1:]:
                    report(j, JobOutcome(other.case.id, other.key(), None, ELSEWHERE))
                return

    async def runner(queue: collections.deque[Todo]) -> None:
        while queue:
            await lane(queue.popleft())

    queues = _queues(_lanes(todo), b.limits)
    del todo  # the queues hold the jobs; each lane is dropped once played
    watcher = _cancel_running_on(b)
    try:
        await asyncio.gather(*(runner(q) for q in queues
                               for _ in range(min(len(q), max(1, concurrency)))))
    finally:
        watcher.cancel()
    if b.halt.error is not None:
        raise b.halt.error
    return [o for o in outcomes if o is not None]


def summary(outcomes: list[JobOutcome]) -> dict[str, Any]:
    """Counts by status, and accuracy over finished jobs with a decided verdict."""
    counts: dict[str, int] = {}
    for o in outcomes:
        counts[o.status] = counts.get(o.status, 0) + 1
    decided = [o.correct for o in outcomes if o.correct is not None]
    return {"counts": counts, "accuracy": sum(decided) / len(decided) if decided else None}
