"""Which role an AgentClinic OSCE key belongs to, whatever its spelling.

The OSCE templates were written by a language model, so the full MedQA and MedQA-extended
files spell their sections many ways: `Physical_Examination_Findings`, `Exam_Findings`,
`Vital_Signs`, `Test_Results`, `Lab_Results`, `Imaging`, `Imaging_Findings`,
`Diagnostic_Tests`, `Correct_Diagnosis`, `Final_Diagnosis`, `PhysicalExam` ... A key is cut
into words (underscores, spaces, hyphens and camelCase) and classified by word stems; the
order of the checks settles the ambiguous ones ("Diagnostic_Tests" is a test section, not
the diagnosis; "Physical_Exam_Results" is the examination).
"""

from __future__ import annotations

import re

# Stems matched inside the joined key ("laboratoryfindings"); short words only as whole
# words, because "ct" hides in "doctor" and "lab" in "available".
_TEST_STEMS = (
    "test", "laborator", "imaging", "radiolog", "investigation", "result", "biops",
    "patholog", "histolog", "cultur", "ultraso", "sonogra", "electrocardio", "echocardio",
    "endoscop", "colonoscop", "bronchoscop", "angiogra", "serolog", "urinalys", "bloodwork",
    "bloodgas", "bloodcount", "scan", "xray", "radiograph", "mammogra", "spirometr",
    "diagnosticstud", "workup", "microbiolog", "cytolog", "biochem", "chemistr", "hematolog",
    "haematolog", "serum", "electrolyte", "panel", "screen", "assay", "smear", "puncture",
    "aspirat", "tomograph", "resonance", "monitoring",
)
_TEST_WORDS = {"lab", "labs", "ct", "mri", "ecg", "ekg", "eeg", "emg", "abg", "cbc", "pet",
               "us", "cxr", "mrcp", "ercp", "csf", "lft", "lfts", "tft", "tfts", "bmp", "cmp",
               "doppler", "studies", "study", "procedures"}
_EXAM_STEMS = ("exam", "physical", "vital", "finding", "inspection", "auscultat", "palpat",
               "percuss", "clinicalsign", "observation", "appearance")
_EXAM_WORDS = {"signs", "sign", "pe", "vitals"}
_PATIENT_STEMS = ("patient", "actor", "history", "symptom", "complaint", "demograph",
                  "persona", "presentation", "hpi")
_SOFT_TEST = {"result", "screen", "monitoring"}  # weak test stems an exam key may carry


def key_words(key: str) -> list[str]:
    """'PhysicalExam_Findings' → ['physical', 'exam', 'findings']."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", key)
    return [w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w]


def _stems(joined: str, stems: tuple[str, ...]) -> set[str]:
    return {s for s in stems if s in joined}


def key_role(key: str) -> str:
    """One of objective, differential, diagnosis, treatment, exam, test, patient, other."""
    words = key_words(key)
    joined = "".join(words)
    tests = _stems(joined, _TEST_STEMS) | (set(words) & _TEST_WORDS)
    exams = _stems(joined, _EXAM_STEMS) | (set(words) & _EXAM_WORDS)
    if "objective" in joined or joined in ("task", "instructions", "doctorinstructions"):
        return "objective"
    if "differential" in joined or "ddx" in words:
        return "differential"
    if "diagnos" in joined and not tests and not exams and "criteri" not in joined:
        return "diagnosis"
    if any(s in joined for s in ("treatment", "management", "therapy")):
        return "treatment"
    if "physical" in joined or (exams and (not tests or tests <= _SOFT_TEST)):
        return "exam"
    if tests:
        return "test"
    if any(s in joined for s in _PATIENT_STEMS):
        return "patient"
    return "other"


def actor_key_role(key: str) -> str:
    """Role of a key inside Patient_Actor: 'patient' unless it is clearly another role's.

    A key naming the patient's own story ("Symptoms_and_Signs", "History_of_Tests") stays
    with the patient; a bare examination/test/diagnosis section is moved out of reach.
    """
    role = key_role(key)
    joined = "".join(key_words(key))
    if role in ("exam", "test") and any(s in joined for s in ("symptom", "history",
                                                                "complaint")):
        return "patient"
    if role == "diagnosis" and any(s in joined for s in ("past", "previous", "prior",
                                                         "history", "known")):
        return "patient"  # the patient's earlier diagnoses are history
    return role if role in ("exam", "test", "diagnosis", "differential") else "patient"
