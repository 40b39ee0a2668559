"""Run repository: a run is one batch configuration (cases × agent configurations), and
what the live screen polls about it (progress, its consultations, the first failure)."""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from core.errors import NotFoundError
from core.ids import new_id
from core.records.runs import LiveRow, RunCounts, RunProgress, RunRecord
from core.transcript import utc_now
from db.jsoncol import dumps, loads

RUN_STATUSES = ("running", "finished", "cancelled", "interrupted", "failed")
# The runs table's columns, in the order the record reads them.
_RUN_COLUMNS = "r.id, r.name, r.created_at, r.finished_at, r.status, r.config, r.provenance"


def create_run(db: Database, *, config: dict[str, Any], provenance: dict[str, Any],
               name: str | None = None, run_id: str | None = None) -> str:
    """Record a new run (status 'running') and return its id."""
    rid = run_id or new_id("run-")
    db.table("runs").insert({"id": rid, "name": name or rid, "created_at": utc_now(),
                             "status": "running", "config": dumps(config),
                             "provenance": dumps(provenance)})
    return rid


def set_run_status(db: Database, run_id: str, status: str) -> None:
    """Mark a run running (again, on resume) / finished / cancelled / interrupted / failed."""
    if status not in RUN_STATUSES:
        raise ValueError(f"unknown run status {status!r}")
    ended = None if status == "running" else utc_now()
    db.execute("UPDATE runs SET status = ?, finished_at = ? WHERE id = ?",
               [status, ended, run_id])


def _json_dict(text: str | None) -> dict[str, Any]:
    """A JSON column that should hold an object: {} when empty, unreadable or not one (a
    run stored by an older or broken writer must still list and say what it lacks)."""
    try:
        value = loads(text, {})
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _record(row: dict[str, Any], counts: RunCounts | None = None) -> RunRecord:
    return RunRecord(id=row["id"], name=row["name"], created_at=row["created_at"],
                     finished_at=row["finished_at"], status=row["status"],
                     config=_json_dict(row["config"]), provenance=_json_dict(row["provenance"]),
                     counts=counts)


def get_run(db: Database, run_ref: str) -> RunRecord:
    """One run by id or name (the newest of that name); raise NotFoundError."""
    rows = list(db.query(f"SELECT {_RUN_COLUMNS} FROM runs r WHERE r.id = ? OR r.name = ?"
                         " ORDER BY r.rowid", [run_ref, run_ref]))
    if not rows:
        raise NotFoundError(f"no run '{run_ref}' (see the runs list in the app)")
    return _record(rows[-1])


def find_run(db: Database, run_id: str) -> RunRecord | None:
    """One run by id, or None."""
    rows = list(db.query(f"SELECT {_RUN_COLUMNS} FROM runs r WHERE r.id = ?", [run_id]))
    return _record(rows[0]) if rows else None


def list_runs(db: Database) -> list[RunRecord]:
    """All runs, newest first, with consultation counts by status (superseded rows, the
    interrupted attempts a resume redid, are not counted)."""
    rows = db.query(
        f"SELECT {_RUN_COLUMNS}, count(c.id) AS consultations,"
        " coalesce(sum(c.status = 'finished'), 0) AS finished,"
        " coalesce(sum(c.status = 'failed'), 0) AS failed,"
        " coalesce(sum(c.status = 'cancelled'), 0) AS cancelled,"
        " coalesce(sum(c.status = 'running'), 0) AS running,"
        " coalesce(sum(c.status NOT IN ('finished', 'failed', 'cancelled', 'running')), 0)"
        " AS other FROM runs r LEFT JOIN consultations c ON c.run_id = r.id"
        " AND c.status != 'superseded' GROUP BY r.id ORDER BY r.created_at DESC")
    return [_record(r, RunCounts.model_validate(r)) for r in rows]


def run_status_counts(db: Database, run_id: str) -> dict[str, int]:
    """How many of the run's consultations are in each status (superseded left out)."""
    rows = db.execute("SELECT status, count(*) FROM consultations WHERE run_id = ?"
                      " AND status != 'superseded' GROUP BY status", [run_id]).fetchall()
    return {status: n for status, n in rows}


def first_failure(db: Database, run_id: str) -> str | None:
    """The error of the run's earliest failed consultation that says why, or None."""
    row = db.execute("SELECT error FROM consultations WHERE run_id = ? AND status = 'failed'"
                     " AND error IS NOT NULL ORDER BY started_at LIMIT 1", [run_id]).fetchone()
    return row[0] if row and row[0] else None


def run_progress(db: Database, run_id: str) -> RunProgress:
    """(consultations, turns, ended) of a run — a cheap fingerprint polled for changes."""
    where = "WHERE run_id = ? AND status != 'superseded'"
    n, done = db.execute(f"SELECT count(*), sum(status != 'running') FROM consultations {where}",
                         [run_id]).fetchone()
    turns = db.execute(
        f"SELECT count(*) FROM turns WHERE consultation_id IN (SELECT id FROM consultations"
        f" {where})", [run_id]).fetchone()[0]
    return RunProgress(consultations=n, turns=turns, finished=done or 0)


def live_rows(db: Database, run_id: str | None) -> list[LiveRow]:
    """Consultations of a run (or all running ones) with their progress.

    The consultation row gets its totals when it ends; while it runs, the turn, tokens and
    cost come from its stored turns (each committed as it completes).
    """
    where, args = ("WHERE c.run_id = ? AND c.status != 'superseded'", [run_id]) if run_id \
        else ("WHERE c.status = 'running'", [])
    rows = db.query(
        "SELECT c.id, c.case_id, c.doctor, c.status, c.diagnosis, c.correct, c.origin,"
        " c.config_key,"
        " max(coalesce(c.doctor_turns, 0), coalesce(t.turn, 0)) AS doctor_turns,"
        " coalesce(CASE WHEN c.status = 'running' THEN t.tokens"
        "  ELSE coalesce(c.prompt_tokens, 0) + coalesce(c.completion_tokens, 0) END, 0)"
        " AS tokens,"
        " coalesce(CASE WHEN c.status = 'running' THEN t.cost ELSE c.cost_usd END, 0.0)"
        " AS cost_usd"
        " FROM consultations c LEFT JOIN (SELECT consultation_id, max(doctor_turn) AS turn,"
        "  sum(coalesce(prompt_tokens, 0) + coalesce(completion_tokens, 0)) AS tokens,"
        "  sum(coalesce(cost_usd, 0)) AS cost FROM turns WHERE consultation_id IN"
        f"  (SELECT c.id FROM consultations c {where}) GROUP BY consultation_id) t"
        f" ON t.consultation_id = c.id {where} ORDER BY c.started_at", args + args)
    return [LiveRow.model_validate(r) for r in rows]
