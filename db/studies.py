"""Study repository: studies, raters, assignments, ratings with history, saves and undo.

Every write is one short `BEGIN IMMEDIATE` transaction committed at once, so several raters
can work on one database file from several processes (WAL + busy timeout from `open_db`)
and a killed process loses nothing that was saved. Plain data in and out: this module knows
nothing of rubrics (that is `annotation`).

Must not import: annotation, tui, textual, rich, litellm.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlite_utils import Database

from core.errors import InputError, NotFoundError
from core.ids import new_id
from core.transcript import utc_now
from db.jsoncol import dumps, loads

Unit = tuple[str, int]  # (rubric item id, turn index; -1 = the whole transcript)
Entry = tuple[str | None, str | None]  # (value, comment)
PENDING, DONE, SKIPPED = "pending", "done", "skipped"
MAX_GAP_S = 1800.0  # gaps between saves longer than this are breaks, not rating time


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


def assignment_ratings(db: Database, assignment_id: str) -> dict[Unit, Entry]:
    """This assignment's current ratings: (item, turn) → (value, comment)."""
    return {(r["item"], r["turn_idx"]): (r["value"], r["comment"]) for r in
            db["ratings"].rows_where("assignment_id = ? AND (value IS NOT NULL OR comment IS"
                                     " NOT NULL)", [assignment_id])}


def form_answers(db: Database, assignment_id: str) -> dict[Unit, Entry]:
    """What the rating form shows for an assignment: its current ratings, except that a unit
    whose last change was an undo shows the undone answer again, so an undone save can be
    corrected and saved again (also after further undos or after quitting)."""
    out = assignment_ratings(db, assignment_id)
    for r in db.query(
            "SELECT r.item, r.turn_idx, h.prev_value, h.prev_comment FROM ratings r"
            " JOIN rating_history h ON h.id = (SELECT max(id) FROM rating_history"
            " WHERE rating_id = r.id) WHERE r.assignment_id = ? AND h.action = 'undo'",
            [assignment_id]):
        unit, entry = (r["item"], r["turn_idx"]), (r["prev_value"], r["prev_comment"])
        if entry == (None, None):
            out.pop(unit, None)  # the undone save had cleared this unit
        else:
            out[unit] = entry
    return out


# -- saves, skips, undo -----------------------------------------------------------------

def _new_save(db: Database, a: dict[str, Any], kind: str, at: str) -> str:
    save_id = new_id("sv-")
    db["rating_saves"].insert({"id": save_id, "study_id": a["study_id"],
                               "rater_id": a["rater_id"], "assignment_id": a["id"],
                               "kind": kind, "prev_status": a["status"],
                               "prev_skip_reason": a["skip_reason"], "at": at})
    return save_id


def _history(db: Database, rating_id: str, action: str, new: Entry, old: Entry,
             save_id: str, at: str) -> None:
    db["rating_history"].insert({"rating_id": rating_id, "action": action, "value": new[0],
                                 "comment": new[1], "prev_value": old[0],
                                 "prev_comment": old[1], "save_id": save_id, "at": at})


def _apply_entry(db: Database, a: dict[str, Any], unit: Unit, new: Entry,
                 current: dict[str, Any] | None, save_id: str, at: str,
                 created_at: str | None = None) -> None:
    """Write one unit's value; record what it replaced.

    A unit keeps its one rating row for good: clearing or undoing sets value and comment to
    NULL, and answering again reuses the row, so its history reads set → undo → set.
    """
    if current is None:
        if new == (None, None):
            return
        rid = new_id("rt-")
        db["ratings"].insert({"id": rid, "assignment_id": a["id"], "study_id": a["study_id"],
                              "rater_id": a["rater_id"], "consultation_id": a["consultation_id"],
                              "item": unit[0], "turn_idx": unit[1], "value": new[0],
                              "comment": new[1], "created_at": created_at or at,
                              "updated_at": at})
        _history(db, rid, "set", new, (None, None), save_id, at)
        return
    old = (current["value"], current["comment"])
    if old == new:
        return
    db["ratings"].update(current["id"], {"value": new[0], "comment": new[1], "updated_at": at})
    action = "set" if old == (None, None) else "clear" if new == (None, None) else "edit"
    _history(db, current["id"], action, new, old, save_id, at)


def save_ratings(db: Database, assignment_id: str, values: dict[Unit, Entry], *,
                 done: bool = True, at: str | None = None) -> str:
    """Save a rater's answers for one transcript in one committed transaction.

    Units given as (None, None) are cleared. Editing keeps the earlier value in
    `rating_history` (with timestamps). With `done`, the assignment is marked done.
    Returns the save id (what `undo_last` reverts).
    """
    at = at or utc_now()
    with write(db):
        a = get_assignment(db, assignment_id)
        current = {(r["item"], r["turn_idx"]): r for r in
                   db["ratings"].rows_where("assignment_id = ?", [assignment_id])}
        save_id = _new_save(db, a, "save", at)
        for unit, entry in values.items():
            _apply_entry(db, a, unit, entry, current.get(unit), save_id, at)
        if done:
            db["assignments"].update(assignment_id, {"status": DONE, "skip_reason": None,
                                                     "updated_at": at})
    return save_id


def skip(db: Database, assignment_id: str, reason: str) -> str:
    """Skip a transcript with a reason (required); undoable like a save."""
    if not reason.strip():
        raise InputError("a reason is required to skip", field="reason")
    at = utc_now()
    with write(db):
        a = get_assignment(db, assignment_id)
        save_id = _new_save(db, a, "skip", at)
        db["assignments"].update(assignment_id, {"status": SKIPPED,
                                                 "skip_reason": reason.strip(),
                                                 "updated_at": at})
    return save_id


@dataclass
class Undone:
    """What `undo_last` reverted: the assignment to return to and the values it had saved."""

    assignment_id: str
    kind: str
    values: dict[Unit, Entry] = field(default_factory=dict)


def _revert(db: Database, h: dict[str, Any], save_id: str, at: str) -> tuple[Unit, Entry] | None:
    """Put back what one history row replaced (NULLs for a first answer); keep the row."""
    rows = list(db["ratings"].rows_where("id = ?", [h["rating_id"]]))
    if not rows:
        return None
    new, old = (h["value"], h["comment"]), (h["prev_value"], h["prev_comment"])
    db["ratings"].update(h["rating_id"], {"value": old[0], "comment": old[1], "updated_at": at})
    _history(db, h["rating_id"], "undo", old, new, save_id, at)
    return (rows[0]["item"], rows[0]["turn_idx"]), new


def undo_last(db: Database, study_id: str, rater_id: str) -> Undone | None:
    """Revert the rater's most recent save or skip not yet undone; None if there is none."""
    at = utc_now()
    with write(db):
        saves = list(db["rating_saves"].rows_where(
            "study_id = ? AND rater_id = ? AND undone_at IS NULL AND kind IN ('save', 'skip')",
            [study_id, rater_id],
            order_by="at DESC, id DESC", limit=1))
        if not saves:
            return None
        s = saves[0]
        out = Undone(s["assignment_id"], s["kind"])
        for h in db["rating_history"].rows_where("save_id = ? AND action != 'undo'", [s["id"]],
                                                 order_by="id DESC"):
            reverted = _revert(db, h, s["id"], at)
            if reverted is not None:
                out.values[reverted[0]] = reverted[1]
        db["assignments"].update(s["assignment_id"], {"status": s["prev_status"] or PENDING,
                                                      "skip_reason": s["prev_skip_reason"],
                                                      "updated_at": at})
        db["rating_saves"].update(s["id"], {"undone_at": at})
    return out


def rating_history(db: Database, assignment_id: str) -> list[dict[str, Any]]:
    """Every recorded change of an assignment's ratings, oldest first."""
    return list(db.query(
        "SELECT h.* FROM rating_history h JOIN rating_saves s ON s.id = h.save_id"
        " WHERE s.assignment_id = ? ORDER BY h.id", [assignment_id]))


def _when(ts: str | None) -> float:
    """Seconds since the epoch of an ISO timestamp; -inf when missing or unreadable."""
    try:
        return datetime.fromisoformat(str(ts).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return float("-inf")


def import_rating(db: Database, assignment_id: str, unit: Unit, entry: Entry,
                  created_at: str, updated_at: str, *, replace: bool = False) -> str:
    """Write one imported rating, keeping its timestamps (call inside `write`).

    Returns 'new', 'updated', 'same' (nothing to do) or 'kept': the stored answer was
    changed at the same time or later than the file's, and `replace` is off.
    """
    a = get_assignment(db, assignment_id)
    rows = list(db["ratings"].rows_where("assignment_id = ? AND item = ? AND turn_idx = ?",
                                         [assignment_id, unit[0], unit[1]]))
    current = rows[0] if rows else None
    old = (current["value"], current["comment"]) if current else (None, None)
    if old == entry:
        return "same"
    if old != (None, None) and not replace and _when(current["updated_at"]) >= _when(updated_at):
        return "kept"
    save_id = _new_save(db, a, "import", updated_at)
    _apply_entry(db, a, unit, entry, current, save_id, updated_at, created_at)
    return "new" if old == (None, None) else "updated"


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


# -- progress ---------------------------------------------------------------------------

@dataclass
class Progress:
    """How far a rater is: finished (done or skipped) of total, and an estimate of time left."""

    finished: int
    total: int
    seconds_left: float | None

    @property
    def remaining(self) -> int:
        """Assignments still pending."""
        return self.total - self.finished


def progress(db: Database, study_id: str, rater_id: str) -> Progress:
    """Finished/total and time left: median gap between this rater's saves × items left.

    Only the rater's own saves and skips count (imported rows carry other clocks).
    """
    total, finished = db.execute(
        "SELECT count(*), coalesce(sum(status != ?), 0) FROM assignments WHERE study_id = ?"
        " AND rater_id = ?", [PENDING, study_id, rater_id]).fetchone()
    times = sorted(t for (at,) in db.execute(
        "SELECT at FROM rating_saves WHERE study_id = ? AND rater_id = ? AND undone_at IS NULL"
        " AND kind IN ('save', 'skip')", [study_id, rater_id]) if (t := _when(at)) > 0)
    gaps = [b - a for a, b in zip(times, times[1:], strict=False) if 0 < b - a <= MAX_GAP_S]
    left = statistics.median(gaps) * (total - finished) if gaps else None
    return Progress(finished, total, left)


_RATER = ("r.name AS rater, r.kind AS rater_kind, r.model AS judge_model,"
          " r.params AS judge_params, r.prompt_hash AS judge_prompt_hash")


def study_ratings(db: Database, study_id: str) -> list[dict[str, Any]]:
    """Every answered unit of a study with its rater (name, kind, judge settings) and its
    assignment's status and skip reason; by rater, transcript, item, unit."""
    return list(db.query(
        f"SELECT g.*, {_RATER}, a.status, a.skip_reason FROM ratings g JOIN raters r ON"
        " r.id = g.rater_id JOIN assignments a ON a.id = g.assignment_id WHERE g.study_id = ?"
        " AND (g.value IS NOT NULL OR g.comment IS NOT NULL)"
        " ORDER BY r.name, g.consultation_id, g.item, g.turn_idx", [study_id]))


def unrated_skips(db: Database, study_id: str) -> list[dict[str, Any]]:
    """Skipped assignments without any answered unit, with their rater."""
    return list(db.query(
        f"SELECT a.*, {_RATER} FROM assignments a JOIN raters r ON r.id = a.rater_id"
        " WHERE a.study_id = ? AND a.status = ? AND NOT EXISTS (SELECT 1 FROM ratings g"
        " WHERE g.assignment_id = a.id AND (g.value IS NOT NULL OR g.comment IS NOT NULL))"
        " ORDER BY r.name, a.consultation_id", [study_id, SKIPPED]))


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
