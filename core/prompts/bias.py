"""How a bias reaches an agent that reads instructions: the paragraphs of its biases
(`bias_texts`), filled and placed in its system prompt, and their hashes for the record.

The paragraphs go between the prompt's rules and its closing `Prompt id:` line, so the
prompt keeps its id (and its own hash: the template is unchanged) and the paragraphs are
recorded beside it under their own ids. A patient's paragraphs name the illness drawn for
each bias from its view's hearsay (`core.biases.condition_for`); the same text is what a
model rating patient is told and what a human actor reads on screen.
"""

from __future__ import annotations

from core.biases import condition_for, names, talks_of_illness
from core.config import ConsultationConfig
from core.prompts import PROMPTS, UNKNOWN_ILLNESS, offline_fingerprint
from core.views import PatientView


def prompt_id(role: str, name: str) -> str:
    """The registered id of one bias paragraph."""
    return f"bias/{role}/{name}/v1"


def hashes(role: str, value: str | None) -> dict[str, str]:
    """Prompt id → sha256 of every paragraph an agent with these biases is given (and of
    the stand-in illness, for a patient that talks of one)."""
    out = {prompt_id(role, n): PROMPTS[prompt_id(role, n)].sha256 for n in names(value)}
    if role == "patient" and talks_of_illness(value):
        out[UNKNOWN_ILLNESS.id] = UNKNOWN_ILLNESS.sha256
    return out


def config_hashes(config: ConsultationConfig) -> dict[str, str]:
    """What the biases of a consultation's agents add to its record of prompts: the
    paragraphs of a model or human patient and of a model doctor, and the rules of a biased
    retrieval patient (under their version id)."""
    out: dict[str, str] = {}
    patient, doctor = config.patient, config.doctor
    if patient.bias and patient.kind == "retrieval":
        found = offline_fingerprint("patient-bias", "retrieval")
        if found:
            out[found[0]] = found[1]
    elif patient.bias:
        out.update(hashes("patient", patient.bias))
    if doctor.bias:
        out.update(hashes("doctor", doctor.bias))
    return out


def illness(view: PatientView, name: str) -> str:
    """The illness a patient with bias `name` talks of (a stand-in when none is known)."""
    return condition_for(list(view.hearsay), view.case_id, name) or UNKNOWN_ILLNESS.text


def patient_paragraphs(view: PatientView, value: str | None) -> list[str]:
    """The patient's bias paragraphs, filled from its view."""
    return [PROMPTS[prompt_id("patient", n)].format(condition=illness(view, n))
            for n in names(value)]


def doctor_paragraphs(value: str | None) -> list[str]:
    """The doctor's bias paragraphs (they name nothing of the case)."""
    return [PROMPTS[prompt_id("doctor", n)].text for n in names(value)]


def with_paragraphs(system: str, paragraphs: list[str]) -> str:
    """`system` with the paragraphs before its closing 'Prompt id:' line (at the end when
    it has none)."""
    if not paragraphs:
        return system
    block = "\n".join(paragraphs)
    head, sep, tail = system.rpartition("\nPrompt id:")
    if not sep:
        return f"{system}\n{block}"
    return f"{head}\n{block}{sep}{tail}"
