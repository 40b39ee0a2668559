"""The async consultation engine: a solver plays the doctor, the verdict scorers judge.

`run_solver` plays a case under a `ConsultationConfig` with a solver (`core.solvers`) and
pushes typed events to a sink as things happen: every completed turn is emitted the moment
it exists (the store commits on that event), so a crash loses at most the turn in flight.
When the solver has an answer, each of its judges (`core.scorers.verdict`) gives a
verdict, and `ConsultationFinished` carries them. It never raises for a failed
consultation: a model error, a bug, an unknown solver, or a sink that cannot record an
event (say the store refuses the row) is recorded as `ConsultationFailed` with the reason,
and cancellation (the `cancel_event`, or the task being cancelled) as
`end_reason=cancelled`. Token deltas are the one exception: they are ephemeral (the
completed turn carries the text), so a sink failing on one is logged and the consultation
goes on.

A solver may play consultations of its own on the same case and run (`SolverContext.
play_linked`: a collaborating doctor's own consultation), each recorded, judged and
isolated like this one, through the same sink.

`run_consultation` plays the configuration's own solver (AgentClinic's consultation by
default); `run_one_step_consultation` its upper bound (the whole case in one doctor call),
with the same events and guarantees. The loop does no blocking I/O and reads no files.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from core.case import Case
from core.caseio import case_hash
from core.config import ConsultationConfig
from core.errors import BedsideError
from core.events import ConsultationFinished, ConsultationStarted, EventSink
from core.llm import LLMClient
from core.provenance import describe_config
from core.scorers.verdict import VerdictScorer
from core.solvers.base import BaseSolver, Solver
from core.solvers.solution import RunState, Solution
from core.solvers.context import Cancelled, SolverContext, reason_of
from core.solvers.interactive import INTERACTIVE
from core.solvers.one_step import ONE_STEP, one_step_key
from core.solvers.registry import solver_for
from core.transcript import EndReason, Role, Transcript, Turn, utc_now

__all__ = ["ONE_STEP", "describe_config", "describe_consultation", "job_solver",
           "one_step_key", "run_consultation", "run_one_step_consultation", "run_solver"]
log = logging.getLogger("bedside.engine")


class _Unplayable(BaseSolver):
    """Stands in for a solver that cannot be made (unknown name, wrong options): the
    consultation starts and then fails with the reason, like any other failure."""

    name = "unplayable"

    def __init__(self, error: BedsideError) -> None:
        super().__init__()
        self.error = error

    async def solve(self, ctx: SolverContext) -> Solution:
        """Fail with the reason the solver could not be made."""
        raise self.error


def job_solver(config: ConsultationConfig, mode: str = INTERACTIVE) -> Solver:
    """The solver of a job (`core.solvers.registry.solver_for`); one that cannot be made
    is replaced by a stand-in that records why when played."""
    try:
        return solver_for(config, mode)
    except BedsideError as err:
        return _Unplayable(err)


def describe_consultation(case: Case, config: ConsultationConfig, *,
                          one_step: bool = False) -> dict[str, Any]:
    """Everything stored with a consultation about how it was played: the configuration
    (`describe_config`) as its solver describes it (a one-step one: its own key, mode and
    prompt), and the hash of the case it was played on. One place, so a consultation that
    ran and one cancelled before it started are described alike."""
    solver = job_solver(config, ONE_STEP if one_step else INTERACTIVE)
    return _with_case(solver.describe(config, describe_config(config)), case)


def _with_case(described: dict[str, Any], case: Case) -> dict[str, Any]:
    """What a description records of the case played: its content hash, and how many
    images it has (0: the `--images` mode did not apply; `core.factors` reads it)."""
    described["case_hash"] = case_hash(case)
    described["case_images"] = len(case.images)
    return described


async def _judge(ctx: SolverContext, judges: list[VerdictScorer], diagnosis: str) -> None:
    """Every judge gives its verdict; an LLM moderator's call is recorded as a turn."""
    async def gather() -> list[Any]:
        return list(await asyncio.gather(*(j.judge(ctx.case, diagnosis) for j in judges)))

    for verdict, reply in await ctx.guard(gather()):
        ctx.transcript.verdicts.append(verdict)
        if reply is not None:
            ctx.add_turn(Turn(
                index=len(ctx.turns), role=Role.MODERATOR, content=reply.text,
                kind="verdict", started_at=utc_now(), ended_at=utc_now(),
                latency_ms=reply.meta.get("call_ms"), usage=reply.usage, model=reply.model,
                raw_request=reply.raw_request, raw_response=reply.raw_response,
                meta={"correct": verdict.correct}))


async def _finish(ctx: SolverContext, solution: Solution, judges: list[VerdictScorer]) -> None:
    """Record the solver's answer, the verdicts, and the finished event."""
    ctx.record(solution)
    t = ctx.transcript
    if solution.diagnosis is not None:
        await _judge(ctx, judges, solution.diagnosis)
    ctx.emit(ConsultationFinished(
        consultation_id=ctx.cid, end_reason=solution.ending(), diagnosis=t.diagnosis,
        verdicts=t.verdicts, report=t.report, doctor_turns=ctx.doctor_turns,
        meta=solution.meta))


async def _isolated(ctx: SolverContext, body: Coroutine[Any, Any, None]) -> None:
    """Run a consultation body; every way it can end is recorded, none escapes but task
    cancellation (recorded first, then re-raised)."""
    try:
        await body
    except Cancelled:
        ctx.fail(EndReason.CANCELLED, "cancelled")
    except asyncio.CancelledError:
        ctx.fail(EndReason.CANCELLED, "cancelled")
        raise
    except Exception as err:  # isolate: the consultation fails, the caller goes on
        if not isinstance(err, BedsideError):
            log.exception("consultation %s failed", ctx.cid)
        ctx.fail(EndReason.ERROR, reason_of(err))


async def run_solver(solver: Solver, case: Case, config: ConsultationConfig, sink: EventSink,
                     *, consultation_id: str, run_id: str | None = None,
                     cancel_event: asyncio.Event | None = None,
                     human_input: Callable[..., Awaitable[Any]] | None = None,
                     llm: LLMClient | None = None,
                     run_state: RunState | None = None) -> Transcript:
    """Play one consultation with `solver`; return its transcript (also when it failed or
    was cancelled). `run_state` is the memory the run's consultations share.

    `llm` is the model client (one per process is enough; tests pass one holding a fake
    key). Raises only `asyncio.CancelledError` when the task itself is cancelled, after
    recording the cancellation.
    """
    described = _with_case(solver.describe(config, describe_config(config)), case)
    client = llm or LLMClient()

    async def linked(other: Solver, other_config: ConsultationConfig,
                     other_id: str) -> Transcript:
        return await run_solver(other, case, other_config, sink, consultation_id=other_id,
                                run_id=run_id, cancel_event=cancel_event, llm=client,
                                run_state=run_state)

    ctx = SolverContext(case, config, sink, consultation_id=consultation_id,
                        cancel_event=cancel_event, llm=client, human_input=human_input,
                        run_state=run_state, run_id=run_id, linked=linked)
    ctx.transcript.meta.update(config=described, consultation_id=consultation_id,
                               run_id=run_id)

    async def body() -> None:
        ctx.emit(ConsultationStarted(consultation_id=consultation_id, case_id=case.id,
                                     run_id=run_id, config=described, origin=solver.origin))
        judges = [VerdictScorer(spec, client) for spec in solver.judges(config)]
        await _finish(ctx, await solver.solve(ctx), judges)

    await _isolated(ctx, body())
    return ctx.transcript


async def run_consultation(case: Case, config: ConsultationConfig, sink: EventSink, *,
                           consultation_id: str, run_id: str | None = None,
                           cancel_event: asyncio.Event | None = None,
                           human_input: Callable[..., Awaitable[Any]] | None = None,
                           llm: LLMClient | None = None,
                           run_state: RunState | None = None) -> Transcript:
    """Play one consultation with the configuration's solver (`run_solver`)."""
    return await run_solver(job_solver(config), case, config, sink,
                            consultation_id=consultation_id, run_id=run_id,
                            cancel_event=cancel_event, human_input=human_input, llm=llm,
                            run_state=run_state)


async def run_one_step_consultation(case: Case, config: ConsultationConfig, sink: EventSink,
                                    *, consultation_id: str, run_id: str | None = None,
                                    cancel_event: asyncio.Event | None = None,
                                    llm: LLMClient | None = None) -> Transcript:
    """The upper bound of a configuration: its model doctor gets the whole case at once
    (`core.solvers.one_step`) and answers in one turn. Stored like any consultation,
    with origin 'one_step' and the key `one_step_key(config)`; same guarantees as
    `run_consultation`."""
    return await run_solver(job_solver(config, ONE_STEP), case, config, sink,
                            consultation_id=consultation_id, run_id=run_id,
                            cancel_event=cancel_event, llm=llm)
