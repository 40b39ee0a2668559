"""RJUA's tasks as run modes (issue 13 item 5): diagnostic reasoning (the patient's first
words → the tests to order, precision and recall against the case's relevant tests) and
single-turn QA (the whole record → diagnosis and treatment), each a `task` of the run with
rows of its own in `bedside results`, beside the interactive rows. Through the real engine,
SQLite and the local OpenAI-compatible server; offline with the scripted doctor."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from db.store import open_store
from tests.fake_openai_server import FakeOpenAIServer, detect_role, message_text
from tests.test_judges import cli

TRUTH = "Inferior ST-elevation myocardial infarction"


def _task_rows(out: str) -> dict[tuple[str, str], dict]:
    return {(r["suite"], r["task"]): r for r in json.loads(out) if "suite" in r}


def test_model_doctor_plays_both_tasks_with_rows_of_their_own(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "r.db")
    with FakeOpenAIServer() as server:
        code, out, err = cli(capsys, "run", "--db", db, "--cases", "card-001", "--doctor",
                             "openai/doc", "--task", "rjua-reasoning,rjua-qa,interactive",
                             "--api-base", server.base_url, "--retries", "0", "--json")
        assert code == 0, err
        asked = {detect_role(b): message_text(b["messages"][-1]["content"])
                 for b in server.requests}
    # Reasoning: the patient's first words only, never a result or the diagnosis.
    reasoning = asked["rjua-reasoning"]
    assert "Heavy pain in the middle of my chest for the last hour." in reasoning
    assert "Troponin" not in reasoning and "STEMI" not in reasoning and TRUTH not in reasoning
    # QA: the whole record (results included) but not the ground truth.
    assert "Electrocardiogram" in asked["rjua-qa"] and TRUTH not in asked["rjua-qa"]
    code, out, _ = cli(capsys, "results", "--db", db, "--json")
    rows = _task_rows(out)
    # The doctor ordered ECG, troponin, D-dimer, CT head. card-001 flags ECG, troponin, blood
    # count, metabolic panel, chest X-ray and lipids relevant, D-dimer not; CT head it does
    # not know (counts as not relevant): precision 2/4, recall 2/6.
    precision = rows[("rjua-reasoning", "tests: precision")]
    recall = rows[("rjua-reasoning", "tests: recall")]
    assert (precision["correct"], precision["n"], precision["unit"]) == (2, 4, "tests ordered")
    assert (recall["correct"], recall["n"], recall["unit"]) == (2, 6, "relevant tests")
    # QA: 'Inferior STEMI' is right; the plan covers aspirin, a P2Y12 inhibitor,
    # anticoagulation and PCI: 4 of the case's 8 treatment requirements.
    diagnosis, treatment = rows[("rjua-qa", "diagnosis")], rows[("rjua-qa", "treatment")]
    assert (diagnosis["correct"], diagnosis["n"]) == (1, 1)
    assert (treatment["correct"], treatment["n"]) == (4, 8)
    # The interactive consultation keeps its own row, with its one consultation only.
    interactive = [r for r in json.loads(out) if "suite" not in r]
    assert [r["n"] for r in interactive] == [1]
    assert {r["settings"].rsplit(", ", 1)[-1] for r in rows.values()} == {
        "task rjua-reasoning", "task rjua-qa"}


def test_scripted_doctor_plays_them_offline_turn_by_turn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "o.db")
    code, out, _ = cli(capsys, "run", "--db", db, "--cases", "card-001,card-002,gi-001", "--task",
                       "rjua-reasoning,rjua-qa", "--json")
    assert code == 0
    store = open_store(db)
    by_solver: dict[str, list] = {}
    for c in store.list_consultations():
        by_solver.setdefault(c.config["solver"], []).append(store.get_transcript(c.id))
    assert {k: len(v) for k, v in by_solver.items()} == {"rjua-reasoning": 3, "rjua-qa": 3}
    first = by_solver["rjua-reasoning"][0]
    # The patient's first words, then one test order nobody answers.
    assert [(t.role, t.kind) for t in first.turns] == [("patient", "answer"),
                                                       ("doctor", "test_request")]
    assert first.turns[1].tests and first.turns[1].meta["prompt_id"] == "rjua-reasoning/v1"
    qa = by_solver["rjua-qa"][0]
    assert [(t.role, t.kind) for t in qa.turns] == [("doctor", "diagnosis")]
    assert qa.report is not None and qa.report.treatment_plan
    code, out, _ = cli(capsys, "results", "--db", db)
    assert "-- RJUA diagnostic reasoning --" in out and "-- RJUA single-turn QA --" in out
    code, out, _ = cli(capsys, "results", "--db", db, "--json", "--task", "rjua-reasoning")
    rows = json.loads(out)
    assert [r["task"] for r in rows] == ["tests: precision", "tests: recall"]
    assert all(r["n"] > 0 and r["ci_low"] <= r["accuracy"] <= r["ci_high"] for r in rows)


def test_only_scripted_or_model_doctors_play_them(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    replay = tmp_path / "r.jsonl"
    replay.write_text('{"case": "*", "say": ["Hello"], "diagnosis": "x"}\n', encoding="utf-8")
    code, out, err = cli(capsys, "run", "--db", str(tmp_path / "x.db"), "--cases", "card-001",
                         "--task", "rjua-qa", "--doctor", f"replay:{replay}", "--json")
    assert code == 2 and err.count("\n") == 1 and "cannot play the task 'rjua-qa'" in err
    assert "a model or the scripted doctor" in err and not Path(tmp_path / "x.db").exists()
