"""Read-only queries the screens need (lists, counts, the physician baseline).

Screens call these (and core/db functions); widgets never do. Every function takes the
app's `sqlite_utils.Database` and runs on the thread that opened it.

Must not import: textual, litellm; nothing heavy at module level (start-up path).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.metrics.stats import wilson_interval

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
    """All runs, newest first, with counts by status (cancelled and other ends apart)."""
    return list(db.query(
        "SELECT r.id, r.name, r.created_at, r.status, count(c.id) AS consultations,"
        " coalesce(sum(c.status = 'finished'), 0) AS finished,"
        " coalesce(sum(c.status = 'failed'), 0) AS failed,"
        " coalesce(sum(c.status = 'cancelled'), 0) AS cancelled,"
        " coalesce(sum(c.status = 'running'), 0) AS running,"
        " coalesce(sum(c.status NOT IN ('finished', 'failed', 'cancelled', 'running')), 0)"
        " AS other FROM runs r LEFT JOIN consultations c ON c.run_id = r.id"
        " AND c.status != 'superseded'"  # rows redone on resume: kept, but not counted
        " GROUP BY r.id ORDER BY r.created_at DESC"))


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


def play_order(case_ids: list[str], physician: str) -> list[str]:
    """The order in which `physician` meets the cases: a shuffle seeded by the name.

    Id order would give everyone the same first case (and tell a physician which case comes
    next); a per-physician seed keeps one physician's order stable across sessions while
    different physicians meet the cases in different orders. `random.Random` seeded with a
    string is reproducible across runs (it does not depend on PYTHONHASHSEED).
    """
    order = sorted(case_ids)
    random.Random(f"bedside-play:{physician}").shuffle(order)
    return order


def pick_unseen(cases: list[Case], seen: set[str], filters: dict[str, str],
                physician: str) -> Case | None:
    """The next case `physician` has not played that matches every filter, or None.

    The order is drawn over the whole library, then filtered, so it does not change when
    the physician changes the filters or plays a case.
    """
    by_id = {c.id: c for c in cases}
    for case_id in play_order(list(by_id), physician):
        case = by_id[case_id]
        if case_id not in seen and all(getattr(case, k) == v for k, v in filters.items()):
            return case
    return None


def run_outcome(db: Database, run_id: str) -> tuple[str, str]:
    """A one-line summary of a finished run for a notification, and its severity.

    Says how many consultations failed (a batch whose every consultation failed is not
    "done"), with the first failure's reason so a wrong model name or server shows at once.
    """
    counts = dict(db.execute("SELECT status, count(*) FROM consultations WHERE run_id = ?"
                             " AND status != 'superseded' GROUP BY status",
                             [run_id]).fetchall())
    total = sum(counts.values())
    failed = counts.get("failed", 0)
    order = ["finished", "failed", "cancelled"]
    order += sorted(set(counts) - set(order))
    parts = [f"{counts[s]} {s}" for s in order if counts.get(s)]
    message = f"Batch {run_id}: {', '.join(parts) or 'no consultations'}."
    if not failed:
        return message, "information"
    reason = db.execute("SELECT error FROM consultations WHERE run_id = ? AND status = 'failed'"
                        " AND error IS NOT NULL ORDER BY started_at LIMIT 1",
                        [run_id]).fetchone()
    if reason and reason[0]:
        message += f" First failure: {reason[0][:160]}"
    return message, "error" if failed == total else "warning"


def planned_size(db: Database, run_id: str) -> int | None:
    """How many consultations a run plans (cases × configurations), from its stored config.

    Understands the `bedside run` format (cases, configurations) and the older in-app one
    (cases, models); None when the config says neither.
    """
    row = db.execute("SELECT config FROM runs WHERE id = ?", [run_id]).fetchone()
    try:
        config = json.loads(row[0]) if row and row[0] else {}
    except ValueError:
        return None
    if not isinstance(config, dict) or not isinstance(config.get("cases"), list):
        return None
    per_case = config.get("configurations") or config.get("models")
    if not isinstance(per_case, list):
        return None
    return len(config["cases"]) * len(per_case)


def run_status(db: Database, run_id: str) -> str | None:
    """The run's own status (running, finished, cancelled, interrupted), or None."""
    row = db.execute("SELECT status FROM runs WHERE id = ?", [run_id]).fetchone()
    return row[0] if row else None


def progress_counts(db: Database, run_id: str | None = None) -> tuple[int, int, int]:
    """(consultations, turns, finished) — cheap fingerprint used to poll for changes."""
    where, args = ("WHERE run_id = ? AND status != 'superseded'", [run_id]) if run_id else \
        ("WHERE status != 'superseded'", [])
    n, done = db.execute(f"SELECT count(*), sum(status != 'running') FROM consultations {where}",
                         args).fetchone()
    turns = db.execute(
        f"SELECT count(*) FROM turns WHERE consultation_id IN (SELECT id FROM consultations"
        f" {where})", args).fetchone()[0]
    return n, turns, done or 0


def live_rows(db: Database, run_id: str | None) -> list[dict[str, Any]]:
    """Consultations of a run (or all running ones) with their progress.

    The consultation row gets its totals when it ends; while it runs, the turn, tokens and
    cost come from its stored turns (each committed as it completes).
    """
    where, args = ("WHERE c.run_id = ? AND c.status != 'superseded'", [run_id]) if run_id \
        else ("WHERE c.status = 'running'", [])
    return list(db.query(
        "SELECT c.id, c.case_id, c.doctor, c.status,"
        " max(coalesce(c.doctor_turns, 0), coalesce(t.turn, 0)) AS doctor_turns,"
        " CASE WHEN c.status = 'running' THEN t.tokens"
        "  ELSE coalesce(c.prompt_tokens, 0) + coalesce(c.completion_tokens, 0) END AS tokens,"
        " CASE WHEN c.status = 'running' THEN t.cost ELSE c.cost_usd END AS cost_usd"
        " FROM consultations c LEFT JOIN (SELECT consultation_id, max(doctor_turn) AS turn,"
        "  sum(coalesce(prompt_tokens, 0) + coalesce(completion_tokens, 0)) AS tokens,"
        "  sum(coalesce(cost_usd, 0)) AS cost FROM turns WHERE consultation_id IN"
        f"  (SELECT c.id FROM consultations c {where}) GROUP BY consultation_id) t"
        f" ON t.consultation_id = c.id {where} ORDER BY c.started_at", args + args))


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials (95 % by default); (0, 0) if n = 0
    (the baseline table shows a row even before a physician has a finished session)."""
    return wilson_interval(k, n, z) or (0.0, 0.0)


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
    be compared in one table. Counted as the results table counts: interactive
    consultations only (one-step upper bounds are another measure), and none whose case
    is a placeholder (an imported transcript without its record has no truth to be wrong
    against).
    """
    where = "AND doctor LIKE 'human:%'" if humans_only else ""
    rows = db.execute(
        "SELECT doctor, count(*), coalesce(sum(correct = 1), 0), avg(doctor_turns),"
        " avg(tests_ordered), avg((julianday(ended_at) - julianday(started_at)) * 1440)"
        f" FROM consultations WHERE status = 'finished' {where} AND doctor IS NOT NULL"
        " AND coalesce(origin, '') != 'one_step' AND case_id NOT IN"
        "  (SELECT id FROM cases WHERE json_extract(data, '$.placeholder'))"
        " GROUP BY doctor ORDER BY doctor").fetchall()
    out = []
    for doctor, n, k, turns, tests, minutes in rows:
        lo, hi = wilson(k, n)
        out.append(BaselineRow(doctor, n, k, k / n if n else 0.0, lo, hi, turns or 0.0,
                               tests or 0.0, minutes or 0.0))
    return out
