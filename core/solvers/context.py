"""The session a solver plays in: turn recording, cancellation, the case's agents.

`SolverContext` is what a solver gets. It turns every agent call into a turn (turn
started → token deltas → turn completed, committed by the store at once), abandons a call
the moment the cancel event is set, and builds the consultation's agents, each from its
own role's view of the case (`cast`). The whole case is held here only to cut those views
and for strategies that are given the record by design (the one-step upper bound); a
solver never hands the case to an agent.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from core.agents.base import DeltaFn, DoctorState, Reply
from core.agents.factory import Cast, build_cast
from core.agents.human_doctor import HumanInput
from core.case import Case
from core.config import AgentSpec, ConsultationConfig
from core.errors import BedsideError, RecordError, RunHalted
from core.events import (ConsultationFailed, Event, EventSink, TokenDelta, TurnCompleted,
                         TurnStarted)
from core.images import CaseImage
from core.llm import LLMClient
from core.solvers.solution import RunState, Solution
from core.transcript import EndReason, Role, Transcript, Turn, utc_now
from core.views import DoctorView, doctor_view

log = logging.getLogger("bedside.engine")
T = TypeVar("T")
#: Plays another consultation of the same case in the same run, linked to this one (a
#: collaborating doctor's own consultation): (solver, its configuration, its id) → its
#: transcript, recorded and judged as any consultation; given by the engine. (The solver
#: is typed loosely: `core.solvers.base` imports this module.)
Linked = Callable[[Any, ConsultationConfig, str], Awaitable[Transcript]]


class Cancelled(Exception):
    """The cancel event was set while the consultation ran."""


def reason_of(err: BaseException) -> str:
    """One line saying why something failed (a BedsideError's own message)."""
    if isinstance(err, BedsideError):
        return str(err)
    text = str(err).strip().splitlines()[0] if str(err).strip() else ""
    return f"{type(err).__name__}: {text}"[:300] if text else type(err).__name__


class SolverContext:
    """One running consultation, as a solver sees it."""

    def __init__(self, case: Case, config: ConsultationConfig, sink: EventSink, *,
                 consultation_id: str, cancel_event: asyncio.Event | None, llm: LLMClient,
                 human_input: HumanInput | None = None,
                 run_state: RunState | None = None, run_id: str | None = None,
                 linked: Linked | None = None) -> None:
        self.case, self.config, self.sink, self.cid = case, config, sink, consultation_id
        self.cancel_event, self.llm, self.human_input = cancel_event, llm, human_input
        self.run_state = run_state if run_state is not None else RunState()
        self.run_id, self._linked = run_id, linked
        self.transcript = Transcript(case_id=case.id, doctor=config.doctor.display())
        self.turns = self.transcript.turns
        self.doctor_turns = 0  # doctor turns used so far (what the budget counts)
        # The case's images (read when the consultation starts) and those the doctor has
        # been shown so far (core.solvers.images).
        self.images: list[CaseImage] = []
        self.shown_images: list[CaseImage] = []

    @property
    def max_turns(self) -> int:
        """The doctor's turn budget."""
        return self.config.max_turns

    @property
    def doctor_view(self) -> DoctorView:
        """What the doctor is told: the objective, up-front images, the options."""
        return doctor_view(self.case, self.config.images)

    def doctor_state(self, doctor_turn: int) -> DoctorState:
        """What the doctor knows when it takes turn `doctor_turn` (with the images shown
        to it so far)."""
        return DoctorState(turns=self.turns, doctor_turn=doctor_turn, max_turns=self.max_turns,
                           images=tuple(self.shown_images),
                           images_pending=len(self.images) - len(self.shown_images))

    def cast(self, doctor: AgentSpec | None = None) -> Cast:
        """The consultation's agents, each built from its view; `doctor` plays the doctor
        instead of the configured one (e.g. one of several collaborating doctors)."""
        config = self.config if doctor is None else self.config.model_copy(
            update={"doctor": doctor})
        return build_cast(self.case, config, client=self.llm, human_input=self.human_input)

    async def play_linked(self, solver: Any, config: ConsultationConfig,
                          consultation_id: str) -> Transcript:
        """Play another consultation of this case in this run with `solver` (recorded, judged
        and failing on its own, as any consultation) and return its transcript."""
        if self._linked is None:
            raise BedsideError("this consultation cannot start consultations of its own")
        return await self._linked(solver, config, consultation_id)

    # -- recording -------------------------------------------------------------------------
    def record(self, solution: Solution) -> None:
        """Write the doctor's answer into the transcript as soon as it is known (the engine
        does it again with the solution the solver returns)."""
        t = self.transcript
        t.diagnosis, t.end_reason = solution.diagnosis, solution.ending()
        if solution.report is not None:
            t.report = solution.report
        t.meta.update(solution.meta)

    def emit(self, event: Event) -> None:
        """Hand an event to the sink; a sink failure becomes a RecordError (the
        consultation then fails with it as the reason)."""
        try:
            self.sink.emit(event)
        except Exception as err:
            if not isinstance(err, RunHalted):  # a halted run says so once, in one line
                log.exception("could not record %s of %s", event.type, self.cid)
            raise RecordError(f"could not record the {event.type.replace('_', ' ')} event: "
                              f"{reason_of(err)}") from err

    def delta(self, index: int, role: Role) -> DeltaFn:
        """The on_delta of the turn being produced: token deltas, never fatal."""
        sink, cid = self.sink, self.cid
        warned = False

        def delta(text: str) -> None:
            nonlocal warned
            try:
                sink.emit(TokenDelta(consultation_id=cid, index=index, role=role, text=text))
            except Exception:  # ephemeral: never fail (or retry a model call) over a delta
                if not warned:
                    log.exception("a sink failed on a token delta of %s", cid)
                    warned = True
        return delta

    def start_turn(self, role: Role, doctor_turn: int | None = None) -> int:
        """Announce the next turn; return its index."""
        index = len(self.turns)
        self.emit(TurnStarted(consultation_id=self.cid, index=index, role=role,
                              doctor_turn=doctor_turn))
        return index

    def add_turn(self, turn: Turn) -> None:
        """Append a completed turn and emit it at once."""
        self.turns.append(turn)
        self.emit(TurnCompleted(consultation_id=self.cid, turn=turn))

    def reply_turn(self, index: int, role: Role, reply: Reply, *, kind: str,
                   started: tuple[str, float], addressee: Role | None = None,
                   doctor_turn: int | None = None, tests: list[str] | None = None,
                   meta: dict[str, Any] | None = None) -> Turn:
        """Record an agent's reply as the completed turn `index`; `started` is
        (utc_now(), time.perf_counter()) taken when the call began."""
        turn = Turn(
            index=index, role=role, addressee=addressee, content=reply.text,
            doctor_turn=doctor_turn, kind=kind, tests=tests or [], started_at=started[0],
            ended_at=utc_now(), latency_ms=round((time.perf_counter() - started[1]) * 1000, 3),
            usage=reply.usage, model=reply.model, raw_request=reply.raw_request,
            raw_response=reply.raw_response, meta={**reply.meta, **(meta or {})})
        self.add_turn(turn)
        return turn

    async def speak(self, role: Role, kind: str, call: Callable[[DeltaFn], Awaitable[Reply]],
                    *, addressee: Role | None = None, doctor_turn: int | None = None,
                    tests: list[str] | None = None, meta: dict[str, Any] | None = None) -> Reply:
        """Run one agent call as a turn: started → deltas → completed (committed). A
        refusal (reply meta 'refused') is recorded as kind 'refusal' with no tests."""
        index = self.start_turn(role, doctor_turn)
        started = (utc_now(), time.perf_counter())
        reply = await self.guard(call(self.delta(index, role)))
        if reply.meta.get("refused"):
            kind, tests = "refusal", []
        self.reply_turn(index, role, reply, kind=kind, started=started, addressee=addressee,
                        doctor_turn=doctor_turn, tests=tests, meta=meta)
        return reply

    def fail(self, end_reason: EndReason, reason: str) -> None:
        """Record the end of a consultation that did not finish normally."""
        self.transcript.end_reason = end_reason
        self.transcript.meta["error"] = reason
        try:
            self.sink.emit(ConsultationFailed(consultation_id=self.cid, end_reason=end_reason,
                                              reason=reason, doctor_turns=self.doctor_turns))
        except Exception:  # a broken sink must not hide the original failure
            log.exception("could not record the failure of %s", self.cid)

    # -- cancellation ----------------------------------------------------------------------
    def check_cancelled(self) -> None:
        """Raise Cancelled if the consultation was asked to stop."""
        if self.cancel_event is not None and self.cancel_event.is_set():
            raise Cancelled

    async def guard(self, work: Awaitable[T]) -> T:
        """Await an agent, abandoning it as soon as the cancel event is set."""
        if self.cancel_event is None:
            return await work
        if self.cancel_event.is_set():
            if asyncio.iscoroutine(work):
                work.close()
            raise Cancelled
        task = asyncio.ensure_future(work)
        waiter = asyncio.ensure_future(self.cancel_event.wait())
        try:
            await asyncio.wait((task, waiter), return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # our own task was cancelled: leave nothing behind
            task.cancel()
            waiter.cancel()
            raise
        if not task.done():
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            raise Cancelled
        waiter.cancel()
        return task.result()
