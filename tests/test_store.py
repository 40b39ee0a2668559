"""The SQLite store: schema, migrations, pragmas and the recorder sink, on a real file."""

from __future__ import annotations

import sqlite3

import pytest
from sqlite_utils import Database

from core.caseio import load_bundled_cases
from core.errors import InputError
from core.events import (ConsultationFailed, ConsultationFinished, ConsultationStarted,
                         TestRequested, TokenDelta, TurnCompleted)
from core.transcript import EndReason, Role, Transcript, Turn, Usage, Verdict
from db.cases import get_case, list_cases, save_cases
from db.connection import open_db
from db.consultations import (Recorder, abandon_interrupted, done_keys, get_transcript,
                              save_transcript)
from db.migrations import migrations

EXPECTED_COLUMNS = {
    "cases": {"id", "title", "specialty", "language", "source", "licence", "data",
              "content_hash", "added_at"},
    "runs": {"id", "name", "created_at", "finished_at", "status", "config", "provenance"},
    "consultations": {"id", "run_id", "case_id", "config_key", "doctor", "patient",
                      "examiner", "config", "status", "end_reason", "diagnosis", "correct",
                      "verdicts", "report", "doctor_turns", "tests_ordered", "prompt_tokens",
                      "completion_tokens", "cost_usd", "started_at", "ended_at", "error",
                      "origin", "meta", "metric_set"},
    "turns": {"consultation_id", "idx", "role", "addressee", "kind", "doctor_turn", "content",
              "tests", "started_at", "ended_at", "latency_ms", "prompt_tokens",
              "completion_tokens", "cost_usd", "model", "raw_request", "raw_response", "meta"},
    "events": {"id", "consultation_id", "type", "at", "data"},
    "raters": {"id", "name", "kind", "model", "params", "prompt_hash", "created_at"},
    "studies": {"id", "name", "definition", "created_at"},
    "assignments": {"id", "study_id", "rater_id", "consultation_id", "position",
                    "calibration", "status", "skip_reason", "updated_at"},
    "ratings": {"id", "assignment_id", "study_id", "rater_id", "consultation_id", "item",
                "turn_idx", "value", "comment", "created_at", "updated_at"},
    "rating_history": {"id", "rating_id", "action", "value", "comment", "at", "save_id",
                       "prev_value", "prev_comment"},
    "rating_saves": {"id", "study_id", "rater_id", "assignment_id", "kind", "prev_status",
                     "prev_skip_reason", "at", "undone_at"},
    "judge_calls": {"id", "study_id", "rater_id", "consultation_id", "status", "attempts",
                    "raw_response", "error", "prompt_hash", "params", "created_at"},
    "metrics": {"consultation_id", "name", "value", "detail", "computed_at", "case_hash",
                "cache_key"},
    "judged_metrics": {"consultation_id", "name", "judge", "value", "detail", "computed_at",
                       "case_hash", "cache_key"},
    "fidelity_checks": {"consultation_id", "case_hash", "rules_hash", "findings",
                        "computed_at"},
    "fidelity_grades": {"consultation_id", "turn_index", "grader_key", "role", "model",
                        "params", "prompt_hash", "case_hash", "verdict", "failed",
                        "computed_at"},
    "ah_evolutions": {"id", "name", "created_at", "finished_at", "status", "config"},
    "ah_points": {"evolution_id", "arm", "task", "seen", "train_accuracy", "test_accuracy",
                  "principles", "records", "wrong", "test_n"},
    "ah_memory": {"id", "evolution_id", "arm", "step", "kind", "task", "case_id", "data"},
    "ah_libraries": {"name", "evolution_id", "arm", "step", "created_at"},
    "hospital_events": {"run_id", "seq", "day", "patient", "visit", "station", "what",
                        "department", "consultation_id", "detail"},
}


def test_schema_matches_expected_columns(tmp_path) -> None:
    db = open_db(tmp_path / "p.db")
    actual = {t: {c.name for c in db[t].columns} for t in EXPECTED_COLUMNS}
    assert actual == EXPECTED_COLUMNS


def test_pragmas_wal_and_foreign_keys(tmp_path) -> None:
    db = open_db(tmp_path / "p.db")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with pytest.raises(sqlite3.IntegrityError):
        db["consultations"].insert({"id": "c1", "case_id": "no-such-case"})


def test_older_schema_is_migrated_forward_keeping_data(tmp_path) -> None:
    path = tmp_path / "old.db"
    old = Database(path)
    migrations.apply(old, stop_before="m002_annotation")
    assert "ratings" not in old.table_names()
    saved = save_cases(old, load_bundled_cases()[:2])
    old.close()
    db = open_db(path)
    assert "ratings" in db.table_names() and "metrics" in db.table_names()
    assert db["cases"].count == saved
    applied = [m.name for m in migrations.applied(db)]
    assert applied[:4] == ["m001_initial", "m002_annotation", "m003_metrics",
                           "m004_rating_saves"]
    assert "m006_metric_provenance" in applied
    open_db(path)  # idempotent
    assert [m.name for m in migrations.applied(db)] == applied


def test_not_a_database_is_a_one_line_error(tmp_path) -> None:
    bad = tmp_path / "junk.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(InputError, match="junk.db"):
        open_db(bad)


def test_cases_round_trip(tmp_path) -> None:
    db = open_db(tmp_path / "p.db")
    cases = load_bundled_cases()
    save_cases(db, cases)
    assert [c.id for c in list_cases(db)] == sorted(c.id for c in cases)
    assert get_case(db, cases[0].id) == cases[0]


def _turn(i: int, role: Role, content: str, doctor_turn: int, kind: str = "question") -> Turn:
    return Turn(index=i, role=role, content=content, doctor_turn=doctor_turn, kind=kind,
                usage=Usage(prompt_tokens=10, completion_tokens=5, cost_usd=0.001))


def test_recorder_commits_each_event_and_survives_reopen(tmp_path) -> None:
    path = tmp_path / "p.db"
    db = open_db(path)
    case = load_bundled_cases()[0]
    save_cases(db, [case])
    rec = Recorder(db)
    rec.emit(ConsultationStarted(consultation_id="c1", case_id=case.id, config={
        "config_key": "k", "doctor": {"kind": "scripted"}, "patient": {"kind": "retrieval"}}))
    rec.emit(TurnCompleted(consultation_id="c1", turn=_turn(0, Role.DOCTOR, "Where?", 1)))
    rec.emit(TokenDelta(consultation_id="c1", index=1, role=Role.PATIENT, text="Ch"))
    # Another connection sees the committed turn before the consultation ends.
    other = open_db(path)
    assert other["turns"].count == 1
    assert other["consultations"].get("c1")["status"] == "running"
    rec.emit(TestRequested(consultation_id="c1", tests=["ECG", "troponin"], doctor_turn=2))
    rec.emit(ConsultationFinished(consultation_id="c1", end_reason=EndReason.DIAGNOSIS,
                                  diagnosis="STEMI", doctor_turns=3,
                                  verdicts=[Verdict(moderator="exact", correct=True)]))
    row = other["consultations"].get("c1")
    assert (row["status"], row["correct"], row["tests_ordered"], row["doctor"]) == \
        ("finished", 1, 2, "scripted")
    assert row["prompt_tokens"] == 10
    assert other["events"].count == 4  # deltas are not stored
    assert done_keys(other, None) == set()


def test_failed_and_abandoned_and_done_keys(tmp_path) -> None:
    db = open_db(tmp_path / "p.db")
    case = load_bundled_cases()[0]
    save_cases(db, [case])
    db["runs"].insert({"id": "r1"})
    rec = Recorder(db)
    for cid, key in (("a", "k1"), ("b", "k2"), ("c", "k3")):
        rec.emit(ConsultationStarted(consultation_id=cid, case_id=case.id, run_id="r1",
                                     config={"config_key": key}))
    rec.emit(ConsultationFinished(consultation_id="a", end_reason=EndReason.BUDGET))
    rec.emit(ConsultationFailed(consultation_id="b", end_reason=EndReason.ERROR,
                                reason="HTTP 500 after 3 retries"))
    assert done_keys(db, "r1") == {(case.id, "k1"), (case.id, "k2")}
    assert abandon_interrupted(db, "r1") == 1
    assert db["consultations"].get("c")["status"] == "abandoned"
    assert db["consultations"].get("b")["error"] == "HTTP 500 after 3 retries"


def test_transcript_round_trip(tmp_path) -> None:
    db = open_db(tmp_path / "p.db")
    case = load_bundled_cases()[0]
    save_cases(db, [case])
    t = Transcript(case_id=case.id, doctor="gpt-x", end_reason=EndReason.IMPORTED, turns=[
        _turn(0, Role.DOCTOR, "Hello [bold]x[/]", 1),
        Turn(index=1, role=Role.PATIENT, addressee=Role.DOCTOR, content="Hi", kind="answer"),
    ])
    save_transcript(db, t, consultation_id="imp-1")
    back = get_transcript(db, "imp-1")
    assert back.turns == t.turns and back.doctor == "gpt-x"


def test_unopenable_paths_are_one_line_errors_naming_the_path(tmp_path) -> None:
    with pytest.raises(InputError, match="/proc/nope/x.db: the folder /proc/nope does not exist"):
        open_db("/proc/nope/x.db")  # a folder that is not there is not made
    with pytest.raises(InputError, match="cannot open"):
        open_db(tmp_path)  # a folder, not a file


def test_a_redo_supersedes_the_earlier_rows_of_its_pair_only(tmp_path) -> None:
    db = open_db(tmp_path / "p.db")
    cases = load_bundled_cases()[:2]
    save_cases(db, cases)
    db["runs"].insert({"id": "r1"})
    db["runs"].insert({"id": "r2"})
    rec = Recorder(db)

    def start(cid: str, case: str, key: str, run: str | None = "r1") -> None:
        rec.emit(ConsultationStarted(consultation_id=cid, case_id=case, run_id=run,
                                     config={"config_key": key}))

    start("a1", cases[0].id, "k")
    rec.emit(ConsultationFailed(consultation_id="a1", end_reason=EndReason.CANCELLED,
                                reason="cancelled"))
    start("b1", cases[1].id, "k")  # another case: untouched
    start("x1", cases[0].id, "k", run="r2")  # another run: untouched
    start("c1", cases[0].id, "other")  # another configuration: untouched
    start("h1", cases[0].id, "k", run=None)  # a played session (no run): untouched
    start("a2", cases[0].id, "k")  # the redo
    status = {r["id"]: r["status"] for r in db["consultations"].rows}
    assert status == {"a1": "superseded", "b1": "running", "x1": "running", "c1": "running",
                      "h1": "running", "a2": "running"}
    assert db["consultations"].get("a1")["error"] == "cancelled"  # kept as it was
    from db.runs import list_runs

    r1 = next(r for r in list_runs(db) if r.id == "r1")
    assert r1.counts is not None and r1.counts.consultations == 3  # superseded: not counted


def test_done_keys_can_leave_failed_pairs_to_be_retried(tmp_path) -> None:
    db = open_db(tmp_path / "p.db")
    case = load_bundled_cases()[0]
    save_cases(db, [case])
    db["runs"].insert({"id": "r1"})
    rec = Recorder(db)
    for cid, key in (("a", "k1"), ("b", "k2")):
        rec.emit(ConsultationStarted(consultation_id=cid, case_id=case.id, run_id="r1",
                                     config={"config_key": key}))
    rec.emit(ConsultationFinished(consultation_id="a", end_reason=EndReason.BUDGET))
    rec.emit(ConsultationFailed(consultation_id="b", end_reason=EndReason.ERROR, reason="x"))
    assert done_keys(db, "r1", retry_failed=True) == {(case.id, "k1")}


def test_store_correct_agrees_with_the_batch_outcome_rule(tmp_path) -> None:
    db = open_db(tmp_path / "p.db")
    case = load_bundled_cases()[0]
    save_cases(db, [case])
    rec = Recorder(db)
    rec.emit(ConsultationStarted(consultation_id="c", case_id=case.id, config={}))
    verdicts = [Verdict(moderator="openai/x", correct=False),
                Verdict(moderator="exact", correct=True)]
    rec.emit(ConsultationFinished(consultation_id="c", end_reason=EndReason.DIAGNOSIS,
                                  diagnosis="STEMI", verdicts=verdicts))
    from core.transcript import verdict_correct

    assert db["consultations"].get("c")["correct"] == int(verdict_correct(verdicts)) == 1


def test_events_for_an_unknown_consultation_are_refused(tmp_path) -> None:
    db = open_db(tmp_path / "p.db")
    rec = Recorder(db)
    with pytest.raises(Exception, match="no consultation"):
        rec.emit(ConsultationFailed(consultation_id="ghost", end_reason=EndReason.ERROR,
                                    reason="x"))
    assert db["events"].count == 0  # the transaction was rolled back whole
