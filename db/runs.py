"""Run repository: a run is one batch configuration (cases × agent configurations).

Must not import: tui, textual, rich, litellm.
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from core.errors import NotFoundError
from core.ids import new_id
from core.transcript import utc_now
from db.jsoncol import dumps, loads


def create_run(db: Database, *, config: dict[str, Any], provenance: dict[str, Any],
               name: str | None = None, run_id: str | None = None) -> str:
    """Record a new run (status 'running') and return its id."""
    rid = run_id or new_id("run-")
    db["runs"].insert({"id": rid, "name": name or rid, "created_at": utc_now(),
                       "status": "running", "config": dumps(config),
                       "provenance": dumps(provenance)})
    return rid


RUN_STATUSES = ("running", "finished", "cancelled", "interrupted", "failed")


def set_run_status(db: Database, run_id: str, status: str) -> None:
    """Mark a run running (again, on resume) / finished / cancelled / interrupted / failed."""
    if status not in RUN_STATUSES:
        raise ValueError(f"unknown run status {status!r}")
    ended = None if status == "running" else utc_now()
    db.execute("UPDATE runs SET status = ?, finished_at = ? WHERE id = ?",
               [status, ended, run_id])


def get_run(db: Database, run_id: str) -> dict[str, Any]:
    """One run with JSON columns parsed; raise NotFoundError."""
    rows = list(db["runs"].rows_where("id = ? OR name = ?", [run_id, run_id]))
    if not rows:
        raise NotFoundError(f"no run '{run_id}' (see the runs list in the app)")
    row = rows[-1]
    row["config"], row["provenance"] = loads(row["config"], {}), loads(row["provenance"], {})
    return row


def list_runs(db: Database) -> list[dict[str, Any]]:
    """All runs, newest first, with consultation counts by status (superseded rows, the
    interrupted attempts a resume redid, are not counted)."""
    return list(db.query(
        "SELECT r.id, r.name, r.created_at, r.status, count(c.id) AS consultations,"
        " sum(c.status = 'finished') AS finished, sum(c.status = 'failed') AS failed,"
        " sum(c.status = 'running') AS running FROM runs r LEFT JOIN consultations c"
        " ON c.run_id = r.id AND c.status != 'superseded' GROUP BY r.id"
        " ORDER BY r.created_at DESC"))

