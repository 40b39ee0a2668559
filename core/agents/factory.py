"""Builds the agents of a consultation, each from its own role's view of the case: the
cast (doctor, patient, examiner) a solver plays with, and the moderators the verdict
scorers wrap.

This is the only place that holds the whole case while agents are made; each agent
receives one view (`core.views`) and nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.agents.base import Doctor, Examiner, Moderator, Patient
from core.agents.biased_patient import BiasedRetrievalPatient
from core.agents.human_doctor import HumanDoctor, HumanInput
from core.agents.human_patient import HumanPatient
from core.agents.llm_agents import LLMDoctor, LLMExaminer, LLMModerator, LLMPatient
from core.agents import replay_doctor
from core.agents.moderator import ExactModerator
from core.agents.retrieval_examiner import RetrievalExaminer
from core.agents.retrieval_patient import RetrievalPatient
from core.agents.scripted_doctor import ScriptedDoctor
from core.biases import biased_view
from core.case import Case
from core.config import AgentSpec, ConsultationConfig
from core.errors import BedsideError
from core.llm import LLMClient
from core.views import doctor_view, examiner_view, moderator_view


@dataclass
class Cast:
    """The agents a solver plays with (the moderators judge apart, as verdict scorers)."""

    doctor: Doctor
    patient: Patient
    examiner: Examiner


def _doctor(case: Case, config: ConsultationConfig, human_input: HumanInput | None,
            client: LLMClient) -> Doctor:
    spec, view = config.doctor, doctor_view(case, config.images)
    if spec.kind == "scripted":
        return ScriptedDoctor(view, config.seed if spec.seed is None else spec.seed)
    if spec.kind == "human":
        if human_input is None:
            raise BedsideError("a human doctor needs an input from the user interface")
        return HumanDoctor(human_input, spec.display())
    if spec.kind == "llm":
        return LLMDoctor(view, spec, client, config.max_turns, config.protocol)
    if spec.kind == "replay":
        return replay_doctor.build(spec, case.id)
    if spec.kind == "team":
        raise BedsideError("a team of doctors plays through the collaborate solver")
    raise BedsideError(f"'{spec.kind}' cannot play the doctor")


def build_moderator(case: Case, spec: AgentSpec, client: LLMClient | None) -> Moderator:
    """A moderator from the moderator's view only; a model one needs `client`."""
    view = moderator_view(case)
    if spec.kind == "exact":
        return ExactModerator(view)
    if spec.kind == "llm" and client is not None:
        return LLMModerator(view, spec, client)
    if spec.kind == "llm":
        raise BedsideError("a model moderator needs a model client")
    raise BedsideError(f"'{spec.kind}' cannot moderate")


def _patient(case: Case, config: ConsultationConfig, human_input: HumanInput | None,
             client: LLMClient) -> Patient:
    """The patient from its view (with the hearsay its biases need): the retrieval patient
    (biased by rules when it has biases), a model, or an actor in the app."""
    spec = config.patient
    view = biased_view(case, spec.bias)
    if spec.kind == "retrieval":
        return BiasedRetrievalPatient(view, spec.bias) if spec.bias else RetrievalPatient(view)
    if spec.kind == "llm":
        return LLMPatient(view, spec, client)
    if spec.kind == "human":
        if human_input is None or config.doctor.kind == "human":
            raise BedsideError("a human patient needs an input from the user interface and a "
                               "doctor that is not human")
        return HumanPatient(human_input, spec.display())
    raise BedsideError(f"'{spec.kind}' cannot play the patient")


def build_cast(case: Case, config: ConsultationConfig, *, client: LLMClient,
               human_input: HumanInput | None = None) -> Cast:
    """Doctor, patient and examiner, each constructed from its view only (a replay doctor
    from its file's line for this case). `human_input` gives a human doctor's turns, or a
    human patient's answers. The offline examiner of a human doctor says plainly when a
    name is not a test it knows (`strict_unknown`)."""
    e = config.examiner
    if e.kind not in ("retrieval", "llm"):
        raise BedsideError("the examiner must be 'retrieval' or a model")
    # A physician is told plainly when a name is no test the examiner knows; model doctors
    # keep AgentClinic's "normal readings" for every named test the case does not hold.
    strict = config.doctor.kind == "human"
    examiner: Examiner = (RetrievalExaminer(examiner_view(case), strict_unknown=strict)
                          if e.kind == "retrieval" else LLMExaminer(examiner_view(case), e, client))
    doctor_input = human_input if config.patient.kind != "human" else None
    return Cast(doctor=_doctor(case, config, doctor_input, client),
                patient=_patient(case, config, human_input, client), examiner=examiner)
