"""Ratings repository (the `RatingStore` port of `core.ports.studies`): a rater's answers with
their full history, saves, skips and undo, the import of one rating with its own timestamps,
progress, and the study-wide listing that export reads.

A rating unit is (rubric item id, turn index; -1 = the whole transcript) and keeps one row
for good; every change is a `rating_history` row tied to a `rating_saves` row, which is what
undo reverts. Each save, skip and undo is one short transaction committed before the method
returns (`db.connection.write`, durable: synced to disk at its commit, so not even a power
cut loses a rating the screen showed as saved). Rows come back
as `core.records.studies` models; this module knows nothing of rubrics (that is `annotation`).
"""

from __future__ import annotations

import statistics
from datetime import datetime
from typing import Any

from sqlite_utils import Database

from core.errors import InputError
from core.ids import new_id
from core.records.studies import (DONE, PENDING, SKIPPED, Answers, AssignmentRecord, Entry,
                                  ImportOutcome, RaterProgress, RatingChange, StudyRating,
                                  Undone, Unit)
from core.transcript import utc_now
from db.jsoncol import loads
from db.connection import write
from db.studies import load_assignment

MAX_GAP_S = 1800.0  # gaps between saves longer than this are breaks, not rating time


def _when(ts: str | None) -> float:
    """Seconds since the epoch of an ISO timestamp; -inf when missing or unreadable."""
    try:
        return datetime.fromisoformat(str(ts).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return float("-inf")


# -- writing one unit ------------------------------------------------------------------------

def _new_save(db: Database, a: AssignmentRecord, kind: str, at: str) -> str:
    save_id = new_id("sv-")
    db.table("rating_saves").insert({"id": save_id, "study_id": a.study_id,
                                     "rater_id": a.rater_id, "assignment_id": a.id,
                                     "kind": kind, "prev_status": a.status,
                                     "prev_skip_reason": a.skip_reason, "at": at})
    return save_id


def _history(db: Database, rating_id: str, action: str, new: Entry, old: Entry,
             save_id: str, at: str) -> None:
    db.table("rating_history").insert({"rating_id": rating_id, "action": action,
                                       "value": new[0], "comment": new[1],
                                       "prev_value": old[0], "prev_comment": old[1],
                                       "save_id": save_id, "at": at})


def _apply_entry(db: Database, a: AssignmentRecord, unit: Unit, new: Entry,
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
        db.table("ratings").insert({"id": rid, "assignment_id": a.id, "study_id": a.study_id,
                                    "rater_id": a.rater_id,
                                    "consultation_id": a.consultation_id, "item": unit[0],
                                    "turn_idx": unit[1], "value": new[0], "comment": new[1],
                                    "created_at": created_at or at, "updated_at": at})
        _history(db, rid, "set", new, (None, None), save_id, at)
        return
    old = (current["value"], current["comment"])
    if old == new:
        return
    db.table("ratings").update(current["id"], {"value": new[0], "comment": new[1],
                                               "updated_at": at})
    action = "set" if old == (None, None) else "clear" if new == (None, None) else "edit"
    _history(db, current["id"], action, new, old, save_id, at)


def _revert(db: Database, h: dict[str, Any], save_id: str, at: str) -> tuple[Unit, Entry] | None:
    """Put back what one history row replaced (NULLs for a first answer); keep the row."""
    rows = list(db.table("ratings").rows_where("id = ?", [h["rating_id"]]))
    if not rows:
        return None
    new, old = (h["value"], h["comment"]), (h["prev_value"], h["prev_comment"])
    db.table("ratings").update(h["rating_id"], {"value": old[0], "comment": old[1],
                                                "updated_at": at})
    _history(db, h["rating_id"], "undo", old, new, save_id, at)
    return (rows[0]["item"], rows[0]["turn_idx"]), new


_RATER = ("r.id AS r_id, r.name AS r_name, r.kind AS r_kind, r.model AS r_model,"
          " r.params AS r_params, r.prompt_hash AS r_prompt_hash, r.created_at AS r_created_at")


def _listed(row: dict[str, Any]) -> StudyRating:
    """A row of the study-wide listing (rater columns prefixed `r_`) as a record."""
    rater = {k.removeprefix("r_"): row.pop(k) for k in list(row) if k.startswith("r_")}
    rater["params"] = loads(rater["params"])
    return StudyRating.model_validate({**row, "rater": rater})


class RatingRepository:
    """Ratings, their history and saves in one SQLite database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- reading answers -------------------------------------------------------------------
    def assignment_ratings(self, assignment_id: str) -> Answers:
        """This assignment's current ratings: (item, turn) → (value, comment)."""
        return {(r["item"], r["turn_idx"]): (r["value"], r["comment"]) for r in
                self.db.table("ratings").rows_where(
                    "assignment_id = ? AND (value IS NOT NULL OR comment IS NOT NULL)",
                    [assignment_id])}

    def form_answers(self, assignment_id: str) -> Answers:
        """What the rating form shows for an assignment: its current ratings, except that a
        unit whose last change was an undo shows the undone answer again, so an undone save
        can be corrected and saved again (also after further undos or after quitting)."""
        out = self.assignment_ratings(assignment_id)
        for r in self.db.query(
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

    def rating_history(self, assignment_id: str) -> list[RatingChange]:
        """Every recorded change of an assignment's ratings, oldest first."""
        return [RatingChange.model_validate(r) for r in self.db.query(
            "SELECT h.* FROM rating_history h JOIN rating_saves s ON s.id = h.save_id"
            " WHERE s.assignment_id = ? ORDER BY h.id", [assignment_id])]

    # -- saves, skips, undo, import --------------------------------------------------------
    def save_ratings(self, assignment_id: str, values: Answers, *, done: bool = True,
                     at: str | None = None) -> str:
        """Save a rater's answers for one transcript in one committed transaction.

        Units given as (None, None) are cleared. Editing keeps the earlier value in
        `rating_history` (with timestamps). With `done`, the assignment is marked done.
        Returns the save id (what `undo_last` reverts).
        """
        at = at or utc_now()
        with write(self.db, durable=True):
            a = load_assignment(self.db, assignment_id)
            current = {(r["item"], r["turn_idx"]): r for r in
                       self.db.table("ratings").rows_where("assignment_id = ?", [assignment_id])}
            save_id = _new_save(self.db, a, "save", at)
            for unit, entry in values.items():
                _apply_entry(self.db, a, unit, entry, current.get(unit), save_id, at)
            if done:
                self.db.table("assignments").update(
                    assignment_id, {"status": DONE, "skip_reason": None, "updated_at": at})
        return save_id

    def skip(self, assignment_id: str, reason: str) -> str:
        """Skip a transcript with a reason (required); undoable like a save."""
        if not reason.strip():
            raise InputError("a reason is required to skip", field="reason")
        at = utc_now()
        with write(self.db, durable=True):
            a = load_assignment(self.db, assignment_id)
            save_id = _new_save(self.db, a, "skip", at)
            self.db.table("assignments").update(
                assignment_id, {"status": SKIPPED, "skip_reason": reason.strip(),
                                "updated_at": at})
        return save_id

    def undo_last(self, study_id: str, rater_id: str) -> Undone | None:
        """Revert the rater's most recent save or skip not yet undone; None if there is none."""
        at = utc_now()
        with write(self.db, durable=True):
            saves = list(self.db.table("rating_saves").rows_where(
                "study_id = ? AND rater_id = ? AND undone_at IS NULL"
                " AND kind IN ('save', 'skip')", [study_id, rater_id],
                order_by="at DESC, id DESC", limit=1))
            if not saves:
                return None
            s = saves[0]
            out = Undone(assignment_id=s["assignment_id"], kind=s["kind"])
            for h in self.db.table("rating_history").rows_where(
                    "save_id = ? AND action != 'undo'", [s["id"]], order_by="id DESC"):
                reverted = _revert(self.db, h, s["id"], at)
                if reverted is not None:
                    out.values[reverted[0]] = reverted[1]
            self.db.table("assignments").update(
                s["assignment_id"], {"status": s["prev_status"] or PENDING,
                                     "skip_reason": s["prev_skip_reason"], "updated_at": at})
            self.db.table("rating_saves").update(s["id"], {"undone_at": at})
        return out

    def import_rating(self, assignment_id: str, unit: Unit, entry: Entry, created_at: str,
                      updated_at: str, *, replace: bool = False) -> ImportOutcome:
        """Write one imported rating, keeping its timestamps (call inside `transaction`).

        Returns 'new', 'updated', 'same' (nothing to do) or 'kept': the stored answer was
        changed at the same time or later than the file's, and `replace` is off.
        """
        a = load_assignment(self.db, assignment_id)
        rows = list(self.db.table("ratings").rows_where(
            "assignment_id = ? AND item = ? AND turn_idx = ?", [assignment_id, *unit]))
        current = rows[0] if rows else None
        old: Entry = (current["value"], current["comment"]) if current else (None, None)
        if old == entry:
            return "same"
        if (current is not None and old != (None, None) and not replace
                and _when(current["updated_at"]) >= _when(updated_at)):
            return "kept"
        save_id = _new_save(self.db, a, "import", updated_at)
        _apply_entry(self.db, a, unit, entry, current, save_id, updated_at, created_at)
        return "new" if old == (None, None) else "updated"

    # -- progress --------------------------------------------------------------------------
    def progress(self, study_id: str, rater_id: str) -> RaterProgress:
        """Finished/total and time left: median gap between this rater's saves × items left.

        Only the rater's own saves and skips count (imported rows carry other clocks).
        """
        total, finished = self.db.execute(
            "SELECT count(*), coalesce(sum(status != ?), 0) FROM assignments WHERE"
            " study_id = ? AND rater_id = ?", [PENDING, study_id, rater_id]).fetchone()
        times = sorted(t for (at,) in self.db.execute(
            "SELECT at FROM rating_saves WHERE study_id = ? AND rater_id = ? AND undone_at IS"
            " NULL AND kind IN ('save', 'skip')", [study_id, rater_id]) if (t := _when(at)) > 0)
        gaps = [b - a for a, b in zip(times, times[1:], strict=False) if 0 < b - a <= MAX_GAP_S]
        left = statistics.median(gaps) * (total - finished) if gaps else None
        return RaterProgress(finished=finished, total=total, seconds_left=left)

    # -- the study-wide listing (what `bedside ratings export` writes) ---------------------
    def study_ratings(self, study_id: str) -> list[StudyRating]:
        """Every answered unit of a study with its rater (name, kind, judge settings) and its
        assignment's status and skip reason; by rater, transcript, item, unit."""
        return [_listed(r) for r in self.db.query(
            "SELECT g.consultation_id, g.item, g.turn_idx, g.value, g.comment, g.created_at,"
            f" g.updated_at, {_RATER}, a.status, a.skip_reason FROM ratings g JOIN raters r"
            " ON r.id = g.rater_id JOIN assignments a ON a.id = g.assignment_id"
            " WHERE g.study_id = ? AND (g.value IS NOT NULL OR g.comment IS NOT NULL)"
            " ORDER BY r.name, g.consultation_id, g.item, g.turn_idx", [study_id])]

    def unrated_skips(self, study_id: str) -> list[StudyRating]:
        """Skipped assignments without any answered unit, with their rater (item None; the
        skip's time as both timestamps)."""
        return [_listed(r) for r in self.db.query(
            "SELECT a.consultation_id, a.updated_at AS created_at, a.updated_at,"
            f" {_RATER}, a.status, a.skip_reason FROM assignments a JOIN raters r"
            " ON r.id = a.rater_id WHERE a.study_id = ? AND a.status = ? AND NOT EXISTS"
            " (SELECT 1 FROM ratings g WHERE g.assignment_id = a.id AND (g.value IS NOT NULL"
            " OR g.comment IS NOT NULL)) ORDER BY r.name, a.consultation_id",
            [study_id, SKIPPED])]
