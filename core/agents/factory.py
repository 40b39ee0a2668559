"""Builds the four agents of a consultation, each from its own role's view of the case.

This is the only place that holds the whole case while agents are made; each agent
receives one view (`core.views`) and nothing else.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.agents.base import Doctor, Examiner, Moderator, Patient
from core.agents.human_doctor import HumanDoctor, HumanInput
from core.agents.llm_agents import LLMDoctor, LLMExaminer, LLMModerator, LLMPatient
from core.agents.moderator import ExactModerator
from core.agents.retrieval_examiner import RetrievalExaminer
from core.agents.retrieval_patient import RetrievalPatient
from core.agents.scripted_doctor import ScriptedDoctor
from core.case import Case
from core.config import AgentSpec, ConsultationConfig
from core.errors import BedsideError
from core.llm import LLMClient
from core.views import doctor_view, examiner_view, moderator_view, patient_view


@dataclass
class Cast:
    """The agents of one consultation."""

    doctor: Doctor
    patient: Patient
    examiner: Examiner
    moderators: list[Moderator]


def _doctor(case: Case, config: ConsultationConfig, human_input: HumanInput | None,
            client: LLMClient) -> Doctor:
    spec, view = config.doctor, doctor_view(case)
    if spec.kind == "scripted":
        return ScriptedDoctor(view, config.seed)
    if spec.kind == "human":
        if human_input is None:
            raise BedsideError("a human doctor needs an input from the user interface")
        return HumanDoctor(human_input, spec.display())
    if spec.kind == "llm":
        return LLMDoctor(view, spec, client, config.max_turns)
    raise BedsideError(f"'{spec.kind}' cannot play the doctor")


def _moderator(case: Case, spec: AgentSpec, client: LLMClient) -> Moderator:
    view = moderator_view(case)
    if spec.kind == "exact":
        return ExactModerator(view)
    if spec.kind == "llm":
        return LLMModerator(view, spec, client)
    raise BedsideError(f"'{spec.kind}' cannot moderate")


def build_cast(case: Case, config: ConsultationConfig, *, client: LLMClient,
               human_input: HumanInput | None = None) -> Cast:
    """One agent per role, each constructed from its view only."""
    p, e = config.patient, config.examiner
    if p.kind not in ("retrieval", "llm") or e.kind not in ("retrieval", "llm"):
        raise BedsideError("patient and examiner must be 'retrieval' or a model")
    patient: Patient = (RetrievalPatient(patient_view(case)) if p.kind == "retrieval"
                        else LLMPatient(patient_view(case), p, client))
    examiner: Examiner = (RetrievalExaminer(examiner_view(case)) if e.kind == "retrieval"
                          else LLMExaminer(examiner_view(case), e, client))
    return Cast(doctor=_doctor(case, config, human_input, client), patient=patient,
                examiner=examiner,
                moderators=[_moderator(case, m, client) for m in config.moderators])
