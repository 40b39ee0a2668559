"""Importer for AgentClinic's NEJM image-challenge JSONL.

Each line: `image_url`, `question` (what the doctor is told), `patient_info` (the patient's
script), `physical_exams` (examination and test findings as one text), `answers` (a list
of `{text, correct}`), and optionally `type` (kept as tags).

Must not import: textual, rich, litellm, or any other bedside package (db, annotation, tui).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from core.case import Case
from core.errors import InputError
from core.importers.base import (
    ImportResult,
    build_case,
    demographics_from_text,
    flatten_text,
    iter_jsonl,
    read_text,
    safe_id,
    where,
)

# NEJM `type` labels that name a specialty we can use directly (lower case).
_SPECIALTIES = {
    "cardiology", "dermatology", "endocrinology", "gastroenterology", "hematology",
    "infectious disease", "nephrology", "neurology", "oncology", "ophthalmology",
    "pediatrics", "psychiatry", "pulmonology", "rheumatology", "urology", "radiology",
}
_KNOWN = {"image_url", "question", "patient_info", "physical_exams", "answers", "type"}


def _answers(record: dict[str, Any], path: Path, line: int,
             warnings: list[str]) -> tuple[list[str], str]:
    answers = record.get("answers")
    if not isinstance(answers, list) or not answers:
        raise InputError("expected a non-empty list of {text, correct}", path=str(path),
                         line=line, field="answers")
    options, correct = [], []
    for i, ans in enumerate(answers):
        if not isinstance(ans, dict) or not str(ans.get("text") or "").strip():
            raise InputError("expected an object with a non-empty 'text'", path=str(path),
                             line=line, field=f"answers[{i}]")
        text = str(ans["text"]).strip()
        options.append(text)
        if ans.get("correct") is True or str(ans.get("correct")).lower() == "true":
            correct.append(text)
    if not correct:
        raise InputError("no answer is marked correct", path=str(path), line=line,
                         field="answers")
    if len(correct) > 1:
        warnings.append(f"{where(path, line)}: {len(correct)} answers marked correct; "
                        f"the first ('{correct[0]}') is used")
    return options, correct[0]


def _title(question: str, line: int, path: Path) -> str:
    """The question's first sentence (it describes the patient, not the diagnosis)."""
    first = re.split(r"(?<=[.?!])\s", question.strip(), maxsplit=1)[0].rstrip(".")
    title = first if first else f"NEJM image challenge ({path.stem} line {line})"
    return title if len(title) <= 100 else title[:97] + "..."


def case_from_nejm(record: dict[str, Any], path: Path, line: int,
                   warnings: list[str]) -> Case:
    """One Case from one NEJM record."""
    question = flatten_text(record.get("question")).strip()
    if not question:
        raise InputError("missing or empty", path=str(path), line=line, field="question")
    options, correct = _answers(record, path, line, warnings)
    types = record.get("type") or []
    tags = [flatten_text(t) for t in (types if isinstance(types, list) else [types])]
    specialty = next((t.lower() for t in tags if t.lower() in _SPECIALTIES), "general")
    exams = flatten_text(record.get("physical_exams")).strip()
    url = flatten_text(record.get("image_url")).strip()
    demo = demographics_from_text(re.split(r"(?<=[.?!])\s", question, maxsplit=1)[0])
    extra = {k: flatten_text(v) for k, v in record.items() if k not in _KNOWN}
    data = {
        "id": safe_id("agentclinic-nejm", path.stem, line),
        "title": _title(question, line, path),
        "language": "en",
        "specialty": specialty,
        "source": "agentclinic",
        "licence": "MIT",
        "objective": question,
        "patient": {
            "demographics": {"age": demo.age, "sex": demo.sex},
            "history_of_present_illness": flatten_text(record.get("patient_info")).strip()
            or None,
        },
        "physical_exam": [{"name": "Examination and test findings", "value": exams}]
        if exams else [],
        "truth": {"diagnosis": correct, "options": options, "correct_option": correct,
                  "extra": extra},
        "images": [{"url": url, "given_upfront": True}] if url else [],
        "tags": ["nejm", *tags],
    }
    return build_case(data, path, line)


def import_agentclinic_nejm(path: Path) -> ImportResult:
    """Import an AgentClinic NEJM JSONL file (one case per non-blank line)."""
    result = ImportResult()
    for line, record in iter_jsonl(path, read_text(path)):
        result.cases.append(case_from_nejm(record, path, line, result.warnings))
    if not result.cases:
        result.warnings.append(f"{path}: no cases found")
    return result
