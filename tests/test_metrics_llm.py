"""LLM-based metrics with scripted `complete` callables: report score, patient ratings,
the one-step upper bound, and tolerant parsing of what models send back."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from core.errors import ModelError
from core.metrics.compute import compute_llm_metrics, compute_metrics
from core.metrics.llmcall import JudgeInfo, parse_json_object
from core.metrics.patient_reported import parse_ratings, rate_consultation
from core.metrics.report_score import (parse_grades, prompt_hash, score_report,
                                       summarise_report_scores)
from core.config import AgentSpec, ConsultationConfig
from core.engine import run_solver
from core.events import ListSink
from core.solvers.one_step import OneStepSolver
from core.transcript import FinalReport, Role, Transcript, Turn
from tests.test_metrics_pathway import full_transcript, make_case


def scripted(*replies: str) -> Any:
    """A `complete` that returns the replies in turn and records the messages it got."""
    queue = list(replies)
    seen: list[list[dict[str, str]]] = []

    async def complete(messages: list[dict[str, str]]) -> str:
        seen.append(messages)
        return queue.pop(0)

    complete.seen = seen  # type: ignore[attr-defined]
    return complete


def run_one_step(complete: Any, model: str = "m1") -> tuple[Transcript, ListSink]:
    """A one-step consultation of make_case() through the engine, `complete` answering."""
    config = ConsultationConfig(doctor=AgentSpec(kind="llm", model=model))
    sink = ListSink()
    t = asyncio.run(run_solver(OneStepSolver(complete=complete), make_case(), config, sink,
                               consultation_id="c-one"))
    return t, sink


def reported() -> Transcript:
    t = full_transcript()
    t.report = FinalReport(symptoms="RIF pain", examinations="abdo exam", diagnostic_results=
                           "appendicitis", rationale="classic", treatment_plan="surgery")
    return t


def test_parse_json_object_tolerates_fences_prose_quotes_and_commas() -> None:
    assert parse_json_object('Sure!\n```json\n{"a": 1,}\n```') == {"a": 1}
    assert parse_json_object("grades: {'a': 'B', 'b': {'c': 2}} done") == {"a": "B",
                                                                          "b": {"c": 2}}
    assert parse_json_object("no object here") is None
    assert parse_json_object("{broken") is None
    assert parse_json_object("") is None


def test_grades_map_to_0_100_hand_derived() -> None:
    # A, B, B, C, D = 4, 3, 3, 2, 1 → mean 2.6 → (2.6 − 1) / 3 × 100 = 53.33
    reply = json.dumps({"symptoms": "A", "examinations": "B", "diagnostic_results": "B",
                        "rationale": "C", "treatment_plan": "D", "reasons": {"symptoms": "ok"}})
    value, detail = asyncio.run(score_report(make_case(), reported(), scripted(reply),
                                             info=JudgeInfo("judge-x", {"temperature": 0})))
    assert value == pytest.approx(160 / 3)
    assert detail["grades"]["treatment_plan"] == 1
    assert detail["judge"] == {"model": "judge-x", "params": {"temperature": 0},
                               "prompt_id": "metric-report-judge/v1",
                               "prompt_hash": prompt_hash()}
    assert len(prompt_hash()) == 64


def test_judge_sees_record_and_report_but_grades_are_parsed_loosely() -> None:
    judge = scripted("Symptoms: A\nExaminations: 4\nDiagnosis: A\nReasoning: B\nTreatment: A")
    value, _ = asyncio.run(score_report(make_case(), reported(), judge))
    assert value == pytest.approx((19 / 5 - 1) / 3 * 100)
    prompt = judge.seen[0][0]["content"]
    assert "Acute appendicitis" in prompt and "Treatment plan: surgery" in prompt
    grades, _ = parse_grades('{"symptoms": {"grade": "b"}, "rationale": true}')
    assert grades == {"symptoms": 3}


def test_report_score_degenerate_cases_are_none_with_reason() -> None:
    no_report = Transcript(case_id="t-001")
    value, detail = asyncio.run(score_report(make_case(), no_report, scripted()))
    assert value is None and detail["reason"] == "no final report"
    value, detail = asyncio.run(score_report(make_case(), reported(),
                                             scripted('{"symptoms": "A"}')))
    assert value is None and "examinations" in detail["reason"]

    async def failing(messages: list[dict[str, str]]) -> str:
        raise ModelError("judge: 500")

    value, detail = asyncio.run(score_report(make_case(), reported(), failing))
    assert value is None and detail["reason"].startswith("judge call failed")


def test_report_summary_has_bootstrap_interval() -> None:
    s = summarise_report_scores([0.0, 50.0, 100.0, None])
    assert s["n"] == 3 and s["mean"] == pytest.approx(50.0)
    assert 0 <= s["ci_low"] < 50 < s["ci_high"] <= 100
    assert summarise_report_scores([])["mean"] is None


def test_patient_ratings_parsed_from_json_and_from_lines() -> None:
    assert parse_ratings('{"confidence": 8, "compliance": "7/10", "consult again": 9}') == {
        "confidence": 8.0, "compliance": 7.0, "consult_again": 9.0}
    assert parse_ratings("Confidence: 6\nCompliance: 11\nConsult_again = 3") == {
        "confidence": 6.0, "compliance": None, "consult_again": 3.0}
    assert parse_ratings("I liked the doctor.") == {
        "confidence": None, "compliance": None, "consult_again": None}


def test_rate_consultation_uses_patient_view_and_hides_verdicts() -> None:
    t = full_transcript()
    t.turns.append(Turn(index=7, role=Role.MODERATOR, kind="verdict", content="SECRET-YES"))
    patient = scripted('```json\n{"confidence": 7, "compliance": 8, "consult_again": 6}\n```')
    out = asyncio.run(rate_consultation(make_case(), t, patient, info=JudgeInfo("pt")))
    assert {k: v for k, (v, _) in out.items()} == {
        "pr_confidence": 7.0, "pr_compliance": 8.0, "pr_consult_again": 6.0}
    prompt = patient.seen[0][0]["content"]
    assert "SECRET-YES" not in prompt and "Acute appendicitis" not in prompt
    assert "Doctor: Tell me about the tummy pain." in prompt


def test_rate_consultation_degenerate() -> None:
    out = asyncio.run(rate_consultation(make_case(), Transcript(case_id="t-001"), scripted()))
    assert all(v is None for v, _ in out.values())
    out = asyncio.run(rate_consultation(make_case(), full_transcript(),
                                        scripted('{"confidence": 0}')))
    assert out["pr_confidence"][0] is None and "confidence" in out["pr_confidence"][1]["reason"]


def test_one_step_upper_bound_transcript_and_its_metrics() -> None:
    reply = ("DIAGNOSIS READY: Acute appendicitis\nSymptoms: RIF pain\nExaminations: tender"
             "\nDiagnostic results: appendicitis\nDiagnostic rationale: migration\n"
             "Treatment plan: IV antibiotics and laparoscopic appendicectomy")
    doctor = scripted(reply)
    t, sink = run_one_step(doctor)
    prompt = doctor.seen[0][0]["content"]
    assert "RIF tenderness" in prompt and "negative" in prompt  # findings and results given
    assert "Acute appendicitis" not in prompt  # never the truth
    assert t.diagnosis == "Acute appendicitis" and t.verdicts[0].correct is True
    assert [v.moderator for v in t.verdicts] == ["exact"]  # the deterministic verdict only
    assert [e.type for e in sink.events][0] == "started" and sink.events[0].origin == "one_step"
    assert sink.events[-1].type == "finished" and sink.events[-1].doctor_turns == 1
    assert t.turns[0].model == "m1" and t.meta["mode"] == "one_step"
    assert t.report is not None and t.report.treatment_plan.startswith("IV antibiotics")
    m = compute_metrics(make_case(), t)
    assert m["accuracy"][0] == 1.0 and m["treatment_logicality"][0] == 1.0
    assert m["info_completeness"] == (None, {"reason": "one-step mode has no pathway"})


def test_one_step_without_marker_has_no_diagnosis() -> None:
    t, sink = run_one_step(scripted("I think appendicitis."), "m")
    assert t.diagnosis is None and t.verdicts == [] and t.end_reason == "budget"
    assert compute_metrics(make_case(), t)["accuracy"] == (
        0.0, {"reached_diagnosis": False, "decided_by": None})


def test_compute_llm_metrics_without_models_is_undefined() -> None:
    out = asyncio.run(compute_llm_metrics(make_case(), reported()))
    assert set(out) == {"report_score", "pr_confidence", "pr_compliance", "pr_consult_again"}
    assert out["report_score"] == (None, {"reason": "no judge model"})


def test_rating_patient_hears_the_doctor_and_itself_but_not_the_examiner() -> None:
    t = full_transcript()
    t.turns.insert(5, Turn(index=5, role=Role.EXAMINER, kind="result",
                           content="White cell count: 15 EXAMINER-ONLY"))
    t.turns.append(Turn(index=8, role=Role.DOCTOR, kind="report",
                        content="You have appendicitis; we will operate today."))
    patient = scripted('{"confidence": 7, "compliance": 8, "consult_again": 6}')
    asyncio.run(rate_consultation(make_case(), t, patient))
    prompt = patient.seen[0][0]["content"]
    assert "EXAMINER-ONLY" not in prompt and "Examiner:" not in prompt
    assert "Patient: It hurts. I have a fever." in prompt
    assert "Doctor: You have appendicitis; we will operate today." in prompt


def test_failed_calls_are_marked_for_a_retry_but_no_report_is_a_result() -> None:
    async def failing(messages: list[dict[str, str]]) -> str:
        raise ModelError("patient: 500")

    out = asyncio.run(rate_consultation(make_case(), full_transcript(), failing))
    assert all(v is None and d["failed"] for v, d in out.values())
    value, detail = asyncio.run(score_report(make_case(), reported(), scripted("no grades")))
    assert value is None and detail["failed"]
    value, detail = asyncio.run(score_report(make_case(), Transcript(case_id="t-001"),
                                             scripted()))
    assert value is None and "failed" not in detail


def test_placeholder_case_has_no_metrics_and_no_model_call() -> None:
    case = make_case(placeholder=True)
    offline = compute_metrics(case, full_transcript())
    assert all(v is None and d["reason"] == "case record not available"
               for v, d in offline.values())
    judge, patient = scripted(), scripted()
    out = asyncio.run(compute_llm_metrics(case, reported(), judge=judge, patient=patient))
    assert {d["reason"] for _, d in out.values()} == {"case record not available"}
    assert judge.seen == [] and patient.seen == []


def test_cache_key_changes_with_model_parameters_and_case() -> None:
    from core.metrics.compute import llm_key

    base = llm_key("judge", JudgeInfo("m", {"temperature": 0}), make_case())
    assert base == llm_key("judge", JudgeInfo("m", {"temperature": 0}), make_case())
    assert base != llm_key("judge", JudgeInfo("m", {"temperature": 1}), make_case())
    assert base != llm_key("judge", JudgeInfo("m2", {"temperature": 0}), make_case())
    assert base != llm_key("patient", JudgeInfo("m", {"temperature": 0}), make_case())
    assert base != llm_key("judge", JudgeInfo("m", {"temperature": 0}),
                           make_case(title="Other"))
