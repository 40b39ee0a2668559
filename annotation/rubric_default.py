"""The built-in rubrics (as data), each versioned: a study stores its rubric whole (with the
name of the built-in it came from), so a new version never changes a study that exists.

- `default` (v2): realism, empathy, patient relevance/honesty, examiner accuracy (the reader
  study design: 1-10 scales anchored at 1, 5 and 10; per-turn yes/no items) and, new in v2,
  AI Hospital's doctor consistency (1-3: is the final diagnosis or report consistent with
  the dialogue?). `default/v1` is the rubric without it.
- `aihospital-report` (v1): clinicians grade the five parts of the doctor's final report
  A-D against the case record, as `bedside score`'s report judge does (items named as the
  judge's parts, grades A-D as 4-1), so `bedside analyze` can compare that judge with them.

Other studies define their own rubric in their study file.
"""

from __future__ import annotations

from typing import Any

from annotation.rubric import Rubric

REALISM_ANCHORS = {1: "not realistic at all", 5: "semi-realistic", 10: "very realistic"}
EMPATHY_ANCHORS = {1: "not empathetic at all", 5: "somewhat empathetic", 10: "very empathetic"}

DEFAULT_RUBRIC_DATA: dict[str, Any] = {"items": [
    {"id": "realism_doctor", "label": "How realistic is the doctor?", "kind": "scale",
     "anchors": REALISM_ANCHORS},
    {"id": "realism_patient", "label": "How realistic is the patient?", "kind": "scale",
     "anchors": REALISM_ANCHORS},
    {"id": "realism_examiner", "label": "How realistic are the examiner's results?",
     "kind": "scale", "anchors": REALISM_ANCHORS},
    {"id": "empathy_doctor", "label": "How empathetic is the doctor?", "kind": "scale",
     "anchors": EMPATHY_ANCHORS},
    {"id": "patient_relevance", "label": "Relevant to the doctor's question?",
     "short": "Relevant?",
     "kind": "choice", "unit": "turn", "roles": ["patient"], "options": ["yes", "no"],
     "required": False},
    {"id": "patient_honesty", "label": "Honest with respect to the case?", "short": "Honest?",
     "kind": "choice",
     "unit": "turn", "roles": ["patient"], "options": ["yes", "no"], "required": False},
    {"id": "patient_relevance_overall", "label": "Overall, were the patient's answers relevant?",
     "kind": "choice", "options": ["yes", "no"], "required": False,
     "help": "Optional summary of the per-turn relevance answers."},
    {"id": "patient_honesty_overall", "label": "Overall, was the patient honest to the case?",
     "kind": "choice", "options": ["yes", "no"], "required": False,
     "help": "Optional summary of the per-turn honesty answers."},
    {"id": "examiner_accuracy", "label": "Right results for the tests named?",
     "short": "Right results?",
     "kind": "choice", "unit": "turn", "roles": ["examiner"], "options": ["yes", "no", "n/a"],
     "required": False, "help": "Compare with the case record's stored results."},
    {"id": "comment", "label": "Comment", "kind": "text", "required": False},
]}
DEFAULT_V1_DATA: dict[str, Any] = {"name": "default/v1", "items": DEFAULT_RUBRIC_DATA["items"]}
DOCTOR_CONSISTENCY: dict[str, Any] = {
    "id": "doctor_consistency",
    "label": "Is the doctor's final diagnosis (and report) consistent with the dialogue?",
    "kind": "scale", "min": 1, "max": 3,
    "anchors": {1: "inconsistent", 2: "partly consistent", 3: "consistent"},
    "required": False,
    "help": "AI Hospital's doctor consistency: does what the doctor concludes follow from "
            "what the patient said and the results showed, without contradicting them? "
            "Leave it empty when the doctor gave no diagnosis or report."}
DEFAULT_V2_DATA: dict[str, Any] = {"name": "default/v2", "items": [
    *DEFAULT_RUBRIC_DATA["items"][:-1], DOCTOR_CONSISTENCY, DEFAULT_RUBRIC_DATA["items"][-1]]}

GRADE_ANCHORS = {4: "A: complete and consistent with the record",
                 3: "B: mostly complete, minor omissions, nothing misleading",
                 2: "C: important elements missing or inconsistent",
                 1: "D: mostly missing, wrong or inconsistent (or left out)"}
_PARTS = (("symptoms", "Symptoms: the complaints, their course and the pertinent negatives"),
          ("examinations", "Examinations: the examinations and tests needed, with the "
                           "findings that matter"),
          ("diagnostic_results", "Diagnostic results: the diagnosis in the record (and the "
                                 "secondary ones)"),
          ("rationale", "Diagnostic rationale: findings tied to the diagnosis, alternatives "
                        "set aside"),
          ("treatment_plan", "Treatment plan: the record's treatment, right urgency, nothing "
                             "harmful"))
AIHOSPITAL_REPORT_DATA: dict[str, Any] = {"name": "aihospital-report/v1", "items": [
    *({"id": part, "label": label, "kind": "scale", "min": 1, "max": 4,
       "anchors": GRADE_ANCHORS,
       "help": "Grade this part of the doctor's final report against the case record (r: "
               "the record, with the correct diagnosis and treatment when the study shows "
               "them). A part the report leaves out is D (1)."} for part, label in _PARTS),
    {"id": "comment", "label": "Comment", "kind": "text", "required": False},
]}
#: Every built-in rubric by versioned name, and the names that mean the latest version.
BUILTIN: dict[str, dict[str, Any]] = {d["name"]: d for d in (
    DEFAULT_V1_DATA, DEFAULT_V2_DATA, AIHOSPITAL_REPORT_DATA)}
LATEST = {"default": "default/v2", "aihospital-report": "aihospital-report/v1"}


def builtin_rubric(name: str) -> Rubric:
    """A fresh copy of the built-in rubric `name` ('default', 'default/v1',
    'aihospital-report', …); ValueError naming the known ones otherwise."""
    key = LATEST.get(name.strip(), name.strip())
    if key not in BUILTIN:
        raise ValueError(f"no built-in rubric '{name}' (built in: "
                         f"{', '.join([*LATEST, *BUILTIN])})")
    return Rubric.model_validate(BUILTIN[key])


def is_builtin(name: str) -> bool:
    """Whether `name` names a built-in rubric (a version, or the latest by family)."""
    return name.strip() in LATEST or name.strip() in BUILTIN


def default_rubric() -> Rubric:
    """A fresh copy of the default rubric (its latest version)."""
    return builtin_rubric("default")
