"""`bedside score` against the local OpenAI-compatible test server: failures reported per
consultation without stopping, cached values not paid for twice, 'no report' undefined, the
judge's model, parameters and prompt hash stored, the key never stored, bad input one line."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from core.case import Case
from core.transcript import EndReason, FinalReport, Role, Transcript, Turn, Verdict
from db.cases import save_cases
from db.connection import open_db
from db.consultations import save_transcript
from db.metrics import get_metrics
from db.runs import create_run
from tests.fake_openai_server import METRIC_ROLES, FakeOpenAIServer
from tests.test_metrics_e2e import JUDGE, RATING
from tests.test_metrics_pathway import make_case
from tui.cli import main

KEY = "sk-test-not-real-score-777"


def _transcript(case_id: str, plan: str | None) -> Transcript:
    turns = [Turn(index=0, role=Role.DOCTOR, doctor_turn=1, kind="question",
                  content="Where is the tummy pain?"),
             Turn(index=1, role=Role.PATIENT, kind="answer", content="Lower right."),
             Turn(index=2, role=Role.DOCTOR, doctor_turn=2, kind="diagnosis",
                  content="DIAGNOSIS READY: acute appendicitis")]
    report = FinalReport(symptoms="RIF pain", examinations="exam", diagnostic_results=
                         "appendicitis", rationale="classic", treatment_plan=plan) if plan \
        else None
    return Transcript(case_id=case_id, turns=turns, diagnosis="acute appendicitis",
                      end_reason=EndReason.DIAGNOSIS, doctor="openai/doc", report=report,
                      verdicts=[Verdict(moderator="exact", correct=True)])


@pytest.fixture()
def store(tmp_path: Path) -> tuple[str, str]:
    """A run with: ok (report), flaky (report; its judge call fails), silent (no report),
    imported (placeholder case). Returns (db path, run id)."""
    db = open_db(tmp_path / "s.db")
    stand_in = Case(id="imp-x", title="Imported", specialty="unknown", source="imported",
                    objective="(imported)", patient={}, truth={"diagnosis": "unknown"},
                    placeholder=True)
    save_cases(db, [make_case(), stand_in])
    run_id = create_run(db, config={}, provenance={})
    for cid, case_id, plan in (("ok", "t-001", "surgery"), ("flaky", "t-001", "FAULT-ME"),
                               ("silent", "t-001", None), ("imported", "imp-x", "surgery")):
        save_transcript(db, _transcript(case_id, plan), consultation_id=cid, run_id=run_id,
                        origin="engine")
    db.conn.close()
    return str(tmp_path / "s.db"), run_id


def replies(body: dict[str, Any], n: int) -> str:
    text = json.dumps(body.get("messages", []))
    return JUDGE if "DOCTOR'S REPORT" in text else RATING


def _calls(server: FakeOpenAIServer, heading: str) -> int:
    return sum(heading in json.dumps(b.get("messages", [])) for b in server.requests)


def test_failures_are_per_consultation_and_retried_later(
        store: tuple[str, str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    path, run_id = store
    monkeypatch.setenv("SCORE_KEY", KEY)
    broken = {"on": True}

    def fault(body: dict[str, Any], n: int) -> str | None:
        text = json.dumps(body.get("messages", []))
        return "500" if broken["on"] and "FAULT-ME" in text and "DOCTOR'S" in text else None

    with FakeOpenAIServer(replies=dict.fromkeys(METRIC_ROLES, replies), fault_rule=fault) as server:
        argv = ["score", "--db", path, "--run", run_id, "--judge", "openai/judge",
                "--rating-patient", "openai/patient", "--api-base", server.base_url,
                "--api-key-env", "SCORE_KEY", "--retries", "0", "--timeout", "5",
                "--temperature", "0.2", "--seed", "7"]
        assert main(argv) == 1
        out, err = capsys.readouterr()
        assert "1 failed" in out and "1 without a final report" in out
        assert "1 without a case record" in out
        assert "bedside: flaky: judge call failed" in err
        # Only consultations with a report reach the judge; the placeholder reaches no model.
        assert _calls(server, "DOCTOR'S REPORT") == 2
        assert _calls(server, "YOU, THE PATIENT") == 3
        db = open_db(path)
        ok = get_metrics(db, "ok")
        assert ok["report_score"][0] is not None and ok["pr_confidence"][0] == 8.0
        judge = ok["report_score"][1]["judge"]
        assert judge["model"] == "openai/judge" and len(judge["prompt_hash"]) == 64
        assert judge["params"]["temperature"] == 0.2 and judge["params"]["seed"] == 7
        assert get_metrics(db, "silent")["report_score"] == (None, {
            "reason": "no final report", "judge": judge})
        assert get_metrics(db, "imported")["report_score"][1]["reason"] == \
            "case record not available"
        assert get_metrics(db, "flaky")["pr_confidence"][0] == 8.0  # stored despite the judge

        broken["on"] = False  # the next run retries the failed value only
        before = len(server.requests)
        assert main(argv) == 0
        assert len(server.requests) - before == 1
        assert get_metrics(db, "flaky")["report_score"][0] is not None
        before = len(server.requests)
        assert main([*argv, "--recompute"]) == 0
        assert len(server.requests) - before == 5  # 2 judged + 3 rated again
        before = len(server.requests)
        assert main([*argv[:-4], "--temperature", "0.5"]) == 0  # new parameters, new key
        assert len(server.requests) - before == 5
    capsys.readouterr()
    assert KEY not in "\n".join(sqlite3.connect(path).iterdump())


@pytest.mark.parametrize(("extra", "message"), [
    ([], "give --judge MODEL, --rating-patient MODEL or both"),
    (["--judge", "not a model"], "field '--judge'"),
    (["--judge", "openai/j", "--api-key-env", "UNSET_SCORE_KEY_VAR"], "is not set"),
    (["--judge", "openai/j", "--concurrency", "0"], "field '--concurrency'"),
])
def test_bad_input_is_one_line(store: tuple[str, str], capsys: pytest.CaptureFixture[str],
                               extra: list[str], message: str) -> None:
    path, run_id = store
    assert main(["score", "--db", path, "--run", run_id, *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_unknown_run_is_one_line(store: tuple[str, str],
                                 capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = store
    assert main(["score", "--db", path, "--run", "nope", "--judge", "openai/j"]) == 2
    assert "no run 'nope'" in capsys.readouterr().err


def test_an_unexpected_error_in_one_consultation_does_not_stop_the_others(
        store: tuple[str, str]) -> None:
    import asyncio

    from core.usecases.scoring import compute_llm
    from db.store import SqliteStore

    path, run_id = store

    async def judge(messages: list[dict[str, str]]) -> str:
        if "FAULT-ME" in messages[0]["content"]:
            raise RuntimeError("a bug, not a model error")
        return JUDGE

    db = open_db(path)
    summary = asyncio.run(compute_llm(SqliteStore(db), run_id=run_id, judge=judge))
    assert [cid for cid, _ in summary.failures] == ["flaky"]
    assert "RuntimeError" in summary.failures[0][1]
    assert get_metrics(db, "ok")["report_score"][0] is not None
    assert "report_score" not in get_metrics(db, "flaky")  # nothing half-written
