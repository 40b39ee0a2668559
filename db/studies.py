"""Study repository: studies, raters, assignments and the judge's call log.

The answers themselves (ratings with their history, saves, skips, undo, import, progress)
are in `db.ratings`, which builds on this module's `write` and assignment functions.

Every write is one short `BEGIN IMMEDIATE` transaction committed at once, so several raters
can work on one database file from several processes (WAL + busy timeout from `open_db`)
and a killed process loses nothing that was saved. Plain data in and out: this module knows
nothing of rubrics (that is `annotation`).

Must not import: db.ratings (it imports this module), annotation, tui, textual, rich,
litellm.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlite_utils import Database

from core.errors import InputError, NotFoundError
from core.ids import new_id
from core.transcript import utc_now
from db.jsoncol import dumps, loads

#: Assignment statuses: not yet rated, rated (saved), skipped with a reason.
PENDING, DONE, SKIPPED = "pending", "done", "skipped"


@contextmanager
def write(db: Database) -> Iterator[Database]:
    """One short write transaction; takes the write lock up front (waits on busy timeout)."""
    if db.conn.in_transaction:
        with db.atomic():
            yield db
        return
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.execute("ROLLBACK")
        raise
    db.conn.execute("COMMIT")


# -- studies and raters ------------------------------------------------------------------

def create_study(db: Database, name: str, definition: dict[str, Any],
                 plan: dict[str, list[tuple[str, bool]]]) -> str:
    """Create a study with its human raters and their assignments (rater → [(id, calib)])."""
    if list(db["studies"].rows_where("name = ?", [name])):
        raise InputError(f"a study named '{name}' already exists", field="name")
    study_id = new_id("st-")
    with write(db):
        db["studies"].insert({"id": study_id, "name": name, "definition": dumps(definition),
                              "created_at": utc_now()})
        for rater, items in plan.items():
            add_assignments(db, study_id, ensure_rater(db, rater), items)
    return study_id


def get_study(db: Database, name_or_id: str) -> dict[str, Any]:
    """One study by name or id, definition parsed; NotFoundError otherwise."""
    rows = list(db["studies"].rows_where("id = ? OR name = ?", [name_or_id, name_or_id]))
    if not rows:
        raise NotFoundError(f"no study '{name_or_id}' (see `bedside study list`)")
    row = rows[0]
    row["definition"] = loads(row["definition"], {})
    return row


def list_studies(db: Database) -> list[dict[str, Any]]:
    """All studies, oldest first, with assignment counts."""
    return list(db.query(
        "SELECT s.id, s.name, s.created_at, count(a.id) AS assignments,"
        " coalesce(sum(a.status != 'pending'), 0) AS finished,"
        " count(DISTINCT a.rater_id) AS raters FROM studies s LEFT JOIN assignments a"
        " ON a.study_id = s.id GROUP BY s.id ORDER BY s.created_at"))


def ensure_rater(db: Database, name: str, kind: str = "human", *, model: str | None = None,
                 params: dict[str, Any] | None = None, prompt_hash: str | None = None) -> str:
    """The id of the rater called `name`, created if new.

    A rater's kind, and a judge's model, parameters and prompt hash, are part of its
    identity and are never rewritten (ratings made with one setting must never be relabelled
    with another): asking for an existing name with another kind or other judge settings is
    an InputError.
    """
    rows = list(db["raters"].rows_where("name = ?", [name]))
    if rows:
        row = rows[0]
        if row["kind"] != kind:
            raise InputError(f"rater '{name}' is a {row['kind']} rater, not a {kind}",
                             field="rater_kind")
        stored = (row["model"], loads(row["params"]), row["prompt_hash"])
        if kind == "judge" and model is not None and stored != (model, params, prompt_hash):
            raise InputError(f"judge '{name}' exists with other settings (model, parameters "
                             "or prompt hash)", field="rater")
        return row["id"]
    rater_id = new_id("ra-")
    db["raters"].insert({"id": rater_id, "name": name, "kind": kind, "model": model,
                         "params": dumps(params), "prompt_hash": prompt_hash,
                         "created_at": utc_now()})
    return rater_id


def get_rater(db: Database, name: str) -> dict[str, Any]:
    """One rater by name; NotFoundError otherwise."""
    rows = list(db["raters"].rows_where("name = ?", [name]))
    if not rows:
        raise NotFoundError(f"no rater '{name}'")
    return rows[0]


def study_raters(db: Database, study_id: str) -> list[dict[str, Any]]:
    """Raters with assignments in a study, by name."""
    return list(db.query(
        "SELECT DISTINCT r.* FROM raters r JOIN assignments a ON a.rater_id = r.id"
        " WHERE a.study_id = ? ORDER BY r.name", [study_id]))


def study_consultations(db: Database, study_id: str) -> list[str]:
    """Distinct consultation ids of a study, calibration first, then in id order."""
    rows = db.execute(
        "SELECT consultation_id, max(calibration) AS cal FROM assignments WHERE study_id = ?"
        " GROUP BY consultation_id ORDER BY cal DESC, consultation_id", [study_id]).fetchall()
    return [r[0] for r in rows]


# -- assignments ------------------------------------------------------------------------

def add_assignments(db: Database, study_id: str, rater_id: str,
                    items: list[tuple[str, bool]]) -> int:
    """Append assignments for a rater (already assigned ones are kept); return how many."""
    have = {r[0] for r in db.execute("SELECT consultation_id FROM assignments WHERE"
                                     " study_id = ? AND rater_id = ?", [study_id, rater_id])}
    top = db.execute("SELECT coalesce(max(position), -1) FROM assignments WHERE study_id = ?"
                     " AND rater_id = ?", [study_id, rater_id]).fetchone()[0]
    rows = []
    for cid, calibration in items:
        if cid in have:
            continue
        top += 1
        have.add(cid)
        rows.append({"id": new_id("as-"), "study_id": study_id, "rater_id": rater_id,
                     "consultation_id": cid, "position": top, "calibration": int(calibration),
                     "status": PENDING, "skip_reason": None, "updated_at": utc_now()})
    with write(db):
        db["assignments"].insert_all(rows)
    return len(rows)


def assignments(db: Database, study_id: str, rater_id: str) -> list[dict[str, Any]]:
    """A rater's assignments in their order."""
    return list(db["assignments"].rows_where("study_id = ? AND rater_id = ?",
                                             [study_id, rater_id], order_by="position"))


def get_assignment(db: Database, assignment_id: str) -> dict[str, Any]:
    """One assignment row."""
    rows = list(db["assignments"].rows_where("id = ?", [assignment_id]))
    if not rows:
        raise NotFoundError(f"no assignment '{assignment_id}'")
    return rows[0]


def next_assignment(db: Database, study_id: str, rater_id: str) -> dict[str, Any] | None:
    """The rater's first pending assignment (where they left off), or None when finished."""
    rows = list(db["assignments"].rows_where(
        "study_id = ? AND rater_id = ? AND status = ?", [study_id, rater_id, PENDING],
        order_by="position", limit=1))
    return rows[0] if rows else None


def set_status(db: Database, assignment_id: str, status: str,
               skip_reason: str | None = None, at: str | None = None) -> None:
    """Set an assignment's status (import marks assignments done or skipped)."""
    db["assignments"].update(assignment_id, {"status": status, "skip_reason": skip_reason,
                                             "updated_at": at or utc_now()})


def find_assignment(db: Database, study_id: str, rater_id: str,
                    consultation_id: str) -> dict[str, Any] | None:
    """The rater's assignment of one transcript in a study, if any."""
    rows = list(db["assignments"].rows_where(
        "study_id = ? AND rater_id = ? AND consultation_id = ?",
        [study_id, rater_id, consultation_id]))
    return rows[0] if rows else None


# -- the judge's calls --------------------------------------------------------------------

def record_judge_call(db: Database, *, study_id: str, rater_id: str, consultation_id: str,
                      status: str, attempts: int, raw_response: str | None,
                      error: str | None, prompt_hash: str, params: dict[str, Any]) -> str:
    """Log one judge call (ok or failed) with its raw answer, parameters and prompt hash."""
    call_id = new_id("jc-")
    with write(db):
        db["judge_calls"].insert({"id": call_id, "study_id": study_id, "rater_id": rater_id,
                                  "consultation_id": consultation_id, "status": status,
                                  "attempts": attempts, "raw_response": raw_response,
                                  "error": error, "prompt_hash": prompt_hash,
                                  "params": dumps(params), "created_at": utc_now()})
    return call_id
