"""End to end through the command line, against the local OpenAI-compatible test server:
`bedside run` (interactive and one-step consultations of a model doctor, recorded in
SQLite) → `bedside score` (LLM judge and rating patient) → `bedside results` (every metric,
per row and per consultation)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from core.metrics.names import public_name
from tests.fake_openai_server import METRIC_ROLES, FakeOpenAIServer, detect_role
from tui.cli import main

JUDGE = json.dumps({"symptoms": "A", "examinations": "B", "diagnostic_results": "A",
                    "rationale": "B", "treatment_plan": "A"})
RATING = '{"confidence": 8, "compliance": 9, "consult_again": 7}'
ONE_STEP = ("DIAGNOSIS READY: Inferior STEMI\nSymptoms: chest pain\nExaminations: ECG\n"
            "Diagnostic results: inferior STEMI\nDiagnostic rationale: ST elevation\n"
            "Treatment plan: aspirin, ticagrelor, heparin and primary PCI")
KEY = "sk-test-not-real-e2e-4242"
ALL_METRICS = ("accuracy", "entity_precision", "entity_recall", "entity_f1",
               "info_completeness", "guidance_precision", "guidance_recall",
               "behaviour_standardization", "inquiry_coverage", "clinical_applicability",
               "diagnostic_logicality", "treatment_logicality", "report_score",
               "pr_confidence", "pr_compliance", "pr_consult_again")


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


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run `bedside ARGV`; (exit status, stdout, stderr)."""
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_run_score_results_compute_every_metric(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BEDSIDE_HOME", str(tmp_path))
    monkeypatch.setenv("E2E_KEY", KEY)
    db = str(tmp_path / "e2e.db")
    with FakeOpenAIServer(replies=dict.fromkeys(METRIC_ROLES, metric_replies)) as server:
        model = ["--api-base", server.base_url, "--api-key-env", "E2E_KEY", "--timeout", "5",
                 "--retries", "0"]
        code, out, _ = cli(capsys, "run", "--db", db, "--cases", "card-001,gi-001",
                           "--doctor", "openai/doc-a", "--final-report", "--one-step",
                           "--json", *model)
        assert code == 0
        run_id = json.loads(out)["run_id"]
        score = ["score", "--db", db, "--run", run_id, "--judge", "openai/judge",
                 "--rating-patient", "openai/patient", *model]
        code, out, err = cli(capsys, *score)
        assert code == 0 and "4 scored" in out and "[4/4]" in err
        calls = len(server.requests)
        code, out, _ = cli(capsys, *score)  # same judge: nothing is paid for twice
        assert code == 0 and "4 already scored" in out and len(server.requests) == calls

    code, out, _ = cli(capsys, "results", "--db", db, "--run", run_id, "--json")
    rows = {r["model"]: r for r in json.loads(out)}
    assert set(rows) == {"openai/doc-a", "openai/doc-a [one-step]"}
    inter, upper = rows["openai/doc-a"], rows["openai/doc-a [one-step]"]
    # The scripted fake doctor names inferior STEMI for both cases: card-001 right,
    # gi-001 (appendicitis) wrong → 1 of 2, for the interactive and the one-step rows.
    assert (inter["n"], inter["correct"], upper["n"], upper["correct"]) == (2, 1, 2, 1)
    assert upper["mode"] == "one_step" and upper["information_gathered"] is None
    # A, B, A, B, A = 4, 3, 4, 3, 4 → mean 3.6 → (3.6 − 1) / 3 × 100 = 86.67
    assert inter["report_score"] == pytest.approx(260 / 3)
    assert (inter["patient_confidence"], inter["patient_compliance"],
            inter["patient_would_return"]) == (8, 9, 7)
    assert inter["tokens"] > 0 and inter["turns"] == 4

    code, out, _ = cli(capsys, "results", "--db", db, "--run", run_id, "--per-consultation",
                       "--json")
    consultations = json.loads(out)
    assert len(consultations) == 4
    for row in consultations:  # every metric: a number, or None with its reason
        for name in map(public_name, ALL_METRICS):  # under the names users read
            value = row[name]
            assert (value is None and f"{name}: " in row["reasons"]) or value == value
    card = next(r for r in consultations if r["case_id"] == "card-001" and r["mode"] ==
                "interactive")
    assert card["correct"] == 1.0 and card["tests_relevant"] == 1.0
    assert card["inquiry_steps"] is not None and card["report_score"] is not None
    one = next(r for r in consultations if r["case_id"] == "card-001" and r["mode"] ==
               "one_step")
    assert one["treatment_covered"] == pytest.approx(4 / 8)  # aspirin, P2Y12, heparin, PCI
    # Nobody sat with a one-step doctor: no patient rates it (and no call is made).
    assert one["patient_confidence"] is None
    assert "no consultation for a patient" in one["reasons"]
    assert upper["patient_confidence"] is None
    asked = [b for b in server.requests if detect_role(b) == "rating_patient"]
    assert len(asked) == 2  # the two interactive consultations only

    dump = "\n".join(sqlite3.connect(db).iterdump())
    assert KEY not in dump  # the API key is never stored
