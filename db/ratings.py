"""Ratings repository: a rater's answers with their full history, saves, skips and undo,
the import of one rating with its own timestamps, progress, and the study-wide listing
that export reads.

A rating unit is (rubric item id, turn index; -1 = the whole transcript) and keeps one row
for good; every change is a `rating_history` row tied to a `rating_saves` row, which is what
undo reverts. Writes go through `db.studies.write` (one short committed transaction each).
Plain data in and out: this module knows nothing of rubrics (that is `annotation`).

Must not import: annotation, tui, textual, rich, litellm.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlite_utils import Database

from core.errors import InputError
from core.ids import new_id
from core.transcript import utc_now
from db.studies import DONE, PENDING, SKIPPED, get_assignment, write

Unit = tuple[str, int]  # (rubric item id, turn index; -1 = the whole transcript)
Entry = tuple[str | None, str | None]  # (value, comment)
MAX_GAP_S = 1800.0  # gaps between saves longer than this are breaks, not rating time


# -- reading answers ----------------------------------------------------------------------

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


# -- saves, skips, undo, import ------------------------------------------------------------

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


# -- the study-wide listing (what `bedside ratings export` writes) ------------------------

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


