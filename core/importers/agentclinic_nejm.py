"""Importer for AgentClinic's NEJM image-challenge JSONL.

Each line: `image_url`, `question` (the case as NEJM prints it: presentation, findings,
then the question), `patient_info` (the patient's script), `physical_exams` (the test
results extracted from the case, as one text), `answers` (a list of `{text, correct}`),
and optionally `type` (kept as tags).

The information partition (our design, stricter than AgentClinic, which hands the doctor
the whole question): the doctor's objective is only the presentation — the sentences of
the question before its first examination or test finding — plus the question itself.
The findings go to the examiner: each labelled segment of `physical_exams` becomes an
item ("Skin biopsy", "Dermoscopy"), the question's physical-examination sentences become
a "Physical examination" item, and a test sentence of the question that `physical_exams`
does not cover becomes an item named after its subject. The full question and the raw
`physical_exams` text are kept in `truth.extra`.

The image is kept by URL and marked to be given up front, as in AgentClinic's default NEJM
setting (the challenge is posed about the image); `--images on-request` makes the doctor ask
for it (`REQUEST IMAGES`) instead. It is fetched into the local image cache by `bedside
cases fetch-images` (or `bedside cases import … --fetch-images`), never at run time; a URL
that is not http or https is left out with a warning. Note that NEJM images often show the
decisive panel (e.g. the biopsy), as the original does.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from core.case import Case, Item
from core.errors import InputError
from core.importers.agentclinic import section_items
from core.importers.base import (
    TEXT,
    ImportResult,
    build_case,
    demographics_from_text,
    expect,
    expect_text_tree,
    flatten_text,
    kind_of,
    leak_warning,
    load_records,
    safe_id,
    where,
)
from core.importers.nejm_text import (
    covered,
    findings_items,
    is_finding,
    is_no_findings_note,
    split_question,
    subject_name,
)

# NEJM `type` labels that name a specialty we can use directly (lower case).
_SPECIALTIES = {
    "cardiology", "dermatology", "endocrinology", "gastroenterology", "hematology",
    "infectious disease", "nephrology", "neurology", "oncology", "ophthalmology",
    "pediatrics", "psychiatry", "pulmonology", "rheumatology", "urology", "radiology",
}
_KNOWN = {"image_url", "question", "patient_info", "physical_exams", "answers", "type"}
DEFAULT_ASK = "What is the most likely diagnosis?"


def _answers(record: dict[str, Any], path: Path, line: int,
             warnings: list[str]) -> tuple[list[str], str]:
    answers = record.get("answers")
    if not isinstance(answers, list) or not answers:
        raise InputError("expected a non-empty list of {text, correct}", path=str(path),
                         line=line, field="answers")
    options, correct = [], []
    for i, ans in enumerate(answers):
        if isinstance(ans, dict):
            expect(ans.get("text"), TEXT, path, line, f"answers[{i}].text")
        if not isinstance(ans, dict) or not flatten_text(ans.get("text")).strip():
            raise InputError("expected an object with a non-empty 'text'", path=str(path),
                             line=line, field=f"answers[{i}]")
        text = flatten_text(ans["text"]).strip()
        options.append(text)
        if _is_correct(ans.get("correct"), path, line, f"answers[{i}].correct"):
            correct.append(text)
    if not correct:
        raise InputError("no answer is marked correct", path=str(path), line=line,
                         field="answers")
    if len(correct) > 1:
        warnings.append(f"{where(path, line)}: {len(correct)} answers marked correct; "
                        f"the first ('{correct[0]}') is used")
    return options, correct[0]


def _is_correct(value: Any, path: Path, line: int, field: str) -> bool:
    """An answer's `correct`: true or false (as JSON, or the words); absent is false."""
    if value is None or isinstance(value, bool):
        return value is True
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise InputError(f"expected true or false, got {kind_of(value)}", path=str(path),
                     line=line, field=field)


def _check_types(record: dict[str, Any], path: Path, line: int) -> None:
    """The fields the format writes as text are text (the answers are checked with them)."""
    for key in ("question", "image_url"):
        expect(record.get(key), TEXT, path, line, key)
    expect_text_tree(record.get("patient_info"), path, line, "patient_info")  # or lines
    expect(record.get("physical_exams"), (str, dict, list), path, line, "physical_exams")
    expect(record.get("type"), (str, list), path, line, "type")


def _title(presentation: str, line: int, path: Path) -> str:
    """The question's first sentence (it describes the patient, not the diagnosis)."""
    first = presentation.rstrip(".")
    title = first if first else f"NEJM image challenge ({path.stem} line {line})"
    return title if len(title) <= 100 else title[:97] + "..."


def _findings(record: dict[str, Any], exam: list[str], tests: list[str], path: Path,
              line: int, warnings: list[str]) -> tuple[list[Item], list[Item]]:
    """(physical_exam, tests) items from `physical_exams` and the question's findings."""
    raw = record.get("physical_exams")
    text = "" if isinstance(raw, dict | list) else flatten_text(raw).strip()
    if isinstance(raw, dict | list):
        results = section_items(raw, "Findings")
        text = flatten_text(raw)
    elif text and is_no_findings_note(text):
        warnings.append(f"{where(path, line)}: physical_exams holds no findings (an "
                        "extraction note); the examiner reports the question's findings")
        results, text = [], ""
    else:
        results = findings_items(text) if text else []
    for sentence in tests:
        if not text or not covered(sentence, text):
            results.append(Item(name=subject_name(sentence), value=sentence))
    physical = [Item(name="Physical examination", value=" ".join(exam),
                     synonyms=["physical exam", "examination"])] if exam else []
    return physical, results


def case_from_nejm(record: dict[str, Any], path: Path, line: int,
                   warnings: list[str]) -> Case:
    """One Case from one NEJM record."""
    _check_types(record, path, line)
    question = flatten_text(record.get("question")).strip()
    if not question:
        raise InputError("missing or empty", path=str(path), line=line, field="question")
    options, correct = _answers(record, path, line, warnings)
    types = record.get("type") or []
    tags = [flatten_text(t) for t in (types if isinstance(types, list) else [types])]
    specialty = next((t.lower() for t in tags if t.lower() in _SPECIALTIES), "general")
    parts = split_question(question)
    first = parts.presentation[0] if parts.presentation else question
    if is_finding(first) and (parts.exam or parts.tests):
        warnings.append(f"{where(path, line)}: the question's first sentence reports a "
                        "finding; it is still given to the doctor as the presentation")
    physical, results = _findings(record, parts.exam, parts.tests, path, line, warnings)
    url = flatten_text(record.get("image_url")).strip()
    if url and not re.match(r"^https?://\S+$", url):
        warnings.append(f"{where(path, line)}: image_url '{url[:80]}' is not an http or "
                        "https URL; the case is imported without its image")
        url = ""
    demo = demographics_from_text(first)
    extra = {k: flatten_text(v) for k, v in record.items() if k not in _KNOWN}
    extra["question"] = question
    if record.get("physical_exams") not in (None, ""):
        extra["physical_exams"] = flatten_text(record["physical_exams"])
    data = {
        "id": safe_id("agentclinic-nejm", path.stem, line),
        "title": _title(first, line, path),
        "language": "en",
        "specialty": specialty,
        "source": "agentclinic",
        "licence": "MIT",
        "objective": " ".join([*parts.presentation, *(parts.ask or [DEFAULT_ASK])]),
        "patient": {
            "demographics": {"age": demo.age, "sex": demo.sex},
            "history_of_present_illness": flatten_text(record.get("patient_info")).strip()
            or None,
        },
        "physical_exam": physical,
        "tests": results,
        "truth": {"diagnosis": correct, "options": options, "correct_option": correct,
                  "extra": extra},
        "images": [{"url": url, "given_upfront": True}] if url else [],
        "tags": ["nejm", *(t for t in tags if t)],
    }
    return build_case(data, path, line)


def import_agentclinic_nejm(path: Path) -> ImportResult:
    """Import an AgentClinic NEJM JSONL file (one case per non-blank line)."""
    result = ImportResult()
    for line, record in load_records(path):
        case = case_from_nejm(record, path, line, result.warnings)
        if warning := leak_warning(case, path, line):
            result.warnings.append(warning)
        result.cases.append(case)
    if not result.cases:
        raise InputError("no cases in the file (is it empty?)", path=str(path))
    return result

