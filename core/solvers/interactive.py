"""AgentClinic's consultation as a solver: the doctor asks, orders tests and diagnoses.

Each doctor turn is one question (answered by the patient), one test request (answered
by the examiner) or one `REQUEST IMAGES` (answered by the engine: `core.solvers.images`),
until `DIAGNOSIS READY:` or the end of the budget (the last turn is
announced to the doctor), or until a doctor ends without one (a replay line with no
diagnosis); then, if the configuration asks for it, the doctor's structured final report.
AI Hospital's protocol (`ConsultationConfig.protocol`, `core.solvers.protocols`) adds the
patient's opening complaint, the patient relaying test requests to the examiner and the
closing five-part report. With `intent_end` (RJUA's intent recognition, `core.intent`) a
doctor message that states a diagnosis or a treatment ends the consultation as the marker
does: its stated diagnosis is the diagnosis (a treatment alone ends it without one).
`consult` is the loop on its own, so a strategy that plays several doctors (or wraps one)
can reuse it with its own cast.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from typing import Any

from core.agents.factory import Cast
from core.agents.base import ENDS, Reply
from core.events import TestRequested
from core.intent import stated_intent
from core.protocol import DoctorAction, parse_doctor_message
from core.solvers import protocols
from core.solvers.base import BaseSolver
from core.solvers.solution import Solution
from core.solvers.context import SolverContext
from core.solvers.images import images_turn, prepare_images
from core.transcript import EndReason, Role, utc_now

INTERACTIVE = "interactive"
_KINDS = {"question": "question", "test_request": "test_request",
          "image_request": "image_request", "diagnosis": "diagnosis"}
_ADDRESSEES = {"question": Role.PATIENT, "test_request": Role.EXAMINER,
               "image_request": Role.SYSTEM}
#: One doctor turn: (context, cast, doctor turn number, the solution so far) → the
#: diagnosis if the doctor committed to one.
TurnFn = Callable[[SolverContext, Cast, int, Solution], Awaitable[str | None]]


class InteractiveSolver(BaseSolver):
    """The configured doctor against the configured patient and examiner."""

    name = INTERACTIVE

    async def solve(self, ctx: SolverContext) -> Solution:
        """Build the agents, then play the consultation."""
        return await consult(ctx, ctx.cast())


async def consult(ctx: SolverContext, cast: Cast, turn: TurnFn | None = None) -> Solution:
    """The doctor's turns until a diagnosis or the end of the budget, then the report.
    `turn` plays one doctor turn (`doctor_turn` by default; a strategy that adds steps to
    a turn, such as the doctor tools, passes its own)."""
    solution = Solution()
    await ctx.guard(prepare_images(ctx))
    await protocols.open_consultation(ctx, cast)
    play = turn or doctor_turn
    for dt in range(1, ctx.max_turns + 1):
        ctx.check_cancelled()
        diagnosis = await play(ctx, cast, dt, solution)
        if diagnosis is not None:
            solution.diagnosis = diagnosis
            break
        if solution.end_reason is not None:  # the doctor ended without a diagnosis
            break
    ctx.record(solution)
    if protocols.wants_report(ctx, solution.diagnosis is not None):
        state = ctx.doctor_state(ctx.doctor_turns)
        reply = await ctx.speak(Role.DOCTOR, "report", lambda d: cast.doctor.report(state, d))
        solution.report = reply.report or solution.report
        if solution.diagnosis is None and protocols.is_aihospital(ctx) and solution.report \
                and (stated := _first_line(solution.report.diagnostic_results)):
            # AI Hospital judges the report: its diagnosis stands when no marker came.
            solution.diagnosis = stated
            solution.end_reason = solution.end_reason or EndReason.BUDGET
        ctx.record(solution)
    return solution


def _first_line(text: str | None) -> str | None:
    lines = [x.strip(" -*•\t") for x in (text or "").splitlines() if x.strip(" -*•\t")]
    return lines[0] if lines else None


def _read(ctx: SolverContext, text: str, meta: dict[str, Any]) -> DoctorAction:
    """What a doctor message asks for; with intent recognition, a question that states a
    diagnosis or a treatment is one (how it was read goes into the turn's `meta`)."""
    action = parse_doctor_message(text)
    if action.kind != "question" or not ctx.config.intent_end:
        return action
    intent = stated_intent(text)
    if intent is None:
        return action
    meta.update(intent=intent.kind, intent_sentence=intent.sentence)
    return DoctorAction("diagnosis", diagnosis=intent.diagnosis)


async def doctor_turn(ctx: SolverContext, cast: Cast, dt: int,
                      solution: Solution) -> str | None:
    """One doctor turn and its answer; the diagnosis if the doctor committed to one (a
    report that comes with it, e.g. a physician's diagnosis form, goes to `solution`)."""
    state = ctx.doctor_state(dt)
    index = ctx.start_turn(Role.DOCTOR, dt)
    started = (utc_now(), time.perf_counter())
    reply = await ctx.guard(cast.doctor.act(state, ctx.delta(index, Role.DOCTOR)))
    return await commit_turn(ctx, cast, dt, reply, started, solution)


async def commit_turn(ctx: SolverContext, cast: Cast, dt: int, reply: Reply,
                      started: tuple[str, float], solution: Solution) -> str | None:
    """Record the doctor's message of turn `dt` (as the next turn) and have it answered;
    the diagnosis if it is one (see `doctor_turn`)."""
    state = ctx.doctor_state(dt)
    index = len(ctx.turns)
    # Counted once taken: a consultation stopped while the doctor was still deciding its
    # first turn used no turn (not one).
    ctx.doctor_turns = dt
    meta: dict[str, Any] = {"last_turn": True} if state.is_last else {}
    action = _read(ctx, reply.text, meta)
    if reply.meta.get(ENDS) or (action.kind == "diagnosis" and not action.diagnosis
                                and "intent" in meta):
        # A replay line without a diagnosis, or a stated treatment: the doctor just ends.
        action = DoctorAction("diagnosis")
        solution.end_reason = EndReason.DIAGNOSIS
    addressee = _ADDRESSEES.get(action.kind)
    if action.kind == "test_request" and protocols.is_aihospital(ctx):
        addressee = Role.PATIENT  # who takes the request to the examiner
    ctx.reply_turn(index, Role.DOCTOR, reply, kind=_KINDS[action.kind], started=started,
                   addressee=addressee, doctor_turn=dt, tests=action.tests, meta=meta or None)
    if action.kind == "diagnosis":
        if reply.report is not None:
            solution.report = reply.report
        return None if solution.end_reason else action.diagnosis or ""
    if action.kind == "test_request":
        if protocols.is_aihospital(ctx):
            await protocols.relay(ctx, dt, action.tests)
        await examiner_turn(ctx, cast, dt, action.tests, reply.text)
    elif action.kind == "image_request":
        await images_turn(ctx, dt)
    else:
        # The patient hears the dialogue; the doctor's tool turns are not part of it.
        heard = [t for t in ctx.turns[:-1] if t.role != Role.TOOL]
        await ctx.speak(Role.PATIENT, "answer",
                        lambda d: cast.patient.answer(reply.text, heard, d),
                        addressee=Role.DOCTOR, doctor_turn=dt)
    return None


async def examiner_turn(ctx: SolverContext, cast: Cast, dt: int, tests: list[str],
                        message: str) -> None:
    """Announce the request and let the examiner answer it."""
    ctx.emit(TestRequested(consultation_id=ctx.cid, tests=tests, doctor_turn=dt))
    await ctx.speak(Role.EXAMINER, "result",
                    lambda d: cast.examiner.examine(tests, message, d),
                    addressee=Role.DOCTOR, doctor_turn=dt, tests=tests)
