"""Judges side by side (issue 13 item 3), through the real engine, SQLite and the local
OpenAI-compatible server: a second report judge's grades sit beside the first's (before,
they replaced them), `bedside results --judge` picks one and says which, and
`bedside analyze-judges` reports their agreement part by part."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.fake_openai_server import METRIC_ROLES, FakeOpenAIServer
from tui.cli import main

PARTS = ("symptoms", "examinations", "diagnostic_results", "rationale", "treatment_plan")
# Each judge's grades of each case's report, by the diagnosis its record names. The judges
# agree on every part but the rationale, where judge B is one step lower on three cases.
GRADES = {
    "Inferior ST-elevation": {"judge-a": "AAABB", "judge-b": "AAACB"},
    "Atrial fibrillation": {"judge-a": "BBABC", "judge-b": "BBACC"},
    "Acute appendicitis": {"judge-a": "CBDCC", "judge-b": "CBDDC"},
    "Cellulitis": {"judge-a": "DCCDD", "judge-b": "DCCDD"},
}
CASES = "card-001,card-002,gi-001,derm-001"


def judge_replies(body: dict[str, Any], n: int) -> str:
    """Grades by judge (the model asked) and case (the diagnosis in the record)."""
    text = json.dumps(body.get("messages", []))
    if "DOCTOR'S REPORT" not in text:
        return "OK."
    judge = body["model"].rsplit("/", 1)[-1]
    grades = next(g[judge] for name, g in GRADES.items() if f"Diagnosis: {name}" in text)
    return json.dumps(dict(zip(PARTS, grades, strict=True)))


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture()
def judged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str, list[int]]:
    """A run of four cases with final reports, graded by two judges in turn. Returns (db,
    run id, requests made by each scoring command)."""
    db = str(tmp_path / "j.db")
    code, out, _ = cli(capsys, "run", "--db", db, "--cases", CASES, "--final-report",
                       "--json")
    assert code == 0
    run_id = json.loads(out)["run_id"]
    calls = []
    with FakeOpenAIServer(replies=dict.fromkeys(METRIC_ROLES, judge_replies)) as server:
        for judge in ("openai/judge-a", "openai/judge-b", "openai/judge-a"):
            before = len(server.requests)
            code, out, _ = cli(capsys, "score", "--db", db, "--run", run_id, "--judge", judge,
                               "--api-base", server.base_url, "--retries", "0")
            assert code == 0 and f"report grades stored as judge:{judge}#" in out
            calls.append(len(server.requests) - before)
    return db, run_id, calls


def test_a_second_judge_keeps_the_first_judges_grades(
        judged: tuple[str, str, list[int]], capsys: pytest.CaptureFixture[str]) -> None:
    db, run_id, calls = judged
    # Judge A graded 4 reports, judge B 4 more; A again: all its grades are still stored.
    assert calls == [4, 4, 0]
    rows = sqlite3.connect(db).execute(
        "SELECT judge, count(*), avg(value) FROM judged_metrics WHERE name = 'report_score'"
        " GROUP BY judge ORDER BY judge").fetchall()
    assert [(j.split("#")[0], n) for j, n, _ in rows] == [("judge:openai/judge-a", 4),
                                                          ("judge:openai/judge-b", 4)]
    # Hand: A's scores 86.7, 66.7, 33.3, 13.3 (mean 50); B's 80, 60, 26.7, 13.3 (mean 45).
    assert [round(mean, 6) for _, _, mean in rows] == [50.0, 45.0]
    for judge, expected in (("openai/judge-a", 50.0), ("judge:openai/judge-b", 45.0)):
        code, out, _ = cli(capsys, "results", "--db", db, "--run", run_id, "--judge", judge,
                           "--json")
        (row,) = json.loads(out)
        assert code == 0 and row["report_score"] == pytest.approx(expected)
        assert row["report_judge"].startswith(f"judge:{judge.removeprefix('judge:')}#")
    # Without --judge: both graded all four, so the one that computed last (B: A's second
    # run was all cached); said so, with the other.
    code, out, _ = cli(capsys, "results", "--db", db, "--run", run_id)
    assert code == 0
    note = next(line for line in out.splitlines() if line.startswith("report_score by"))
    assert note.startswith("report_score by judge:openai/judge-b#")
    assert "the most recent" in note and "also stored: judge:openai/judge-a#" in note
    code, out, _ = cli(capsys, "results", "--db", db, "--run", run_id, "--per-consultation",
                       "--judge", "openai/judge-b", "--json")
    assert sorted(round(r["report_score"], 2) for r in json.loads(out)) == [
        13.33, 26.67, 60.0, 80.0]


def test_analyze_judges_reports_agreement_per_part(
        judged: tuple[str, str, list[int]], capsys: pytest.CaptureFixture[str]) -> None:
    db, run_id, _ = judged
    code, out, _ = cli(capsys, "analyze-judges", "--db", db, "--run", run_id, "--json",
                       "--bootstrap", "0")
    assert code == 0
    report = json.loads(out)
    assert [j["mean_score"] for j in report["judges"]] == pytest.approx([50.0, 45.0])
    items = {i["item"]: i["agreement"] for i in report["items"]}
    for part in ("symptoms", "examinations", "diagnostic_results", "treatment_plan"):
        assert items[part]["percent_exact"]["value"] == 1.0
        assert items[part]["alpha"]["value"] == pytest.approx(1.0)
    # Rationale: A gives B, B, C, D (3, 3, 2, 1) and B gives C, C, D, D (2, 2, 1, 1): the same
    # grade on 1 of 4 reports, within one step on all four.
    rationale = items["rationale"]
    assert rationale["percent_exact"]["value"] == 0.25
    assert rationale["percent_within_1"]["value"] == 1.0
    (pair,) = rationale["cohen"]
    # Cohen's kappa over the scale 1-4: observed agreement 1/4; marginals A (1, 1, 2, 0)/4,
    # B (2, 2, 0, 0)/4 → expected (1·2 + 1·2 + 2·0 + 0·0)/16 = 0.25 → kappa 0.
    assert pair["none"]["value"] == pytest.approx(0.0)
    assert pair["linear"]["value"] > 0.2  # one step apart counts as near agreement
    code, out, _ = cli(capsys, "analyze-judges", "--db", db, "--bootstrap", "0")
    assert code == 0 and "Agreement per report part" in out
    assert "rationale" in out and "0.250" in out


def test_analyze_judges_needs_two_judges(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "one.db")
    assert cli(capsys, "run", "--db", db, "--cases", "card-001", "--final-report")[0] == 0
    code, _, err = cli(capsys, "analyze-judges", "--db", db)
    assert code == 2 and "needs two report judges" in err and err.count("\n") == 1


def test_results_judge_names_are_checked(judged: tuple[str, str, list[int]],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    db, run_id, _ = judged
    code, _, err = cli(capsys, "results", "--db", db, "--judge", "openai/nobody")
    assert code == 2 and "no judge 'openai/nobody'" in err and "judge:openai/judge-a#" in err
    code, _, err = cli(capsys, "results", "--db", db, "--judge", "openai/judge-a",
                       "--judge", "openai/judge-b")
    assert code == 2 and "two report_score judges named" in err


def test_stored_values_move_under_their_judge(tmp_path: Path) -> None:
    """m320: values stored one per (consultation, metric) before judges were kept apart
    move into judged_metrics under the judge their detail names."""
    from core.metrics.identity import rating_patient, report_judge
    from db.connection import open_db
    from db.judged import migrate_judged_rows

    db = open_db(tmp_path / "old.db")
    db.execute("PRAGMA foreign_keys = OFF")
    judge = {"model": "openai/old", "params": {"temperature": 0.0},
             "prompt_hash": __import__("core.metrics.report_score",
                                       fromlist=["prompt_hash"]).prompt_hash()}
    from core.prompts import PATIENT_RATING

    rater = {"model": "openai/pat", "params": {"patient_bias": "recency"},
             "prompt_hash": PATIENT_RATING.sha256}
    rows = [("c1", "report_score", 60.0, {"judge": judge}),
            ("c1", "pr_confidence", 7.0, {"rater": rater}),
            ("c1", "accuracy", 1.0, {}),
            ("c2", "pr_confidence", None, {"reason": "one-step mode"})]
    db.table("metrics").insert_all([{"consultation_id": c, "name": n, "value": v,
                                     "detail": json.dumps(d)} for c, n, v, d in rows])
    migrate_judged_rows(db)
    left = [r[0] for r in db.execute("SELECT name FROM metrics")]
    moved = {(r[0], r[1]): r[2] for r in db.execute(
        "SELECT consultation_id, name, judge FROM judged_metrics")}
    assert left == ["accuracy"]
    assert moved == {("c1", "report_score"): report_judge("openai/old", {"temperature": 0.0}),
                     ("c1", "pr_confidence"): rating_patient("openai/pat", {}),
                     ("c2", "pr_confidence"): "patient:unknown"}


def test_the_app_names_the_judge_of_a_consultations_values() -> None:
    from tui.app.screens.results import metric_lines

    text = metric_lines({"consultation_id": "c1", "case_id": "card-001", "diagnosis": "x",
                         "report_judge": "judge:openai/a#12345678", "rating_patient": None})
    lines = text.plain.splitlines()
    # Second line, above the metrics, so the panel shows it without scrolling.
    assert lines[1].split() == ["report_judge", "judge:openai/a#12345678"]
    assert "rating_patient" not in text.plain
