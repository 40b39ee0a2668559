"""Read-only queries the screens need (lists, counts, the physician baseline).

Screens call these (and core/db functions); widgets never do. Every function takes the
app's `sqlite_utils.Database` and runs on the thread that opened it.

Must not import: textual, litellm; nothing heavy at module level (start-up path).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # sqlite_utils and pydantic load off the start-up path (see HomeScreen)
    from sqlite_utils import Database

    from core.case import Case


def library(db: Database, bundled: list[Case]) -> list[Case]:
    """Bundled cases, then cases stored in the database (imported), by id."""
    from db.cases import list_cases

    cases = {c.id: c for c in bundled}
    for case in list_cases(db):
        cases.setdefault(case.id, case)
    return sorted(cases.values(), key=lambda c: c.id)


def consultation_rows(db: Database, limit: int = 1000) -> list[dict[str, Any]]:
    """Newest consultations first, with the case title."""
    return list(db.query(
        "SELECT c.id, c.case_id, k.title, c.doctor, c.status, c.end_reason, c.correct,"
        " c.doctor_turns, c.tests_ordered, c.cost_usd, c.started_at, c.run_id"
        " FROM consultations c LEFT JOIN cases k ON k.id = c.case_id"
        " ORDER BY c.started_at DESC LIMIT ?", [limit]))


def run_rows(db: Database) -> list[dict[str, Any]]:
    """All runs, newest first, with counts by status."""
    from db.runs import list_runs

    return list_runs(db)


def study_rows(db: Database) -> list[dict[str, Any]]:
    """All reader studies, newest first, with their number of assignments."""
    return list(db.query(
        "SELECT s.id, s.name, s.created_at, count(a.id) AS assignments,"
        " sum(a.status = 'done') AS done FROM studies s LEFT JOIN assignments a"
        " ON a.study_id = s.id GROUP BY s.id ORDER BY s.created_at DESC"))


def seen_case_ids(db: Database, doctor: str) -> set[str]:
    """Cases this doctor has already played (any status but cancelled)."""
    rows = db.execute("SELECT DISTINCT case_id FROM consultations WHERE doctor = ?"
                      " AND status != 'cancelled'", [doctor]).fetchall()
    return {r[0] for r in rows}


def progress_counts(db: Database, run_id: str | None = None) -> tuple[int, int, int]:
    """(consultations, turns, finished) — cheap fingerprint used to poll for changes."""
    where, args = ("WHERE run_id = ?", [run_id]) if run_id else ("", [])
    n, done = db.execute(f"SELECT count(*), sum(status != 'running') FROM consultations {where}",
                         args).fetchone()
    turns = db.execute(
        f"SELECT count(*) FROM turns WHERE consultation_id IN (SELECT id FROM consultations"
        f" {where})", args).fetchone()[0]
    return n, turns, done or 0


def live_rows(db: Database, run_id: str | None) -> list[dict[str, Any]]:
    """Consultations of a run (or all running ones) with their progress."""
    where, args = ("WHERE run_id = ?", [run_id]) if run_id else ("WHERE status = 'running'", [])
    return list(db.query(
        "SELECT id, case_id, doctor, status, doctor_turns, prompt_tokens + completion_tokens"
        f" AS tokens, cost_usd FROM consultations {where} ORDER BY started_at", args))


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials (95 % by default); (0, 0) if n = 0.

    centre = (p + z²/2n) / (1 + z²/n); half = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n).
    """
    if n == 0:
        return 0.0, 0.0
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class BaselineRow:
    """One doctor's summary over finished consultations."""

    doctor: str
    n: int
    correct: int
    accuracy: float
    ci_low: float
    ci_high: float
    mean_turns: float
    mean_tests: float
    mean_minutes: float


def baseline(db: Database, humans_only: bool = True) -> list[BaselineRow]:
    """Accuracy (Wilson 95 % CI), mean turns, tests and minutes per doctor.

    Physicians (`human:NAME`) by default; with `humans_only=False` models too, so both can
    be compared in one table.
    """
    where = "AND doctor LIKE 'human:%'" if humans_only else ""
    rows = db.execute(
        "SELECT doctor, count(*), coalesce(sum(correct = 1), 0), avg(doctor_turns),"
        " avg(tests_ordered), avg((julianday(ended_at) - julianday(started_at)) * 1440)"
        f" FROM consultations WHERE status = 'finished' {where} AND doctor IS NOT NULL"
        " GROUP BY doctor ORDER BY doctor").fetchall()
    out = []
    for doctor, n, k, turns, tests, minutes in rows:
        lo, hi = wilson(k, n)
        out.append(BaselineRow(doctor, n, k, k / n if n else 0.0, lo, hi, turns or 0.0,
                               tests or 0.0, minutes or 0.0))
    return out
