"""The LLM-based metrics as scorers: a judge grades the final report (`report_score`,
AI Hospital) and the consultation's patient rates the doctor (`pr_*`, AgentClinic).

Each is given a `complete` callable (a model call: `core.agents.llm_agents
.complete_from_spec`, or a test's function) and the judge's description (model and
parameters), recorded with every value. `key(case)` is the cache key of its values (metric,
model, parameters, prompt hash, case content): a value stored with the same key is current.
A one-step consultation has no patient in it, so nobody rates that doctor (no call).
"""

from __future__ import annotations

from typing import Self

from core.agents.llm_agents import complete_from_spec
from core.case import Case
from core.config import AgentSpec
from core.llm import LLMClient
from core.metrics.base import undefined
from core.metrics.compute import judge_report, llm_key, rate_by_patient
from core.metrics.llmcall import Complete, JudgeInfo, spec_info
from core.metrics.names import COLLABORATION, JOINT_NO_PATIENT, ONE_STEP, PATIENT_NAMES
from core.scorers.base import Finished, Scores

ONE_STEP_NO_PATIENT = "one-step mode: no consultation for a patient to rate"


class _ModelScorer:
    """A scorer backed by one model call per consultation."""

    name = "model"
    role = "judge"  # the role in the cache key
    names: tuple[str, ...] = ()

    def __init__(self, complete: Complete, info: JudgeInfo | None = None) -> None:
        self.complete, self.info = complete, info or JudgeInfo()

    @classmethod
    def from_spec(cls, spec: AgentSpec, llm: LLMClient | None = None) -> Self:
        """The scorer calling `spec`'s model (not streamed)."""
        return cls(complete_from_spec(spec, llm), spec_info(spec))

    def key(self, case: Case) -> str | None:
        """The cache key of this scorer's values for `case`."""
        return llm_key(self.role, self.info, case)

    async def score(self, case: Case, done: Finished) -> Scores:
        """Subclasses make their call here."""
        raise NotImplementedError


class ReportGrade(_ModelScorer):
    """report_score: the judge's A–D grades of the five report parts, as 0–100."""

    name = "report_score"
    role = "judge"
    names = ("report_score",)

    async def score(self, case: Case, done: Finished) -> Scores:
        """The grade ('no final report' is undefined, not 0)."""
        return await judge_report(case, done.transcript, self.complete, self.info)


class PatientReported(_ModelScorer):
    """pr_confidence, pr_compliance, pr_consult_again: the patient's 1–10 ratings."""

    name = "patient_reported"
    role = "patient"
    names = PATIENT_NAMES

    async def score(self, case: Case, done: Finished) -> Scores:
        """The three ratings (undefined, with no call, for a one-step consultation or a
        collaboration's joint result: no patient took part in either)."""
        if done.solver == ONE_STEP:
            return {n: undefined(ONE_STEP_NO_PATIENT) for n in self.names}
        if done.solver == COLLABORATION:
            return {n: undefined(JOINT_NO_PATIENT) for n in self.names}
        return await rate_by_patient(case, done.transcript, self.complete, self.info)
