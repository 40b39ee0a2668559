"""Schema migrations: append-only functions, applied in one place (`db.connection.open_db`).

Never edit a migration that has shipped; add a new one. Each runs in its own transaction.
Tables are reached with `db.table(name)` (a `Table`, never a `View`), which also keeps the
type checker exact.
"""

from __future__ import annotations

from sqlite_utils import Database, Migrations

migrations = Migrations("bedside")


@migrations()
def m001_initial(db: Database) -> None:
    """Cases, runs, consultations, turns, events."""
    db.table("cases").create(
        {"id": str, "title": str, "specialty": str, "language": str, "source": str,
         "licence": str, "data": str, "content_hash": str, "added_at": str},
        pk="id",
    )
    db.table("runs").create(
        {"id": str, "name": str, "created_at": str, "finished_at": str, "status": str,
         "config": str, "provenance": str},
        pk="id",
    )
    db.table("consultations").create(
        {"id": str, "run_id": str, "case_id": str, "config_key": str, "doctor": str,
         "patient": str, "examiner": str, "config": str, "status": str, "end_reason": str,
         "diagnosis": str, "correct": int, "verdicts": str, "report": str,
         "doctor_turns": int, "tests_ordered": int, "prompt_tokens": int,
         "completion_tokens": int, "cost_usd": float, "started_at": str, "ended_at": str,
         "error": str, "origin": str, "meta": str},
        pk="id",
        foreign_keys=[("run_id", "runs", "id"), ("case_id", "cases", "id")],
    )
    db.table("consultations").create_index(["run_id", "case_id", "config_key"])
    db.table("consultations").create_index(["status"])
    db.table("turns").create(
        {"consultation_id": str, "idx": int, "role": str, "addressee": str, "kind": str,
         "doctor_turn": int, "content": str, "tests": str, "started_at": str,
         "ended_at": str, "latency_ms": float, "prompt_tokens": int,
         "completion_tokens": int, "cost_usd": float, "model": str, "raw_request": str,
         "raw_response": str, "meta": str},
        pk=("consultation_id", "idx"),
        foreign_keys=[("consultation_id", "consultations", "id")],
    )
    db.table("events").create(
        {"id": int, "consultation_id": str, "type": str, "at": str, "data": str},
        pk="id",
        foreign_keys=[("consultation_id", "consultations", "id")],
    )
    db.table("events").create_index(["consultation_id"])


@migrations()
def m002_annotation(db: Database) -> None:
    """Raters, studies, assignments, ratings with history, judge calls."""
    db.table("raters").create(
        {"id": str, "name": str, "kind": str, "model": str, "params": str,
         "prompt_hash": str, "created_at": str},
        pk="id",
    )
    db.table("raters").create_index(["name"], unique=True)
    db.table("studies").create(
        {"id": str, "name": str, "definition": str, "created_at": str}, pk="id"
    )
    db.table("studies").create_index(["name"], unique=True)
    db.table("assignments").create(
        {"id": str, "study_id": str, "rater_id": str, "consultation_id": str,
         "position": int, "calibration": int, "status": str, "skip_reason": str,
         "updated_at": str},
        pk="id",
        foreign_keys=[("study_id", "studies", "id"), ("rater_id", "raters", "id"),
                      ("consultation_id", "consultations", "id")],
    )
    db.table("assignments").create_index(["study_id", "rater_id", "consultation_id"], unique=True)
    db.table("ratings").create(
        {"id": str, "assignment_id": str, "study_id": str, "rater_id": str,
         "consultation_id": str, "item": str, "turn_idx": int, "value": str,
         "comment": str, "created_at": str, "updated_at": str},
        pk="id",
        not_null={"turn_idx"},
        defaults={"turn_idx": -1},
        foreign_keys=[("assignment_id", "assignments", "id")],
    )
    db.table("ratings").create_index(["assignment_id", "item", "turn_idx"], unique=True)
    db.table("ratings").create_index(["study_id", "item"])
    db.table("rating_history").create(
        {"id": int, "rating_id": str, "action": str, "value": str, "comment": str,
         "at": str},
        pk="id",
    )
    db.table("rating_history").create_index(["rating_id"])
    db.table("judge_calls").create(
        {"id": str, "study_id": str, "rater_id": str, "consultation_id": str,
         "status": str, "attempts": int, "raw_response": str, "error": str,
         "prompt_hash": str, "params": str, "created_at": str},
        pk="id",
    )


@migrations()
def m003_metrics(db: Database) -> None:
    """Per-consultation metrics (one row per metric name)."""
    db.table("metrics").create(
        {"consultation_id": str, "name": str, "value": float, "detail": str,
         "computed_at": str},
        pk=("consultation_id", "name"),
        foreign_keys=[("consultation_id", "consultations", "id")],
    )


@migrations()
def m004_rating_saves(db: Database) -> None:
    """Rating saves (one per Enter / skip), so a rater can undo the last one.

    Each history row now names its save and the value it replaced.
    """
    db.table("rating_saves").create(
        {"id": str, "study_id": str, "rater_id": str, "assignment_id": str, "kind": str,
         "prev_status": str, "prev_skip_reason": str, "at": str, "undone_at": str},
        pk="id",
        foreign_keys=[("assignment_id", "assignments", "id")],
    )
    db.table("rating_saves").create_index(["study_id", "rater_id", "at"])
    db.table("rating_history").add_column("save_id", str)
    db.table("rating_history").add_column("prev_value", str)
    db.table("rating_history").add_column("prev_comment", str)


# Later migrations are appended below, one block per area, in this order. A block's
# migrations are numbered within its range so that two areas never take the same name.
# --- engine and store: m005_* ---
# --- benchmark metrics: m006_* ---


@migrations()
def m006_metric_provenance(db: Database) -> None:
    """Metric rows say which version of the case they were computed on (`case_hash`, so
    they are recomputed when the case changes) and, for LLM-based metrics, the key of the
    model, parameters and prompt that produced them (`cache_key`, so they are not paid for
    twice)."""
    db.table("metrics").add_column("case_hash", str)
    db.table("metrics").add_column("cache_key", str)


# --- reader studies: m007_* ---


# --- simulator fidelity (issue 19): m800_* ---


@migrations()
def m800_fidelity(db: Database) -> None:
    """Simulator fidelity of consultations: the rules' findings of each one (every patient
    and examiner answer checked, as JSON), with the case and rules they were computed on so
    stale ones are recomputed; and the LLM grader's verdict on each answer, with its model,
    parameters and prompt hash (`grader_key` hashes the three)."""
    db.table("fidelity_checks").create(
        {"consultation_id": str, "case_hash": str, "rules_hash": str, "findings": str,
         "computed_at": str},
        pk="consultation_id",
        foreign_keys=[("consultation_id", "consultations", "id")],
    )
    db.table("fidelity_grades").create(
        {"consultation_id": str, "turn_index": int, "grader_key": str, "role": str,
         "model": str, "params": str, "prompt_hash": str, "case_hash": str, "verdict": str,
         "failed": int, "computed_at": str},
        pk=("consultation_id", "turn_index", "grader_key"),
        foreign_keys=[("consultation_id", "consultations", "id")],
    )
    db.table("fidelity_grades").create_index(["grader_key"])


# --- reliability (issue 18): m100_* ---


@migrations()
def m100_run_leases(db: Database) -> None:
    """One owner per run: the lease its owner holds and renews (a heartbeat), and the
    consultations the owner's worker processes have claimed under it (`unit` is a (case,
    configuration) pair, or a configuration whose cases are played in order), so none is
    played twice."""
    db.table("run_leases").create(
        {"run_id": str, "token": str, "host": str, "pid": int, "pid_start": int,
         "since": str, "heartbeat_at": float},
        pk="run_id",
    )
    db.table("run_claims").create(
        {"run_id": str, "unit": str, "token": str, "worker": int, "claimed_at": str},
        pk=("run_id", "unit"),
    )
