"""Study repository: studies, raters, assignments and the judge's call log (the `StudyStore`
port of `core.ports.studies`), and what a study reads of the consultations.

The answers themselves (ratings with their history, saves, skips, undo, import, progress)
are in `db.ratings`, which builds on this module's `write` and `load_assignment`;
`db.study_store.SqliteStudyStore` is both.

Every write is one short `BEGIN IMMEDIATE` transaction committed at once
(`db.connection.write`), so several raters can work on one database file from several
processes (WAL + busy timeout from `open_db`)
and a killed process loses nothing that was saved. Rows come back as `core.records.studies`
models; this module knows nothing of rubrics (that is `annotation`). It imports
`db.ratings` nowhere (that module imports this one).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlite_utils import Database

from core.case import Case
from core.errors import InputError, NotFoundError
from core.ids import new_id
from core.records.studies import (PENDING, AssignmentRecord, AssignmentStatus, JudgeCall, Plan,
                                  RaterKind, RaterRecord, StudyCandidate, StudyRecord)
from core.transcript import Transcript, utc_now
from db.cases import get_case
from db.connection import write
from db.consultations import get_transcript
from db.jsoncol import dumps, loads


def rater_record(row: dict[str, Any]) -> RaterRecord:
    """A `raters` row as a record (parameters parsed)."""
    return RaterRecord.model_validate({**row, "params": loads(row["params"])})


def assignment_record(row: dict[str, Any]) -> AssignmentRecord:
    """An `assignments` row as a record."""
    return AssignmentRecord.model_validate({**row, "calibration": bool(row["calibration"])})


def load_assignment(db: Database, assignment_id: str) -> AssignmentRecord:
    """One assignment; NotFoundError otherwise."""
    rows = list(db.table("assignments").rows_where("id = ?", [assignment_id]))
    if not rows:
        raise NotFoundError(f"no assignment '{assignment_id}'")
    return assignment_record(rows[0])


_STUDY = (
    "SELECT s.id, s.name, s.created_at, s.definition,"
    " count(DISTINCT a.consultation_id) AS transcripts, count(DISTINCT a.rater_id) AS raters,"
    " count(a.id) AS assignments, coalesce(sum(a.status = 'done'), 0) AS done,"
    " coalesce(sum(a.status = 'skipped'), 0) AS skipped"
    " FROM studies s LEFT JOIN assignments a ON a.study_id = s.id")


def _study(row: dict[str, Any]) -> StudyRecord:
    return StudyRecord.model_validate({**row, "definition": loads(row["definition"], {})})


class StudyRepository:
    """Studies, raters, assignments and judge calls in one SQLite database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction around the writes inside (nested: joins the outer one)."""
        with write(self.db):
            yield

    # -- studies ---------------------------------------------------------------------------
    def create_study(self, name: str, definition: dict[str, Any], plan: Plan) -> StudyRecord:
        """Create a study with its human raters and their assignments, in one transaction."""
        if list(self.db.table("studies").rows_where("name = ?", [name])):
            raise InputError(f"a study named '{name}' already exists", field="name")
        study_id = new_id("st-")
        with write(self.db):
            self.db.table("studies").insert({"id": study_id, "name": name,
                                             "definition": dumps(definition),
                                             "created_at": utc_now()})
            for rater, items in plan.items():
                self.add_assignments(study_id, self.ensure_rater(rater).id, items)
        return self.get_study(study_id)

    def get_study(self, name_or_id: str) -> StudyRecord:
        """One study by name or id, with its progress; NotFoundError otherwise."""
        rows = list(self.db.query(f"{_STUDY} WHERE s.id = ? OR s.name = ? GROUP BY s.id"
                                  " ORDER BY s.id = ? DESC LIMIT 1",
                                  [name_or_id, name_or_id, name_or_id]))
        if not rows:
            raise NotFoundError(f"no study '{name_or_id}' (see `bedside study list`)")
        return _study(rows[0])

    def list_studies(self) -> list[StudyRecord]:
        """All studies, oldest first, with their progress."""
        return [_study(r) for r in self.db.query(f"{_STUDY} GROUP BY s.id ORDER BY s.created_at")]

    # -- raters ----------------------------------------------------------------------------
    def ensure_rater(self, name: str, kind: RaterKind = "human", *, model: str | None = None,
                     params: dict[str, Any] | None = None,
                     prompt_hash: str | None = None) -> RaterRecord:
        """The rater called `name`, created if new.

        A rater's kind, and a judge's model, parameters and prompt hash, are part of its
        identity and are never rewritten (ratings made with one setting must never be
        relabelled with another): asking for an existing name with another kind or other
        judge settings is an InputError.
        """
        found = self.find_rater(name)
        if found is not None:
            if found.kind != kind:
                raise InputError(f"rater '{name}' is a {found.kind} rater, not a {kind}",
                                 field="rater_kind")
            stored = (found.model, found.params, found.prompt_hash)
            if kind == "judge" and model is not None and stored != (model, params, prompt_hash):
                raise InputError(f"judge '{name}' exists with other settings (model, "
                                 "parameters or prompt hash)", field="rater")
            return found
        row = {"id": new_id("ra-"), "name": name, "kind": kind, "model": model,
               "params": dumps(params), "prompt_hash": prompt_hash, "created_at": utc_now()}
        self.db.table("raters").insert(row)
        return rater_record(row)

    def find_rater(self, name: str) -> RaterRecord | None:
        """One rater by name, if stored."""
        rows = list(self.db.table("raters").rows_where("name = ?", [name]))
        return rater_record(rows[0]) if rows else None

    def get_rater(self, name: str) -> RaterRecord:
        """One rater by name; NotFoundError otherwise."""
        found = self.find_rater(name)
        if found is None:
            raise NotFoundError(f"no rater '{name}'")
        return found

    def study_raters(self, study_id: str) -> list[RaterRecord]:
        """Raters with assignments in a study, by name."""
        return [rater_record(r) for r in self.db.query(
            "SELECT DISTINCT r.* FROM raters r JOIN assignments a ON a.rater_id = r.id"
            " WHERE a.study_id = ? ORDER BY r.name", [study_id])]

    def study_consultations(self, study_id: str) -> list[str]:
        """Distinct consultation ids of a study, calibration first, then in id order."""
        rows = self.db.execute(
            "SELECT consultation_id, max(calibration) AS cal FROM assignments WHERE"
            " study_id = ? GROUP BY consultation_id ORDER BY cal DESC, consultation_id",
            [study_id]).fetchall()
        return [r[0] for r in rows]

    # -- assignments -----------------------------------------------------------------------
    def add_assignments(self, study_id: str, rater_id: str,
                        items: list[tuple[str, bool]]) -> int:
        """Append assignments for a rater (already assigned ones are kept); return how many."""
        have = {r[0] for r in self.db.execute(
            "SELECT consultation_id FROM assignments WHERE study_id = ? AND rater_id = ?",
            [study_id, rater_id])}
        top = self.db.execute("SELECT coalesce(max(position), -1) FROM assignments WHERE"
                              " study_id = ? AND rater_id = ?", [study_id, rater_id]).fetchone()[0]
        rows = []
        for cid, calibration in items:
            if cid in have:
                continue
            top += 1
            have.add(cid)
            rows.append({"id": new_id("as-"), "study_id": study_id, "rater_id": rater_id,
                         "consultation_id": cid, "position": top,
                         "calibration": int(calibration), "status": PENDING,
                         "skip_reason": None, "updated_at": utc_now()})
        with write(self.db):
            self.db.table("assignments").insert_all(rows)
        return len(rows)

    def assignments(self, study_id: str, rater_id: str) -> list[AssignmentRecord]:
        """A rater's assignments in their order."""
        return [assignment_record(r) for r in self.db.table("assignments").rows_where(
            "study_id = ? AND rater_id = ?", [study_id, rater_id], order_by="position")]

    def get_assignment(self, assignment_id: str) -> AssignmentRecord:
        """One assignment; NotFoundError otherwise."""
        return load_assignment(self.db, assignment_id)

    def next_assignment(self, study_id: str, rater_id: str) -> AssignmentRecord | None:
        """The rater's first pending assignment (where they left off), or None when finished."""
        rows = list(self.db.table("assignments").rows_where(
            "study_id = ? AND rater_id = ? AND status = ?", [study_id, rater_id, PENDING],
            order_by="position", limit=1))
        return assignment_record(rows[0]) if rows else None

    def find_assignment(self, study_id: str, rater_id: str,
                        consultation_id: str) -> AssignmentRecord | None:
        """The rater's assignment of one transcript in a study, if any."""
        rows = list(self.db.table("assignments").rows_where(
            "study_id = ? AND rater_id = ? AND consultation_id = ?",
            [study_id, rater_id, consultation_id]))
        return assignment_record(rows[0]) if rows else None

    def set_status(self, assignment_id: str, status: AssignmentStatus,
                   skip_reason: str | None = None, at: str | None = None) -> None:
        """Set an assignment's status (import marks assignments done or skipped)."""
        self.db.table("assignments").update(
            assignment_id, {"status": status, "skip_reason": skip_reason,
                            "updated_at": at or utc_now()})

    # -- the judge's calls -----------------------------------------------------------------
    def record_judge_call(self, call: JudgeCall) -> str:
        """Log one judge call (ok or failed) with its raw answer, parameters and prompt hash."""
        call_id = new_id("jc-")
        row = {"id": call_id, **call.model_dump(), "created_at": utc_now()}
        with write(self.db):
            self.db.table("judge_calls").insert({**row, "params": dumps(call.params)})
        return call_id

    # -- what a study reads of the consultations -------------------------------------------
    def finished_transcripts(self) -> list[StudyCandidate]:
        """Every finished consultation with what a selection filters on, by id."""
        return [StudyCandidate.model_validate(r) for r in self.db.query(
            "SELECT c.id, c.case_id, c.doctor, c.end_reason, c.run_id, c.origin,"
            " k.source AS case_source FROM consultations c LEFT JOIN cases k"
            " ON k.id = c.case_id WHERE c.status = 'finished' ORDER BY c.id")]

    def study_transcript(self, consultation_id: str) -> Transcript:
        """A consultation's transcript; NotFoundError otherwise."""
        return get_transcript(self.db, consultation_id)

    def study_case(self, case_id: str) -> Case | None:
        """A stored case, or None when it is not stored."""
        try:
            return get_case(self.db, case_id)
        except NotFoundError:
            return None

    def consultation_doctors(self, study_id: str) -> dict[str, str | None]:
        """The doctor label of each of a study's transcripts."""
        return dict(self.db.execute(
            "SELECT id, doctor FROM consultations WHERE id IN (SELECT consultation_id FROM"
            " assignments WHERE study_id = ?)", [study_id]).fetchall())

    def report_grades(self, study_id: str) -> dict[str, dict[str, dict[str, int]]]:
        """consultation → report judge → part → grade 1–4 (defined report scores only)."""
        from db.judged import judged_values

        ids = [r[0] for r in self.db.execute(
            "SELECT DISTINCT consultation_id FROM assignments WHERE study_id = ?", [study_id])]
        out: dict[str, dict[str, dict[str, int]]] = {}
        for cid, judges in judged_values(self.db, ids, ["report_score"])["report_score"].items():
            for judge, (value, detail) in judges.items():
                grades = detail.get("grades")
                if value is not None and isinstance(grades, dict):
                    out.setdefault(cid, {})[judge] = {str(k): int(v) for k, v in grades.items()}
        return out
