"""Agent Hospital's three chained tasks as solvers: `agenthospital` (the configured doctor
takes them, case by case) and `medagent_zero` (a doctor that learns over the run's cases,
played one after another in case order).

A consultation is: the patient's own account (a patient turn, read from the patient's
view), then three doctor turns — the examination chosen (a test request the examiner
answers from its view), the diagnosis (`DIAGNOSIS READY`-equivalent: the verdict scorers
judge it) and the treatment level — each recorded the moment it exists, with the seconds it
took: each answer turn's meta holds the option read from it (`answer`) and its `seconds`
(what the task scorer, `core.scorers.tasks`, and `bedside results` read; a physician's
form time is what the app measures).

The doctor: `scripted` is a fixed keyword baseline, a model string a model, `human` a
physician in the app. MedAgent-Zero keeps its memory in the run's `RunState` (one per
configuration), recalls the top-k records and principles into each question and learns
from each case (`core.agenthospital.learner`); with `scripted` it is the offline
nearest-record learner. It is the one solver that reads the case's right answers — after
the doctor has answered, as the simulated hospital's feedback — and what it learned from a
case (records, principles kept or dropped) is recorded with that consultation: reflection
and retry turns are doctor turns of their own kinds that do not count against the budget.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.agenthospital.doctors import (HumanDoctor, ModelDoctor, NearestDoctor,
                                        ScriptedDoctor, TaskDoctor)
from core.agenthospital.kb import bundled_kb
from core.agenthospital.learner import Call, Learned, Learner
from core.agenthospital.memory import DEFAULT_K, item_data
from core.agenthospital.tasks import TASKS, Encounter, Question, key_of, pick, who
from core.agents.base import DeltaFn, Reply
from core.agents.factory import Cast
from core.config import AgentSpec
from core.errors import BedsideError
from core.events import TestRequested
from core.solvers.base import BaseSolver
from core.solvers.context import SolverContext
from core.solvers.solution import Solution
from core.transcript import Role, Turn, utc_now
from core.views import patient_view

_KINDS = {"examination": "test_request", "diagnosis": "diagnosis", "treatment": "treatment"}
_DOCTOR_TURN = {t: i for i, t in enumerate(TASKS, 1)}


class _Stage:
    """The learner's stage in a recorded consultation (`core.agenthospital.learner.Stage`)."""

    def __init__(self, ctx: SolverContext, cast: Cast) -> None:
        self.ctx, self.cast = ctx, cast

    async def doctor(self, kind: str, q: Question, call: Call, meta: dict[str, Any]) -> Reply:
        """An answer is the task's doctor turn; a reflection or retry a turn of its own
        kind with that turn's number. The option read from an answer and the seconds the
        call took go into the turn's meta (`answer`, `seconds`)."""
        ctx, dt = self.ctx, _DOCTOR_TURN[q.task]
        ctx.check_cancelled()

        async def timed(on_delta: DeltaFn) -> Reply:
            started = time.perf_counter()
            reply = await call(on_delta)
            if kind != "reflection":
                reply.meta["answer"] = pick(reply.text, q.options)
            reply.meta["seconds"] = round(time.perf_counter() - started, 3)
            return reply

        turn_kind = _KINDS[q.task] if kind == "answer" else kind
        exam = q.task == "examination" and kind == "answer"
        index = ctx.start_turn(Role.DOCTOR, dt)
        started = (utc_now(), time.perf_counter())
        reply = await ctx.guard(timed(ctx.delta(index, Role.DOCTOR)))
        chosen = reply.meta.get("answer")
        ctx.reply_turn(index, Role.DOCTOR, reply, kind=turn_kind, started=started,
                       addressee=Role.EXAMINER if exam else None, doctor_turn=dt,
                       tests=[chosen] if exam and chosen else None, meta=meta)
        if kind == "answer":
            ctx.doctor_turns = max(ctx.doctor_turns, dt)
        return reply

    async def examine(self, examination: str) -> str:
        """The examiner reports the chosen examination."""
        ctx = self.ctx
        if examination == "no examination":
            return "no examination was chosen"
        ctx.emit(TestRequested(consultation_id=ctx.cid, tests=[examination], doctor_turn=1))
        reply = await ctx.speak(Role.EXAMINER, "result", lambda d: self.cast.examiner.examine(
            [examination], f"REQUEST TEST: {examination}", d), addressee=Role.DOCTOR,
            doctor_turn=1, tests=[examination])
        return reply.text

    async def learned(self, learned: Learned) -> None:
        """What the task taught, as a turn of kind 'memory' (stored with the consultation:
        the items kept, with their steps)."""
        if not (learned.record or learned.principle):
            return
        parts = ["record kept"] if learned.record else []
        if learned.principle is not None:
            parts.append(f"principle {'kept' if learned.kept else 'dropped'}: "
                         f"{learned.principle}")
        self.ctx.add_turn(Turn(
            index=len(self.ctx.turns), role=Role.DOCTOR, kind="memory",
            doctor_turn=_DOCTOR_TURN[learned.task], content="; ".join(parts),
            started_at=utc_now(), ended_at=utc_now(),
            meta={"task": learned.task, "step": "memory", "record": learned.record,
                  "kept": learned.kept, "items": [item_data(i) for i in learned.items]}))


def _encounter(ctx: SolverContext) -> Encounter:
    """Who the patient is and what they say (the patient's view); findings come from the
    examiner, one at a time."""
    profile = patient_view(ctx.case).profile
    d = profile.demographics
    said = profile.opening or profile.history_of_present_illness or profile.chief_complaint
    return Encounter(case_id=ctx.case.id, who=who(d.age, d.sex), account=said or "",
                     findings={})


async def _say_account(ctx: SolverContext, enc: Encounter) -> None:
    async def said(_: Any) -> Reply:
        return Reply(text=enc.account, model="patient's account")
    await ctx.speak(Role.PATIENT, "answer", said, addressee=Role.DOCTOR, doctor_turn=0)


def _doctor(ctx: SolverContext, learning: bool) -> TaskDoctor:
    spec: AgentSpec = ctx.config.doctor
    if spec.kind == "llm":
        return ModelDoctor(spec, ctx.llm)
    if spec.kind == "human":
        if learning:
            raise BedsideError("a physician does not play MedAgent-Zero: choose a model or "
                               "scripted (the nearest-record learner)")
        if ctx.human_input is None:
            raise BedsideError("a human doctor plays in the app")
        return HumanDoctor(ctx.human_input, spec.display())
    if spec.kind == "scripted":
        return NearestDoctor() if learning else ScriptedDoctor()
    raise BedsideError(f"the '{spec.kind}' doctor does not play the Agent Hospital tasks")


async def play(ctx: SolverContext, learner: Learner, learn: bool) -> Solution:
    """One patient through the three tasks (the answers, their seconds and what was learned
    are in the turns)."""
    enc = _encounter(ctx)
    await _say_account(ctx, enc)
    stage = _Stage(ctx, ctx.cast())
    key = key_of(ctx.case) if learn else None
    if learn and key is None:
        raise BedsideError(f"case '{ctx.case.id}' is not a generated Agent Hospital case: "
                           "MedAgent-Zero has no feedback to learn from")
    outcome = await learner.treat(enc, key, learn=learn, stage=stage)
    learner.memory.take_added()  # recorded in the memory turns already
    return Solution(diagnosis=outcome.answers.diagnosis)


class AgentHospitalSolver(BaseSolver):
    """The configured doctor takes the three tasks (see the module docstring)."""

    name = "agenthospital"

    def judges(self, config: Any) -> list[AgentSpec]:
        """The deterministic verdict: the diagnosis is one of eight named options."""
        return [AgentSpec(kind="exact")]

    async def solve(self, ctx: SolverContext) -> Solution:
        """Play the three tasks."""
        return await play(ctx, Learner(bundled_kb(), _doctor(ctx, False)), learn=False)


class MedAgentZeroOptions(BaseModel):
    """MedAgent-Zero's options (`bedside run --task agenthospital --memory ARM`)."""

    model_config = ConfigDict(extra="forbid")

    arm: Literal["records", "experience", "both"] = Field(
        "both", description="What the doctor keeps and recalls.")
    k: int = Field(DEFAULT_K, ge=1, le=20, description="Records and principles recalled.")
    explore: float | None = Field(None, ge=0, le=1, description="Share of answers given "
                                  "without memory while learning (default 0.2 offline, 0 "
                                  "for a model).")


class MedAgentZeroSolver(AgentHospitalSolver):
    """The three tasks by a doctor that learns over the run (see the module docstring)."""

    name = "medagent_zero"
    sequential = True
    options_model = MedAgentZeroOptions

    async def solve(self, ctx: SolverContext) -> Solution:
        """Play and learn, with the configuration's memory."""
        opts = self.options
        assert isinstance(opts, MedAgentZeroOptions)
        slot = f"{self.name}:{ctx.config.config_key()}"
        learner: Learner | None = ctx.run_state.get(slot)
        if learner is None:
            doctor = _doctor(ctx, True)
            explore = opts.explore if opts.explore is not None else \
                0.2 if isinstance(doctor, NearestDoctor) else 0.0
            learner = Learner(bundled_kb(), doctor, arm=opts.arm, k=opts.k, explore=explore)
            ctx.run_state.put(slot, learner)
        return await play(ctx, learner, learn=True)
