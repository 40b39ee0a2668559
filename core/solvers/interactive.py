"""AgentClinic's consultation as a solver: the doctor asks, orders tests and diagnoses.

Each doctor turn is one question (answered by the patient), one test request (answered
by the examiner) or one `REQUEST IMAGES` (answered by the engine: `core.solvers.images`),
until `DIAGNOSIS READY:` or the end of the budget (the last turn is
announced to the doctor), or until a doctor ends without one (a replay line with no
diagnosis); then, if the configuration asks for it, the doctor's structured final report.
`consult` is the loop on its own, so a strategy that plays several doctors (or wraps one)
can reuse it with its own cast.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from core.agents.factory import Cast
from core.agents.base import ENDS, Reply
from core.events import TestRequested
from core.protocol import DoctorAction, parse_doctor_message
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
    if ctx.config.final_report and solution.diagnosis is not None:
        state = ctx.doctor_state(ctx.doctor_turns)
        reply = await ctx.speak(Role.DOCTOR, "report", lambda d: cast.doctor.report(state, d))
        solution.report = reply.report or solution.report
        ctx.record(solution)
    return solution


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
    action = parse_doctor_message(reply.text)
    if reply.meta.get(ENDS):  # a replay line without a diagnosis: the doctor just ends
        action = DoctorAction("diagnosis")
        solution.end_reason = EndReason.DIAGNOSIS
    ctx.reply_turn(index, Role.DOCTOR, reply, kind=_KINDS[action.kind], started=started,
                   addressee=_ADDRESSEES.get(action.kind), doctor_turn=dt, tests=action.tests,
                   meta={"last_turn": True} if state.is_last else None)
    if action.kind == "diagnosis":
        if reply.report is not None:
            solution.report = reply.report
        return None if solution.end_reason else action.diagnosis or ""
    if action.kind == "test_request":
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
