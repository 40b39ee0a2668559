"""RJUA's two single-answer tasks as solvers (`bedside run --task rjua-reasoning|rjua-qa`),
beside the interactive consultation, each with its own rows in the results
(`core.scorers.rjua`).

- `rjua-reasoning` (diagnostic reasoning): the patient says its first words (its opening,
  else its chief complaint, from the patient's view) and the doctor, from that alone,
  lists the tests it would order, in one `REQUEST TEST:` turn. Nobody answers it: the task
  is the choice, scored by precision and recall against the tests the case marks relevant.
- `rjua-qa` (single-turn QA): the doctor gets the whole record at once (as the one-step
  upper bound does: no ground truth) and answers with its diagnosis and treatment in one
  turn; the configuration's moderators judge the diagnosis, the treatment is scored against
  the case's.

The doctor is a model (its own prompt, `core.prompts.rjua_texts`, hashed with the
consultation) or `scripted`: the reference scripted doctor's routine work-up and keyword
tests for the first words, its keyword diagnosis for the record (deterministic baselines
that need no model).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from core.agents.base import Reply
from core.case import Case
from core.config import AgentSpec, ConsultationConfig
from core.errors import BedsideError
from core.prompts import RJUA_QA, RJUA_REASONING, Prompt, language_name
from core.protocol import parse_doctor_message
from core.solvers.base import BaseSolver
from core.solvers.context import SolverContext
from core.solvers.solution import Solution
from core.transcript import EndReason, FinalReport, Role, utc_now
from core.views import patient_view

RJUA_REASONING_TASK, RJUA_QA_TASK = "rjua-reasoning", "rjua-qa"
SCRIPTED_PLAN = "Treat according to local guidelines for the diagnosis."
Messages = list[dict[str, Any]]
Answer = Callable[[], Awaitable[Reply]]


def initial_query(case: Case) -> str:
    """The patient's first words: its opening, else its chief complaint or story; the
    presenting problem when the case gives the patient none."""
    profile = patient_view(case).profile
    said = profile.opening or profile.chief_complaint or profile.history_of_present_illness
    return said or case.objective


def _ask(ctx: SolverContext, prompt: Prompt, text: str, scripted: Callable[[], str]) -> Answer:
    """The doctor's one answer: its model given `text`, or the scripted baseline."""
    spec: AgentSpec = ctx.config.doctor
    if spec.kind == "scripted":
        async def offline() -> Reply:
            return Reply(text=scripted(), model="scripted")
        return offline
    if spec.kind != "llm":
        raise BedsideError(f"the '{spec.display()}' doctor does not play RJUA's tasks: give "
                           "--doctor scripted or a model")
    from core.agents.llm_agents import complete_from_spec

    complete = complete_from_spec(spec, ctx.llm)

    async def model() -> Reply:
        got = await complete([{"role": "user", "content": text}])
        return Reply(text=got) if isinstance(got, str) else got
    return model


async def _answer(ctx: SolverContext, answer: Answer, prompt: Prompt, *, kind: str,
                  tests: Callable[[str], list[str]] | None = None) -> Reply:
    """The doctor's one turn, recorded the moment it exists (with its prompt's hash)."""
    index = ctx.start_turn(Role.DOCTOR, 1)
    started = (utc_now(), time.perf_counter())
    reply = await ctx.guard(answer())
    ordered = tests(reply.text) if tests else None
    ctx.reply_turn(index, Role.DOCTOR, reply, kind=kind if ordered is None or ordered
                   else "message", started=started, doctor_turn=1, tests=ordered,
                   addressee=Role.EXAMINER if ordered else None,
                   meta={"prompt_id": prompt.id, "prompt_hash": prompt.sha256})
    ctx.doctor_turns = 1
    return reply


def _described(described: dict[str, Any], prompt: Prompt) -> dict[str, Any]:
    described["prompts"] = {prompt.id: prompt.sha256}
    return described


class RjuaReasoningSolver(BaseSolver):
    """From the patient's first words, the tests the doctor would order (one turn)."""

    name = RJUA_REASONING_TASK

    def describe(self, config: ConsultationConfig, described: dict[str, Any]) -> dict[str, Any]:
        """The task's prompt instead of the consultation's."""
        return _described(described, RJUA_REASONING)

    def judges(self, config: ConsultationConfig) -> list[AgentSpec]:
        """None: the answer is tests, not a diagnosis."""
        return []

    async def solve(self, ctx: SolverContext) -> Solution:
        """The patient's words, then the doctor's test orders."""
        from core.agents.scripted_doctor import tests_for

        query = initial_query(ctx.case)

        async def said(_: Any) -> Reply:
            return Reply(text=query, model="patient's first words")
        await ctx.speak(Role.PATIENT, "answer", said, addressee=Role.DOCTOR, doctor_turn=0)
        text = RJUA_REASONING.format(query=query, language_name=language_name(
            ctx.case.language))
        answer = _ask(ctx, RJUA_REASONING, text,
                      lambda: "REQUEST TEST: " + ", ".join(tests_for(query)))
        await _answer(ctx, answer, RJUA_REASONING, kind="test_request", tests=_tests)
        # The task ends with the answer: there is no diagnosis to reach.
        return Solution(end_reason=EndReason.DIAGNOSIS, meta={"task": self.name})


def _tests(text: str) -> list[str]:
    action = parse_doctor_message(text)
    return list(action.tests) if action.kind == "test_request" else []


class RjuaQaSolver(BaseSolver):
    """The whole record at once; the diagnosis and treatment in one turn."""

    name = RJUA_QA_TASK

    def describe(self, config: ConsultationConfig, described: dict[str, Any]) -> dict[str, Any]:
        """The task's prompt instead of the consultation's."""
        return _described(described, RJUA_QA)

    async def solve(self, ctx: SolverContext) -> Solution:
        """One answer; its `DIAGNOSIS READY:` line is the diagnosis, its treatment plan
        the report's."""
        from core.agents.llm_agents import parse_report
        from core.agents.scripted_doctor import guess_diagnosis
        from core.solvers.one_step import full_record

        record = full_record(ctx.case)
        text = RJUA_QA.format(record=record, language_name=language_name(ctx.case.language))
        answer = _ask(ctx, RJUA_QA, text, lambda: f"DIAGNOSIS READY: "
                      f"{guess_diagnosis(record)}\nTreatment plan: {SCRIPTED_PLAN}")
        reply = await _answer(ctx, answer, RJUA_QA, kind="diagnosis")
        action = parse_doctor_message(reply.text)
        diagnosis = action.diagnosis if action.kind == "diagnosis" else None
        rest = reply.text.split("\n", 1)[1] if "\n" in reply.text else ""
        parsed = parse_report(rest) if rest.strip() else FinalReport()
        report = FinalReport(diagnostic_results=diagnosis,
                             treatment_plan=parsed.treatment_plan or parsed.rationale)
        return Solution(diagnosis=diagnosis, report=report, meta={"task": self.name})
