"""The async consultation engine: one doctor, one patient, one examiner, some moderators.

`run_consultation` plays a case under a `ConsultationConfig` and pushes typed events to a
sink as things happen: every completed turn is emitted the moment it exists (the store
commits on that event), so a crash loses at most the turn in flight. It never raises for a
failed consultation: a model error, a bug, or a sink that cannot record an event (say the
store refuses the row) is recorded as `ConsultationFailed` with the reason, and
cancellation (the `cancel_event`, or the task being cancelled) as `end_reason=cancelled`.
Token deltas are the one exception: they are ephemeral (the completed turn carries the
text), so a sink failing on one is logged and the consultation goes on.
`run_one_step_consultation` is the upper bound (the whole case in one doctor call), with
the same events and guarantees. The loop does no blocking I/O and reads no files.

Must not import: textual, rich, litellm (only core/llm.py, lazily), or db/annotation/tui.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from core import prompts
from core.agents.base import DeltaFn, DoctorState, Reply
from core.agents.factory import Cast, build_cast
from core.case import Case
from core.caseio import case_hash
from core.config import ConsultationConfig
from core.errors import BedsideError, RecordError
from core.events import (ConsultationFailed, ConsultationFinished, ConsultationStarted, Event,
                         EventSink, TestRequested, TokenDelta, TurnCompleted, TurnStarted)
from core.llm import LLMClient
from core.protocol import parse_doctor_message
from core.transcript import EndReason, Role, Transcript, Turn, utc_now

log = logging.getLogger("bedside.engine")
T = TypeVar("T")
ONE_STEP = "one_step"  # origin and config-key prefix of upper-bound consultations


class Cancelled(Exception):
    """The cancel event was set while the consultation ran."""


def describe_config(config: ConsultationConfig) -> dict[str, Any]:
    """The config as stored with the consultation: agents, rules, key and prompt hashes."""
    data = config.describe()
    roles = {"doctor": config.doctor.kind, "patient": config.patient.kind,
             "examiner": config.examiner.kind,
             "moderator": ",".join(dict.fromkeys(m.kind for m in config.moderators))}
    data["prompts"] = prompts.hashes_for(roles)
    return data


def one_step_key(config: ConsultationConfig) -> str:
    """The config key of the one-step (upper-bound) consultation of a configuration."""
    return f"{ONE_STEP}:{config.config_key()}"


def describe_consultation(case: Case, config: ConsultationConfig, *,
                          one_step: bool = False) -> dict[str, Any]:
    """Everything stored with a consultation about how it was played: the configuration
    (`describe_config`), for a one-step one its own key, mode and prompt, and the hash of
    the case it was played on. One place, so a consultation that ran and one cancelled
    before it started are described alike."""
    described = describe_config(config)
    if one_step:
        from core.metrics.prompts import ONE_STEP_DOCTOR

        described.update(config_key=one_step_key(config), mode=ONE_STEP,
                         prompts={ONE_STEP_DOCTOR.id: ONE_STEP_DOCTOR.sha256})
    described["case_hash"] = case_hash(case)
    return described


class Session:
    """The state of one running consultation."""

    def __init__(self, case_id: str, config: ConsultationConfig, sink: EventSink,
                 consultation_id: str, cancel_event: asyncio.Event | None) -> None:
        self.config, self.sink, self.cid = config, sink, consultation_id
        self.cancel_event = cancel_event
        self.transcript = Transcript(case_id=case_id, doctor=config.doctor.display())
        self.turns = self.transcript.turns
        self.doctor_turns = 0

    # -- plumbing --------------------------------------------------------------------------
    def emit(self, event: Event) -> None:
        """Hand an event to the sink; a sink failure becomes a RecordError (the
        consultation then fails with it as the reason)."""
        try:
            self.sink.emit(event)
        except Exception as err:
            log.exception("could not record %s of %s", event.type, self.cid)
            raise RecordError(f"could not record the {event.type.replace('_', ' ')} event: "
                              f"{_reason(err)}") from err

    def _delta(self, index: int, role: Role) -> DeltaFn:
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

    async def _guard(self, work: Awaitable[T]) -> T:
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

    async def speak(self, role: Role, kind: str, call: Callable[[DeltaFn], Awaitable[Reply]],
                    *, addressee: Role | None = None, doctor_turn: int | None = None,
                    tests: list[str] | None = None, meta: dict[str, Any] | None = None) -> Reply:
        """Run one agent call as a turn: started → deltas → completed (committed)."""
        index = len(self.turns)
        self.emit(TurnStarted(consultation_id=self.cid, index=index, role=role,
                              doctor_turn=doctor_turn))
        started_at, t0 = utc_now(), time.perf_counter()
        reply = await self._guard(call(self._delta(index, role)))
        if reply.meta.get("refused"):
            kind, tests = "refusal", []
        self.add_turn(Turn(
            index=index, role=role, addressee=addressee, content=reply.text,
            doctor_turn=doctor_turn, kind=kind, tests=tests or [], started_at=started_at,
            ended_at=utc_now(), latency_ms=round((time.perf_counter() - t0) * 1000, 3),
            usage=reply.usage, model=reply.model, raw_request=reply.raw_request,
            raw_response=reply.raw_response, meta={**reply.meta, **(meta or {})}))
        return reply

    def add_turn(self, turn: Turn) -> None:
        """Append a completed turn and emit it at once."""
        self.turns.append(turn)
        self.emit(TurnCompleted(consultation_id=self.cid, turn=turn))

    def fail(self, end_reason: EndReason, reason: str) -> None:
        """Record the end of a consultation that did not finish normally."""
        self.transcript.end_reason = end_reason
        self.transcript.meta["error"] = reason
        try:
            self.sink.emit(ConsultationFailed(consultation_id=self.cid, end_reason=end_reason,
                                              reason=reason, doctor_turns=self.doctor_turns))
        except Exception:  # a broken sink must not hide the original failure
            log.exception("could not record the failure of %s", self.cid)

    # -- the consultation ------------------------------------------------------------------
    async def play(self, cast: Cast) -> None:
        """The doctor's turns until a diagnosis or the end of the budget, then the verdicts."""
        diagnosis: str | None = None
        for dt in range(1, self.config.max_turns + 1):
            if self.cancel_event is not None and self.cancel_event.is_set():
                raise Cancelled
            diagnosis = await self.doctor_turn(cast, dt)
            if diagnosis is not None:
                break
        await self.finish(cast, diagnosis)

    async def doctor_turn(self, cast: Cast, dt: int) -> str | None:
        """One doctor turn and its answer; the diagnosis if the doctor committed to one."""
        self.doctor_turns = dt
        state = DoctorState(turns=self.turns, doctor_turn=dt, max_turns=self.config.max_turns)
        index = len(self.turns)
        self.emit(TurnStarted(consultation_id=self.cid, index=index, role=Role.DOCTOR,
                              doctor_turn=dt))
        started_at, t0 = utc_now(), time.perf_counter()
        reply = await self._guard(cast.doctor.act(state, self._delta(index, Role.DOCTOR)))
        action = parse_doctor_message(reply.text)
        kind = {"question": "question", "test_request": "test_request",
                "diagnosis": "diagnosis"}[action.kind]
        addressee = {"question": Role.PATIENT, "test_request": Role.EXAMINER}.get(action.kind)
        meta = {**reply.meta, **({"last_turn": True} if state.is_last else {})}
        self.add_turn(Turn(
            index=index, role=Role.DOCTOR, addressee=addressee, content=reply.text,
            doctor_turn=dt, kind=kind, tests=action.tests, started_at=started_at,
            ended_at=utc_now(), latency_ms=round((time.perf_counter() - t0) * 1000, 3),
            usage=reply.usage, model=reply.model, raw_request=reply.raw_request,
            raw_response=reply.raw_response, meta=meta))
        if action.kind == "diagnosis":
            if reply.report is not None:
                self.transcript.report = reply.report
            return action.diagnosis or ""
        if action.kind == "test_request":
            await self.examiner_turn(cast, dt, action.tests, reply.text)
        else:
            await self.speak(Role.PATIENT, "answer",
                             lambda d: cast.patient.answer(reply.text, self.turns[:-1], d),
                             addressee=Role.DOCTOR, doctor_turn=dt)
        return None

    async def examiner_turn(self, cast: Cast, dt: int, tests: list[str], message: str) -> None:
        """Announce the request and let the examiner answer it."""
        self.emit(TestRequested(consultation_id=self.cid, tests=tests, doctor_turn=dt))
        await self.speak(Role.EXAMINER, "result",
                         lambda d: cast.examiner.examine(tests, message, d),
                         addressee=Role.DOCTOR, doctor_turn=dt, tests=tests)

    async def finish(self, cast: Cast, diagnosis: str | None) -> None:
        """Optional final report, the moderators' verdicts, and the finished event."""
        t = self.transcript
        t.diagnosis = diagnosis
        t.end_reason = EndReason.DIAGNOSIS if diagnosis is not None else EndReason.BUDGET
        state = DoctorState(turns=self.turns, doctor_turn=self.doctor_turns,
                            max_turns=self.config.max_turns)
        if self.config.final_report and diagnosis is not None:
            reply = await self.speak(Role.DOCTOR, "report",
                                     lambda d: cast.doctor.report(state, d))
            t.report = reply.report or t.report
        if diagnosis is not None:
            await self.judge(cast, diagnosis)
        self.emit(ConsultationFinished(
            consultation_id=self.cid, end_reason=t.end_reason, diagnosis=diagnosis,
            verdicts=t.verdicts, report=t.report, doctor_turns=self.doctor_turns))

    async def judge(self, cast: Cast, diagnosis: str) -> None:
        """Every moderator judges; an LLM moderator's call is recorded as a verdict turn."""
        results = await self._guard_all([m.judge(diagnosis) for m in cast.moderators])
        for verdict, reply in results:
            self.transcript.verdicts.append(verdict)
            if reply is not None:
                self.add_turn(Turn(
                    index=len(self.turns), role=Role.MODERATOR, content=reply.text,
                    kind="verdict", started_at=utc_now(), ended_at=utc_now(),
                    latency_ms=reply.meta.get("call_ms"), usage=reply.usage, model=reply.model,
                    raw_request=reply.raw_request, raw_response=reply.raw_response,
                    meta={"correct": verdict.correct}))

    async def _guard_all(self, calls: list[Coroutine[Any, Any, Any]]) -> list[Any]:
        async def gather() -> Any:
            return await asyncio.gather(*calls)
        try:
            return await self._guard(gather())
        finally:
            # A cancel before gather() ran drops calls that never started: close them, or
            # Python warns "coroutine ... was never awaited" when they are collected.
            for call in calls:
                if inspect.getcoroutinestate(call) == inspect.CORO_CREATED:
                    call.close()

    async def one_step(self, case: Case, llm: LLMClient) -> None:
        """The upper bound: one doctor call with the whole case, scored like any other."""
        from core.metrics.llmcall import complete_from_spec, spec_info
        from core.metrics.upper_bound import run_one_step

        spec = self.config.doctor
        if spec.kind != "llm":
            raise BedsideError("one-step mode needs a model doctor")
        self.emit(TurnStarted(consultation_id=self.cid, index=0, role=Role.DOCTOR,
                              doctor_turn=1))
        done = await self._guard(run_one_step(case, complete_from_spec(spec, llm),
                                              doctor=spec.display(), info=spec_info(spec)))
        self.doctor_turns = 1
        for turn in done.turns:
            self.add_turn(turn)
        t = self.transcript
        t.diagnosis, t.end_reason, t.report = done.diagnosis, done.end_reason, done.report
        t.verdicts.extend(done.verdicts)
        t.meta.update(done.meta)
        self.emit(ConsultationFinished(
            consultation_id=self.cid, end_reason=t.end_reason, diagnosis=t.diagnosis,
            verdicts=t.verdicts, report=t.report, doctor_turns=1))


def _reason(err: BaseException) -> str:
    if isinstance(err, BedsideError):
        return str(err)
    text = str(err).strip().splitlines()[0] if str(err).strip() else ""
    return f"{type(err).__name__}: {text}"[:300] if text else type(err).__name__


async def _isolated(session: Session, body: Coroutine[Any, Any, None]) -> None:
    """Run a consultation body; every way it can end is recorded, none escapes but task
    cancellation (recorded first, then re-raised)."""
    try:
        await body
    except Cancelled:
        session.fail(EndReason.CANCELLED, "cancelled")
    except asyncio.CancelledError:
        session.fail(EndReason.CANCELLED, "cancelled")
        raise
    except Exception as err:  # isolate: the consultation fails, the caller goes on
        if not isinstance(err, BedsideError):
            log.exception("consultation %s failed", session.cid)
        session.fail(EndReason.ERROR, _reason(err))


def _start(case: Case, config: ConsultationConfig, sink: EventSink, consultation_id: str,
           run_id: str | None, cancel_event: asyncio.Event | None,
           described: dict[str, Any]) -> Session:
    session = Session(case.id, config, sink, consultation_id, cancel_event)
    session.transcript.meta.update(config=described, consultation_id=consultation_id,
                                   run_id=run_id)
    return session


async def run_consultation(case: Case, config: ConsultationConfig, sink: EventSink, *,
                           consultation_id: str, run_id: str | None = None,
                           cancel_event: asyncio.Event | None = None,
                           human_input: Callable[..., Awaitable[Any]] | None = None,
                           llm: LLMClient | None = None) -> Transcript:
    """Play one consultation; return its transcript (also when it failed or was cancelled).

    `llm` is the model client (one per process is enough; tests pass one holding a fake
    key). Raises only `asyncio.CancelledError` when the task itself is cancelled, after
    recording the cancellation.
    """
    described = describe_consultation(case, config)
    session = _start(case, config, sink, consultation_id, run_id, cancel_event, described)

    async def body() -> None:
        session.emit(ConsultationStarted(consultation_id=consultation_id, case_id=case.id,
                                         run_id=run_id, config=described))
        cast = build_cast(case, config, client=llm or LLMClient(), human_input=human_input)
        await session.play(cast)

    await _isolated(session, body())
    return session.transcript


async def run_one_step_consultation(case: Case, config: ConsultationConfig, sink: EventSink,
                                    *, consultation_id: str, run_id: str | None = None,
                                    cancel_event: asyncio.Event | None = None,
                                    llm: LLMClient | None = None) -> Transcript:
    """The upper bound of a configuration: its model doctor gets the whole case at once
    (`core.metrics.upper_bound`) and answers in one turn. Stored like any consultation,
    with origin 'one_step' and the key `one_step_key(config)`; same guarantees as
    `run_consultation`."""
    described = describe_consultation(case, config, one_step=True)
    session = _start(case, config, sink, consultation_id, run_id, cancel_event, described)

    async def body() -> None:
        session.emit(ConsultationStarted(consultation_id=consultation_id, case_id=case.id,
                                         run_id=run_id, config=described, origin=ONE_STEP))
        await session.one_step(case, llm or LLMClient())

    await _isolated(session, body())
    return session.transcript
