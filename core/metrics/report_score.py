"""Report score (AI Hospital style): an LLM judge grades the doctor's five-part final report
against the case record, A–D (4–1) per part; the consultation's score is the mean grade
mapped to 0–100 as (mean − 1) / 3 × 100 (all D → 0, all A → 100). Pooled scores get a
seeded percentile-bootstrap interval. The rubric text is ours (`prompts.REPORT_RUBRIC`);
the judge's model, parameters and prompt hash are stored with every score.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from core.case import Case
from core.errors import ModelError
from core.metrics.base import MetricValue, defined, undefined
from core.metrics.llmcall import (RAW_KEEP, Complete, JudgeInfo, call_text, key_values,
                                  norm_key, parse_json_object)
from core.metrics.names import NO_REPORT
from core.prompts import REPORT_JUDGE, REPORT_RUBRIC
from core.metrics.stats import bootstrap_interval
from core.transcript import FinalReport, Role, Transcript

PARTS = ("symptoms", "examinations", "diagnostic_results", "rationale", "treatment_plan")
GRADE_VALUES = {"A": 4, "B": 3, "C": 2, "D": 1}
_ALIASES = {"symptom": "symptoms", "examination": "examinations", "exams": "examinations",
            "diagnosis": "diagnostic_results", "diagnostic_result": "diagnostic_results",
            "results": "diagnostic_results", "diagnostic_rationale": "rationale",
            "reasoning": "rationale", "treatment": "treatment_plan", "plan": "treatment_plan"}
_LABELS = {"symptoms": "Symptoms", "examinations": "Examinations",
           "diagnostic_results": "Diagnostic results", "rationale": "Diagnostic rationale",
           "treatment_plan": "Treatment plan"}


def case_record(case: Case) -> str:
    """The case as the judge sees it: history, findings, results and the ground truth."""
    p, t = case.patient, case.truth
    lines = [f"Presenting problem: {case.objective}"]
    if p.chief_complaint:
        lines.append(f"Chief complaint: {p.chief_complaint}")
    if p.history_of_present_illness:
        lines.append(f"History of present illness: {p.history_of_present_illness}")
    for s in p.symptoms():
        facts = "; ".join(x for x in (s.description, s.onset, s.duration, s.character) if x)
        lines.append(f"Symptom ({'present' if s.present else 'absent'}): {s.name}"
                     + (f" — {facts}" if facts else ""))
    lines.extend(f"History ({h.kind}): {h.text}" for h in p.history)
    lines.extend(f"Examination: {i.render()}" for i in case.physical_exam)
    lines.extend(f"Test: {i.render()}" for i in case.tests)
    lines.append(f"Diagnosis: {t.diagnosis}")
    if t.other_diagnoses:
        lines.append(f"Secondary diagnoses: {'; '.join(t.other_names())}")
    if t.rationale:
        lines.append(f"Rationale: {t.rationale}")
    if t.treatment:
        lines.append(f"Treatment: {t.treatment}")
    return "\n".join(lines)


def report_lines(report: FinalReport) -> list[str]:
    """The report's non-empty parts as 'Label: text' lines."""
    return [f"{_LABELS[k]}: {getattr(report, k)}" for k in PARTS if getattr(report, k)]


def report_text(transcript: Transcript) -> str | None:
    """The doctor's report as labelled text: the structured report, else a report turn."""
    r = transcript.report
    if r is not None:
        parts = report_lines(r)
        if parts:
            return "\n".join(parts)
    turns = [t.content for t in transcript.turns
             if t.role == Role.DOCTOR and t.kind == "report" and t.content.strip()]
    return turns[-1] if turns else None


def judge_messages(case: Case, report: str) -> list[dict[str, str]]:
    """The judge's single user message."""
    text = REPORT_JUDGE.format(rubric=REPORT_RUBRIC, record=case_record(case), report=report)
    return [{"role": "user", "content": text}]


def prompt_hash() -> str:
    """sha256 of the judge template and the rubric (what defines the grading)."""
    import hashlib

    return hashlib.sha256((REPORT_JUDGE.text + REPORT_RUBRIC).encode("utf-8")).hexdigest()


def _grade(value: Any) -> int | None:
    if isinstance(value, dict):
        value = value.get("grade", value.get("score"))
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float) and float(value) in (1.0, 2.0, 3.0, 4.0):
        return int(value)
    m = re.match(r"\s*([A-Da-d1-4])\b", str(value or ""))
    if not m:
        return None
    ch = m.group(1).upper()
    return GRADE_VALUES.get(ch) or int(ch)


def parse_grades(text: str) -> tuple[dict[str, int], dict[str, str]]:
    """(grades 1–4 per part found, reasons) from the judge's reply, tolerantly."""
    data: dict[str, Any] = parse_json_object(text) or dict(key_values(text))
    grades: dict[str, int] = {}
    reasons: dict[str, str] = {}
    for raw_key, value in data.items():
        key = norm_key(raw_key)
        key = _ALIASES.get(key, key)
        if key == "reasons" and isinstance(value, dict):
            reasons = {norm_key(k): str(v)[:300] for k, v in value.items()}
        elif key in PARTS and key not in grades:
            g = _grade(value)
            if g is not None:
                grades[key] = g
    return grades, reasons


def score_from_grades(grades: dict[str, int]) -> float:
    """0–100 from five 1–4 grades: (mean − 1) / 3 × 100."""
    mean = sum(grades[p] for p in PARTS) / len(PARTS)
    return (mean - 1) / 3 * 100


async def score_report(case: Case, transcript: Transcript, complete: Complete, *,
                       info: JudgeInfo | None = None) -> MetricValue:
    """report_score of one consultation; None (with a reason) if there is no report, the
    judge failed, or its reply lacks a grade for any of the five parts. The last two are
    marked `failed` in the detail, so a later run tries again; 'no final report' is a
    result (undefined, not 0) and is kept."""
    info = info or JudgeInfo()
    judge = {"model": info.model, "params": info.params, "prompt_id": REPORT_JUDGE.id,
             "prompt_hash": prompt_hash()}
    report = report_text(transcript)
    if not report:
        return undefined(NO_REPORT, judge=judge)
    try:
        text, _ = await call_text(complete, judge_messages(case, report))
    except ModelError as err:
        return undefined(f"judge call failed: {err}", judge=judge, failed=True)
    grades, reasons = parse_grades(text)
    missing = [p for p in PARTS if p not in grades]
    detail = {"grades": grades, "reasons": reasons, "judge": judge, "raw": text[:RAW_KEEP]}
    if missing:
        return undefined(f"judge reply has no grade for {', '.join(missing)}", failed=True,
                         **detail)
    return defined(score_from_grades(grades), **detail)


def summarise_report_scores(values: Iterable[float | None]) -> dict[str, float | int | None]:
    """n, mean and 95 % bootstrap interval of consultation report scores (None skipped)."""
    data = [v for v in values if v is not None]
    ci = bootstrap_interval(data)
    return {"n": len(data), "mean": sum(data) / len(data) if data else None,
            "ci_low": ci[0] if ci else None, "ci_high": ci[1] if ci else None}
