"""Upper bound (AI Hospital's one-step diagnosis) as a solver: the doctor receives the whole
case at once — presenting problem, history, examination findings and test results, never
the ground truth — and answers in one call with `DIAGNOSIS READY:` and a five-part report.

The case's images come with the record, whatever the `--images` mode (the whole case at
once), as image content parts after the text.

It is the upper bound of a configuration: its model doctor (its biases' paragraphs after
the record), the deterministic verdict only, stored in the same run under the key
`one_step:<config key>` with origin and mode 'one_step' and the one-step prompt's hash, so
it is scored like any consultation and shown beside the interactive runs (its pathway
metrics are None: 'one-step mode has no pathway').
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from core.agents.base import Reply
from core.agents.llm_agents import complete_from_spec, parse_report
from core.case import Case
from core.config import AgentSpec, ConsultationConfig
from core.errors import BedsideError
from core.images import UPFRONT, CaseImage, image_parts
from core.prompts import ONE_STEP_DOCTOR, language_name
from core.prompts.bias import doctor_paragraphs, hashes, with_paragraphs
from core.prompts.render import render_profile
from core.protocol import parse_doctor_message
from core.solvers.base import BaseSolver
from core.solvers.solution import Solution
from core.solvers.context import SolverContext
from core.solvers.images import read_images
from core.transcript import Role, Turn, Usage, utc_now
from core.views import patient_view

ONE_STEP = "one_step"  # solver name, origin, mode and config-key prefix
Messages = list[dict[str, Any]]
# A model call: `await complete(messages)` gives a Reply (or, from a test, the text).
Complete = Callable[[Messages], Awaitable[Reply | str]]


def one_step_key(config: ConsultationConfig) -> str:
    """The config key of the one-step (upper-bound) consultation of a configuration."""
    return f"{ONE_STEP}:{config.config_key()}"


def full_record(case: Case) -> str:
    """Everything a doctor could learn in a consultation, as text (no ground truth)."""
    lines = [f"Presenting problem: {case.objective}", render_profile(patient_view(case))]
    lines.extend(f"Examination: {i.render()}" for i in case.physical_exam)
    lines.extend(f"Test: {i.render()}" for i in case.tests)
    if case.truth.options:
        lines.append("Possible diagnoses to choose from: " + "; ".join(case.truth.options))
    return "\n".join(lines)


def one_step_messages(case: Case, bias: str | None = None,
                      images: list[CaseImage] | None = None) -> Messages:
    """The single message of a one-step consultation; a biased doctor's paragraphs follow
    it (`core.prompts.bias`), as they follow its instructions in a consultation, and the
    case's images, when it has any, come after the text."""
    text = with_paragraphs(ONE_STEP_DOCTOR.format(
        record=full_record(case), language_name=language_name(case.language)),
        doctor_paragraphs(bias))
    if not images:
        return [{"role": "user", "content": text}]
    return [{"role": "user", "content": [{"type": "text", "text": text},
                                         *image_parts(images)]}]


class OneStepSolver(BaseSolver):
    """The configuration's model doctor, given the whole case, answers in one turn.

    `complete` replaces the model call (tests); by default it is the doctor's model,
    not streamed. A reply without `DIAGNOSIS READY:` has no diagnosis (counted wrong, like
    a budget end)."""

    name = ONE_STEP
    origin = ONE_STEP

    def __init__(self, options: dict[str, Any] | None = None, *,
                 complete: Complete | None = None) -> None:
        super().__init__(options)
        self.complete = complete

    def key(self, config: ConsultationConfig) -> str:
        """`one_step:<config key>`: apart from the configuration's own consultations."""
        return one_step_key(config)

    def describe(self, config: ConsultationConfig, described: dict[str, Any]) -> dict[str, Any]:
        """Its own key, the mode, and the one-step prompt instead of the agents' prompts."""
        described.update(config_key=one_step_key(config), mode=ONE_STEP,
                         prompts={ONE_STEP_DOCTOR.id: ONE_STEP_DOCTOR.sha256,
                                  **hashes("doctor", config.doctor.bias)})
        return described

    def judges(self, config: ConsultationConfig) -> list[AgentSpec]:
        """The deterministic verdict only."""
        return [AgentSpec(kind="exact")]

    async def solve(self, ctx: SolverContext) -> Solution:
        """One doctor call with the whole case."""
        spec = ctx.config.doctor
        if spec.kind != "llm":
            raise BedsideError("one-step mode needs a model doctor")
        images = await ctx.guard(read_images(ctx, UPFRONT))
        ctx.start_turn(Role.DOCTOR, 1)
        complete = self.complete or complete_from_spec(spec, ctx.llm)
        started, t0 = utc_now(), time.perf_counter()
        got = await ctx.guard(complete(one_step_messages(ctx.case, spec.bias, images)))
        reply = Reply(text=got) if isinstance(got, str) else got
        action = parse_doctor_message(reply.text)
        diagnosis = action.diagnosis if action.kind == "diagnosis" else None
        ctx.doctor_turns = 1
        ctx.add_turn(Turn(
            index=0, role=Role.DOCTOR, content=reply.text, doctor_turn=1,
            kind="diagnosis" if diagnosis else "message", started_at=started,
            ended_at=utc_now(), latency_ms=round((time.perf_counter() - t0) * 1000, 3),
            usage=reply.usage or Usage(), model=reply.model or spec.model,
            raw_request=reply.raw_request, raw_response=reply.raw_response,
            meta={"prompt_id": ONE_STEP_DOCTOR.id, "prompt_hash": ONE_STEP_DOCTOR.sha256}))
        text = reply.text
        report = parse_report(text.split("\n", 1)[1]) if "\n" in text else None
        return Solution(diagnosis=diagnosis, report=report,
                        meta={"mode": ONE_STEP, "doctor_params": spec.params()})
