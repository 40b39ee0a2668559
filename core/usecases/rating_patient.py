"""Who rates the doctor after a consultation (the patient-reported measures, `bedside score
--rating-patient`): the consultation's own patient, as AgentClinic does, or a named model
standing in for it. Either way the rating patient has the biases the consultation's patient
had (`patient_bias` among its parameters: recorded with each value and part of its key).

`--rating-patient own`: a model patient rates with its own model and parameters; the offline
retrieval patient gives no ratings (it has no opinion to ask: name a model to rate in its
place), nor does a human actor (bedside does not ask them); those consultations get the
three values undefined with that reason. `--rating-patient MODEL`: MODEL plays every
consultation's patient, biases included.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from core.config import AgentSpec
from core.metrics.identity import own_patient
from core.metrics.llmcall import Complete, JudgeInfo, spec_info
from core.metrics.patient_reported import BIAS_PARAM
from core.records.runs import ConsultationSummary

OWN = "own"  # --rating-patient own: each consultation's own patient rates
OFFLINE_PATIENT = ("the offline retrieval patient gives no ratings (name a model with "
                   "--rating-patient MODEL to rate in its place)")
HUMAN_PATIENT = "a human patient is not asked for ratings by bedside"
NO_PATIENT_CONFIG = "no patient configuration stored (an imported transcript): name a model"
#: A rating call and its description, or why this consultation gets no ratings.
Resolved = tuple[Complete, JudgeInfo] | str
Resolver = Callable[[ConsultationSummary], Resolved]


def patient_spec(c: ConsultationSummary) -> dict[str, Any] | None:
    """The consultation's stored patient spec, if any."""
    spec = c.config.get("patient") if isinstance(c.config, dict) else None
    return spec if isinstance(spec, dict) else None


def patient_bias(c: ConsultationSummary) -> str | None:
    """The biases the consultation's patient had (None: none, or not recorded)."""
    spec = patient_spec(c)
    bias = spec.get("bias") if spec else None
    return bias if isinstance(bias, str) and bias else None


def with_bias(info: JudgeInfo, bias: str | None) -> JudgeInfo:
    """`info` with the patient's biases among its parameters (unchanged for none, so the
    keys of unbiased ratings stay what they were)."""
    return replace(info, params={**info.params, BIAS_PARAM: bias}) if bias else info


def fixed(complete: Complete, info: JudgeInfo) -> Resolver:
    """One model rates every consultation, as the consultation's patient (its biases)."""
    def resolve(c: ConsultationSummary) -> Resolved:
        return complete, with_bias(info, patient_bias(c))
    return resolve


def own(make: Callable[[AgentSpec], Complete]) -> Resolver:
    """Each consultation's own patient rates: `make(spec)` is the call of a model patient
    (not streamed); an offline or human patient gives the reason it does not."""
    made: dict[str, Complete] = {}

    def resolve(c: ConsultationSummary) -> Resolved:
        stored = patient_spec(c)
        if stored is None:
            return NO_PATIENT_CONFIG
        kind = stored.get("kind")
        if kind == "retrieval":
            return OFFLINE_PATIENT
        if kind != "llm":
            return HUMAN_PATIENT
        try:
            spec = AgentSpec.model_validate({**stored, "stream": False})
        except ValidationError:
            return NO_PATIENT_CONFIG
        key = spec.model_dump_json()
        if key not in made:
            made[key] = make(spec)
        return made[key], replace(with_bias(spec_info(spec), spec.bias), rater=own_patient())
    return resolve
