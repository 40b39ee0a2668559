"""Biases of the patient and the doctor (AgentClinic's bias arms): names, kinds, checking,
and the conditions a biased patient may talk about.

A bias is configuration of one agent (`AgentSpec.bias`, recorded with the run): its names
joined with '+' in this registry's order (`self_diagnosis+gender`), None for none. How a
bias shows is the agent's business: a model agent gets a paragraph of our own words added
to its instructions (`core.prompts.bias_texts`, versioned and hashed); the offline
retrieval patient voices each patient bias by fixed rules (`core.agents.biased_patient`);
a human actor playing the patient reads the paragraph on screen.

Cognitive biases that make the patient talk of an illness (recency, frequency, false
consensus, self-diagnosis) draw it from the case's differential: `hearsay(case)` keeps the
entries that can never be taken for the diagnosis (none that the moderator's rule would
accept as the primary or a secondary diagnosis, none that contains an accepted name or is
contained in one), so the patient names a plausible wrong illness and never the right one.
Only a patient with such a bias gets them in its view (`biased_view`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from core.errors import InputError

if TYPE_CHECKING:
    from core.case import Case
    from core.views import PatientView

Kind = Literal["cognitive", "implicit"]
NONE = "none"  # the value of a bias factor for an agent without one


@dataclass(frozen=True)
class Bias:
    """One bias an agent can be given."""

    name: str
    kind: Kind
    summary: str  # one line, for help texts and the README
    talks_of_illness: bool = False  # the patient names an illness from the differential


PATIENT_BIASES: dict[str, Bias] = {b.name: b for b in (
    Bias("recency", "cognitive", "a relative recently had a wrong illness", True),
    Bias("frequency", "cognitive", "'lots of people' have a wrong illness", True),
    Bias("false_consensus", "cognitive", "all they know name a wrong illness", True),
    Bias("self_diagnosis", "cognitive", "volunteers a wrong self-diagnosis", True),
    Bias("gender", "implicit", "distrusts the doctor's gender"),
    Bias("race", "implicit", "distrusts the doctor's race or ethnicity"),
    Bias("sexual_orientation", "implicit", "doubts the doctor's orientation"),
    Bias("cultural", "implicit", "distrusts the doctor's culture"),
    Bias("education", "implicit", "distrusts the doctor's training"),
    Bias("religion", "implicit", "distrusts the doctor's religion"),
    Bias("socioeconomic", "implicit", "distrusts the doctor's social class"),
)}
DOCTOR_BIASES: dict[str, Bias] = {b.name: b for b in (
    Bias("recency", "cognitive", "a recent similar case pulls the doctor's thinking"),
    Bias("frequency", "cognitive", "assumes the commonest cause"),
    Bias("false_consensus", "cognitive", "assumes colleagues would read the case the same "
         "way"),
    Bias("confirmation", "cognitive", "seeks evidence for the first impression"),
    Bias("status_quo", "cognitive", "keeps the working diagnosis and plan"),
    Bias("gender", "implicit", "prejudice about the patient's gender"),
    Bias("race", "implicit", "prejudice about the patient's racial or ethnic background"),
    Bias("sexual_orientation", "implicit", "prejudice about the patient's sexual "
         "orientation"),
    Bias("cultural", "implicit", "prejudice about the patient's culture"),
    Bias("education", "implicit", "prejudice about the patient's education"),
    Bias("religion", "implicit", "prejudice about the patient's religion"),
    Bias("socioeconomic", "implicit", "prejudice about the patient's social class"),
)}
BIASES: dict[str, dict[str, Bias]] = {"patient": PATIENT_BIASES, "doctor": DOCTOR_BIASES}


def names(value: str | None) -> tuple[str, ...]:
    """The bias names of a stored value ('self_diagnosis+gender' → both; None → ())."""
    return tuple(n for n in (value or "").split("+") if n and n != NONE)


def parse_biases(text: str, role: str, option: str | None = None) -> str | None:
    """One value of `--patient-bias`/`--doctor-bias` checked: its names in the registry's
    order joined with '+', or None for `none`. InputError naming the option and the known
    names for an unknown one."""
    field = option or f"--{role}-bias"
    known = BIASES[role]
    parts = list(dict.fromkeys(p.strip().lower() for p in str(text).split("+") if p.strip()))
    if not parts:
        raise InputError("names no bias (write none for no bias)", field=field)
    if NONE in parts:
        if len(parts) > 1:
            raise InputError("'none' cannot be joined with a bias", field=field)
        return None
    bad = [p for p in parts if p not in known]
    if bad:
        raise InputError(f"no {role} bias '{bad[0]}' (known: {', '.join(known)}, or none)",
                         field=field)
    return "+".join(n for n in known if n in parts)


def talks_of_illness(value: str | None) -> bool:
    """Whether a patient with these biases names an illness (and so needs `hearsay`)."""
    return any(PATIENT_BIASES[n].talks_of_illness for n in names(value)
               if n in PATIENT_BIASES)


def hearsay(case: Case) -> list[str]:
    """The case's differential less every entry that could be taken for a diagnosis of the
    case (see the module docstring), in the case's order."""
    from core.caseindex.matching import contains, normalise
    from core.clinical_text import first_link, icd_index, truth_entity

    t = case.truth
    diagnoses = [(t.diagnosis, list(t.synonyms), list(t.icd10)),
                 *((d.name, list(d.synonyms), list(d.icd10)) for d in t.other_diagnoses)]
    icd = icd_index()
    truths = [truth_entity(name, syn, codes, True, icd) for name, syn, codes in diagnoses]
    accepted = [normalise(n) for name, syn, _ in diagnoses for n in (name, *syn)]
    out = []
    for entry in t.differential:
        said = normalise(entry)
        if not said or any(first_link(entry, truth, icd) for truth in truths):
            continue
        if any(contains(said, n) or contains(n, said) for n in accepted if len(n) >= 3):
            continue
        out.append(entry)
    return out


def biased_view(case: Case, bias: str | None) -> PatientView:
    """The patient's view of a case for a patient with `bias`: with the hearsay its biases
    talk of, if any (`core.views.patient_view` otherwise)."""
    from core.views import patient_view

    return patient_view(case, hearsay(case) if talks_of_illness(bias) else None)


def condition_for(conditions: list[str], case_id: str, bias: str) -> str | None:
    """The illness a biased patient talks of: one of its `conditions` (the view's
    hearsay), drawn by a hash of the case and the bias, so it is the same in every
    consultation and for every kind of patient agent; None when there is none."""
    if not conditions:
        return None
    digest = hashlib.sha256(f"{case_id}|{bias}".encode()).digest()
    return conditions[int.from_bytes(digest[:4], "big") % len(conditions)]
