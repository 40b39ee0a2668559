"""The default rubric (as data): realism, empathy, patient relevance/honesty, examiner accuracy.

Other studies define their own rubric in their study file; this one follows the reader
study design of the issue (1-10 scales anchored at 1, 5 and 10; per-turn yes/no items).
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


def default_rubric() -> Rubric:
    """A fresh copy of the default rubric."""
    return Rubric.model_validate(DEFAULT_RUBRIC_DATA)
