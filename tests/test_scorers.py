"""Scorers: the moderators, the offline metrics and the LLM metrics behind one protocol and
one registry, giving what the metric functions give (and the engine's verdicts)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from core.config import AgentSpec, ConsultationConfig
from core.engine import run_consultation
from core.errors import InputError
from core.events import ListSink
from core.llm import LLMClient
from core.metrics.compute import compute_metrics, judge_report, llm_key, rate_by_patient
from core.metrics.llmcall import JudgeInfo
from core.metrics.names import OFFLINE_NAMES, PATIENT_NAMES
from core.scorers.base import Finished
from core.scorers.llm import ONE_STEP_NO_PATIENT, PatientReported, ReportGrade
from core.scorers.offline import OfflineMetrics
from core.scorers.registry import SCORERS, make_scorer
from core.scorers.verdict import VerdictScorer
from tests.fake_openai_server import FakeOpenAIServer
from tests.test_metrics_llm import reported, scripted
from tests.test_metrics_pathway import full_transcript, make_case

GRADES = ('{"symptoms": "A", "examinations": "B", "diagnostic_results": "A", '
          '"rationale": "B", "treatment_plan": "C"}')
RATINGS = '{"confidence": 8, "compliance": 9, "consult_again": 7}'


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


def score(scorer: Any, transcript: Any, solver: str = "interactive") -> dict[str, Any]:
    return asyncio.run(scorer.score(make_case(), Finished(transcript, solver)))


def test_registry_makes_every_scorer_and_each_gives_exactly_its_names(
        server: FakeOpenAIServer) -> None:
    spec = AgentSpec(kind="llm", model="openai/judge", api_base=server.base_url, retries=0)
    llm = LLMClient("sk-test-not-real", backoff_scale=0.01)
    assert set(SCORERS) == {"exact", "moderator", "offline", "report_score",
                            "patient_reported", "agenthospital_tasks", "rjua_reasoning",
                            "rjua_qa"}
    for name, entry in SCORERS.items():
        scorer = make_scorer(name, spec if entry.kind != "offline" else None, llm)
        got = score(scorer, reported())
        assert set(got) == set(scorer.names), name
        assert all(v is None or 0 <= v <= 100 for v, _ in got.values()), (name, got)
    with pytest.raises(InputError, match="unknown scorer 'x'"):
        make_scorer("x")
    with pytest.raises(InputError, match="needs a model"):
        make_scorer("report_score")


def test_offline_scorer_is_compute_metrics_and_knows_one_step() -> None:
    t = full_transcript()
    assert score(OfflineMetrics(), t) == compute_metrics(make_case(), t)
    assert set(OfflineMetrics.names) == set(OFFLINE_NAMES)
    upper = score(OfflineMetrics(), t, solver="one_step")
    assert upper["info_completeness"] == (None, {"reason": "one-step mode has no pathway"})


def test_exact_verdict_scorer_judges_any_transcript() -> None:
    exact = VerdictScorer(AgentSpec(kind="exact"))
    assert exact.name == "verdict:exact" and exact.key(make_case()) is None
    right = full_transcript()  # ends with the right diagnosis
    value, detail = score(exact, right)["verdict:exact"]
    assert value == 1.0 and detail["verdict"]["correct"] is True
    wrong = right.model_copy(update={"diagnosis": "Gastroenteritis"})
    assert score(exact, wrong)["verdict:exact"][0] == 0.0
    none = right.model_copy(update={"diagnosis": None})
    assert score(exact, none)["verdict:exact"] == (None, {"reason": "no diagnosis"})
    with pytest.raises(Exception, match="cannot moderate"):
        VerdictScorer(AgentSpec(kind="scripted"))


def test_model_verdicts_are_the_engines(server: FakeOpenAIServer) -> None:
    # The engine's moderators are verdict scorers: same verdict, the call recorded as a turn.
    spec = AgentSpec(kind="llm", model="openai/mod", api_base=server.base_url, retries=0)
    sink = ListSink()
    llm = LLMClient("sk-test-not-real", backoff_scale=0.01)
    t = asyncio.run(run_consultation(make_case(), ConsultationConfig(
        moderators=[AgentSpec(kind="exact"), spec]), sink, consultation_id="c-v", llm=llm))
    assert [v.moderator for v in t.verdicts] == ["exact", "openai/mod"]
    verdict_turns = [x for x in t.turns if x.kind == "verdict"]
    assert len(verdict_turns) == 1 and verdict_turns[0].raw_request is not None
    again, _ = asyncio.run(VerdictScorer(spec, llm).judge(make_case(), t.diagnosis or ""))
    assert again.correct == t.verdicts[1].correct


def test_llm_scorers_give_the_metric_functions_values_and_cache_keys() -> None:
    info = JudgeInfo("judge-x", {"temperature": 0})
    grade = ReportGrade(scripted(GRADES), info)
    direct = asyncio.run(judge_report(make_case(), reported(), scripted(GRADES), info))
    assert score(grade, reported()) == direct
    assert grade.key(make_case()) == llm_key("judge", info, make_case())
    patient = PatientReported(scripted(RATINGS), JudgeInfo("pt"))
    assert score(patient, reported()) == asyncio.run(
        rate_by_patient(make_case(), reported(), scripted(RATINGS), JudgeInfo("pt")))
    assert patient.key(make_case()) == llm_key("patient", JudgeInfo("pt"), make_case())


def test_nobody_rates_a_one_step_doctor() -> None:
    calls = scripted()  # no reply queued: a call would fail
    out = score(PatientReported(calls), reported(), solver="one_step")
    assert out == {n: (None, {"reason": ONE_STEP_NO_PATIENT}) for n in PATIENT_NAMES}
    assert calls.seen == []
