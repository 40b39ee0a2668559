"""One run spread over several worker processes on one database (`bedside run --workers N`).

The process that creates or resumes the run owns it (its lease, `core.usecases.leases`):
it starts the workers, renews the lease while they play, and sets the final status. Each
worker rebuilds the run from the store, checks that the owner's lease is still the one it
was given, and plays the run as a batch that claims each unit of work (a consultation, or a
sequential solver's whole lane) in the store before playing it (`LeaseStore.claim`, one
transaction): a unit another worker claimed is left to it, so none is played twice and the
run ends with the same consultations as a run in one process. Every event a worker records
is fenced by the owner's lease token: if the owner is taken over, its workers record
nothing more and stop.

The concurrency and per-model limits of the run are the whole run's: each worker gets its
share (`share`). How the processes are started and talk (a line of JSON per outcome) is
the command line's (`tui.cli.run_workers`); this module is what each side does.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

from core.case import Case
from core.errors import LeaseLostError, RunHalted, StorageError
from core.ports.runs import RunsStore

if TYPE_CHECKING:
    from core.batch import JobOutcome, Progress
    from core.llm import LLMClient
    from core.usecases.runs import RunSpec

log = logging.getLogger("bedside.workers")
#: How the owner plays the run: given the fence and the cancel event, the workers' outcomes.
Spawn = Callable[[tuple[str, str], asyncio.Event], Awaitable[list["JobOutcome"]]]


def share(total: int, workers: int, index: int) -> int:
    """Worker `index`'s share of a limit of `total` over `workers` (at least 1)."""
    return max(1, total // workers + (1 if index < total % workers else 0))


def attach(store: RunsStore, run_id: str, token: str, *, index: int, workers: int,
           library: Iterable[Case] = ()) -> RunSpec:
    """Worker side: the run as its owner rebuilt it, with this worker's share of the limits;
    LeaseLostError when `token` no longer holds the run's lease."""
    from core.usecases import runs

    lease = store.get_lease(run_id)
    if lease is None or lease.token != token:
        raise LeaseLostError(f"run {run_id} is no longer owned by the process that started "
                             "this worker")
    spec = runs.rebuild(store, run_id, library=library)
    spec.lease = lease
    spec.concurrency = share(spec.concurrency, workers, index)
    spec.model_limits = {m: share(n, workers, index) for m, n in spec.model_limits.items()}
    return spec


async def work(store: RunsStore, spec: RunSpec, *, index: int, retry_failed: bool = False,
               progress: Progress | None = None, cancel_event: asyncio.Event | None = None,
               llm: LLMClient | None = None) -> list[JobOutcome]:
    """Worker side: play the units of the run this worker claims; the outcomes of the jobs
    it played (not those done before, nor those another worker claimed). Each finished
    consultation's offline metrics are computed here as it ends, in parallel, rather than
    by the owner after the last one."""
    from core.batch import ELSEWHERE, run_batch
    from core.usecases.doctor_tools import run_state
    from core.usecases.runs import StoreBatchStore
    from core.usecases.scoring import offline_scorer

    assert spec.lease is not None
    token = spec.lease.token
    score = offline_scorer(store)

    def claim(unit: str) -> bool:
        return store.claim(spec.run_id, token, unit, index)

    def ended(done: int, total: int, outcome: JobOutcome) -> None:
        if outcome.status == "finished" and outcome.consultation_id:
            try:
                score(outcome.consultation_id)
            except RunHalted:
                raise
            except Exception:  # left to the owner's results, which compute what is missing
                log.exception("could not score %s", outcome.consultation_id)
        if progress is not None:
            progress(done, total, outcome)

    outcomes = await run_batch(
        spec.jobs(), StoreBatchStore(store, retry_failed=retry_failed,
                                     fence=(spec.run_id, token)),
        spec.run_id, concurrency=spec.concurrency, model_limits=spec.model_limits,
        progress=ended, cancel_event=cancel_event, llm=llm, claim=claim,
        run_state=run_state(store, spec.run_id, spec.configs, [c.id for c in spec.cases]))
    return [o for o in outcomes if o.status not in ("skipped", ELSEWHERE)]


async def supervise(store: RunsStore, spec: RunSpec, spawn: Spawn,
                    cancel_event: asyncio.Event | None = None) -> list[JobOutcome]:
    """Owner side: play the run through `spawn` (which starts the workers and returns
    their outcomes) under the run's lease, with the final status set as `runs.execute`
    sets it."""
    from core.usecases import leases

    spec.lease = leases.acquire(store, spec.run_id, lease=spec.lease)
    return await leases.owned(store, spec.lease, spawn, cancel_event)


def outcome_line(outcome: JobOutcome) -> dict[str, Any]:
    """A worker's outcome as the JSON its owner reads back (`outcome_from`)."""
    return dict(vars(outcome))


def outcome_from(data: dict[str, Any]) -> JobOutcome:
    """An outcome a worker reported."""
    from core.batch import JobOutcome

    return JobOutcome(str(data["case_id"]), str(data["config_key"]),
                      data.get("consultation_id"), str(data["status"]),
                      data.get("end_reason"), data.get("reason"), data.get("correct"))


def halted_line(err: RunHalted) -> dict[str, Any]:
    """Why a worker had to stop, as the JSON its owner reads back (`halted_from`)."""
    return {"halted": str(err), "lease": isinstance(err, LeaseLostError)}


def halted_from(data: dict[str, Any]) -> RunHalted:
    """The error a worker stopped with, raised again by its owner."""
    message = str(data.get("halted") or "a worker stopped")
    return LeaseLostError(message) if data.get("lease") else StorageError(message)
