"""End to end: a batch run against the local OpenAI-compatible test server, recorded in
SQLite; then every metric — offline, judge-scored report, patient ratings and the one-step
upper bound — is computed, stored and shown in the results table."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from core.batch import run_batch
from core.caseio import load_bundled_cases
from core.config import AgentSpec, ConsultationConfig
from core.llm import LLMClient
from core.metrics.llmcall import complete_from_spec, spec_info
from core.metrics.upper_bound import run_one_step
from db.cases import save_cases
from db.connection import open_db
from db.consultations import Recorder, done_keys, save_transcript
from db.metrics import compute_llm, compute_offline, get_metrics, results_table
from db.runs import create_run
from tests.fake_openai_server import FakeOpenAIServer

JUDGE = json.dumps({"symptoms": "A", "examinations": "B", "diagnostic_results": "A",
                    "rationale": "B", "treatment_plan": "A"})
RATING = '{"confidence": 8, "compliance": 9, "consult_again": 7}'
ONE_STEP = ("DIAGNOSIS READY: Inferior STEMI\nSymptoms: chest pain\nExaminations: ECG\n"
            "Diagnostic results: inferior STEMI\nDiagnostic rationale: ST elevation\n"
            "Treatment plan: primary PCI")


def metric_replies(body: dict[str, Any], n: int) -> str:
    """Replies to our metric prompts, recognised by their headings."""
    text = json.dumps(body.get("messages", []))
    if "DOCTOR'S REPORT" in text:
        return JUDGE
    if "YOU, THE PATIENT" in text:
        return RATING
    if "There is no one to ask" in text:
        return ONE_STEP
    return "OK."


class _Store:
    def __init__(self, db: Any) -> None:
        self.db, self.recorder = db, Recorder(db)

    def sink(self) -> Recorder:
        return self.recorder

    def done_keys(self, run_id: str) -> set[tuple[str, str]]:
        return done_keys(self.db, run_id)


def test_batch_run_then_every_metric(tmp_path: Path) -> None:
    case = next(c for c in load_bundled_cases() if c.id == "card-001")
    db = open_db(tmp_path / "e2e.db")
    save_cases(db, [case])
    with FakeOpenAIServer(replies={"unknown": metric_replies}) as server:
        def spec(model: str) -> AgentSpec:
            return AgentSpec(kind="llm", model=model, api_base=server.base_url, timeout=5,
                             retries=0)

        config = ConsultationConfig(doctor=spec("openai/doc-a"), final_report=True)
        run_id = create_run(db, config={}, provenance={})
        client = LLMClient(api_key="sk-test-not-real")
        outcomes = asyncio.run(run_batch([(case, config)], _Store(db), run_id, llm=client))
        assert [o.status for o in outcomes] == ["finished"]
        cid = outcomes[0].consultation_id

        assert compute_offline(db, run_id=run_id) == 1
        judge, patient = spec("openai/judge"), spec("openai/patient")
        scored = asyncio.run(compute_llm(
            db, run_id=run_id, judge=complete_from_spec(judge, client),
            judge_info=spec_info(judge), patient=complete_from_spec(patient, client),
            patient_info=spec_info(patient)))
        assert scored == 1
        upper = asyncio.run(run_one_step(case, complete_from_spec(spec("openai/doc-a"), client),
                                         doctor="openai/doc-a", info=spec_info(judge)))
    save_transcript(db, upper, consultation_id="upper-1", run_id=run_id, origin="one_step")
    assert compute_offline(db, run_id=run_id) == 1  # only the new one-step consultation

    m = get_metrics(db, cid)
    names = {"accuracy", "entity_precision", "entity_recall", "entity_f1", "info_completeness",
             "guidance_precision", "guidance_recall", "behaviour_standardization",
             "clinical_applicability", "diagnostic_logicality", "treatment_logicality",
             "report_score", "pr_confidence", "pr_compliance", "pr_consult_again"}
    assert names <= set(m)
    assert m["accuracy"][0] == 1.0 and m["diagnostic_logicality"][0] == 1.0
    # A, B, A, B, A = 4, 3, 4, 3, 4 → mean 3.6 → (3.6 − 1) / 3 × 100 = 86.67
    assert m["report_score"][0] == pytest.approx(260 / 3)
    assert m["report_score"][1]["judge"]["model"] == "openai/judge"
    assert (m["pr_confidence"][0], m["pr_compliance"][0], m["pr_consult_again"][0]) == (8, 9, 7)
    for name in names:  # never NaN: a number, or None with a reason
        value, detail = m[name]
        assert value is None and detail.get("reason") or value == value

    rows = {r["model"]: r for r in results_table(db, by="model", run_id=run_id)}
    assert set(rows) == {"openai/doc-a", "openai/doc-a [one-step]"}
    inter, one = rows["openai/doc-a"], rows["openai/doc-a [one-step]"]
    assert inter["accuracy"] == 1.0 and one["accuracy"] == 1.0
    assert inter["report_score"] == pytest.approx(260 / 3)
    assert inter["tokens"] > 0 and inter["mean_turns"] == 4
    assert one["info_completeness"] is None and inter["info_completeness"] is not None
