"""The reader-study ports: what the study use cases (`annotation`) ask of a store.

`StudyStore` holds studies, raters, assignments and the judge's call log, and gives a study
what it may read of the consultations (the finished ones to select from, a transcript and
its case to blind). `RatingStore` holds the answers: saves, skips, undo, imports, progress
and the study-wide listing. `ReaderStudyStore` is both; `db.study_store.SqliteStudyStore`
implements it on the project database.

Durability is part of the contract: every save, skip, undo and judge call is committed
before the method returns, so a killed process loses nothing that was saved; `transaction()`
groups several writes into one (the import writes a whole file or nothing).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any, Protocol

from core.case import Case
from core.records.studies import (Answers, AssignmentRecord, AssignmentStatus, Entry,
                                  ImportOutcome, JudgeCall, Plan, RaterKind, RaterProgress,
                                  RaterRecord, RatingChange, StudyCandidate, StudyRating,
                                  StudyRecord, Undone, Unit)
from core.transcript import Transcript


class StudyStore(Protocol):
    """Studies, raters, assignments, the judge's call log; what studies read of consultations."""

    def transaction(self) -> AbstractContextManager[None]:
        """One write transaction around the writes made inside it (nested: joins the outer)."""
        ...

    def create_study(self, name: str, definition: dict[str, Any], plan: Plan) -> StudyRecord:
        """Store a study with its human raters and their assignments, in one transaction;
        InputError when the name is taken."""
        ...

    def get_study(self, name_or_id: str) -> StudyRecord:
        """One study by name or id, with its progress; NotFoundError otherwise."""
        ...

    def list_studies(self) -> list[StudyRecord]:
        """All studies, oldest first, with their progress."""
        ...

    def ensure_rater(self, name: str, kind: RaterKind = "human", *, model: str | None = None,
                     params: dict[str, Any] | None = None,
                     prompt_hash: str | None = None) -> RaterRecord:
        """The rater called `name`, created if new; InputError when it exists with another
        kind or (for a judge) other settings: a rater is never relabelled."""
        ...

    def get_rater(self, name: str) -> RaterRecord:
        """One rater by name; NotFoundError otherwise."""
        ...

    def find_rater(self, name: str) -> RaterRecord | None:
        """One rater by name, if stored."""
        ...

    def study_raters(self, study_id: str) -> list[RaterRecord]:
        """Raters with assignments in a study, by name."""
        ...

    def study_consultations(self, study_id: str) -> list[str]:
        """Distinct consultation ids of a study, calibration first, then in id order."""
        ...

    def add_assignments(self, study_id: str, rater_id: str,
                        items: list[tuple[str, bool]]) -> int:
        """Append (consultation id, calibration) assignments for a rater, keeping those it
        already has; return how many were added."""
        ...

    def assignments(self, study_id: str, rater_id: str) -> list[AssignmentRecord]:
        """A rater's assignments in their order."""
        ...

    def get_assignment(self, assignment_id: str) -> AssignmentRecord:
        """One assignment; NotFoundError otherwise."""
        ...

    def next_assignment(self, study_id: str, rater_id: str) -> AssignmentRecord | None:
        """The rater's first pending assignment (where they left off); None when finished."""
        ...

    def find_assignment(self, study_id: str, rater_id: str,
                        consultation_id: str) -> AssignmentRecord | None:
        """The rater's assignment of one transcript in a study, if any."""
        ...

    def set_status(self, assignment_id: str, status: AssignmentStatus,
                   skip_reason: str | None = None, at: str | None = None) -> None:
        """Set an assignment's status (an import marks assignments done or skipped)."""
        ...

    def record_judge_call(self, call: JudgeCall) -> str:
        """Log one judge call, committed at once; return its id."""
        ...

    def finished_transcripts(self) -> list[StudyCandidate]:
        """Every finished consultation with what a study's selection filters on, by id."""
        ...

    def study_transcript(self, consultation_id: str) -> Transcript:
        """A consultation's transcript (to blind it); NotFoundError otherwise."""
        ...

    def study_case(self, case_id: str) -> Case | None:
        """A stored case (the rater's reference), or None when it is not stored."""
        ...

    def consultation_doctors(self, study_id: str) -> dict[str, str | None]:
        """The doctor label of each of a study's transcripts (for the analysis only)."""
        ...

    def report_grades(self, study_id: str) -> dict[str, dict[str, dict[str, int]]]:
        """consultation → report judge (`bedside score`, `judge:MODEL#H`) → report part →
        grade 1–4, of a study's transcripts (for the analysis only: a report judge compared
        with the clinicians who graded the same reports)."""
        ...


class RatingStore(Protocol):
    """A rater's answers with their full history: saves, skips, undo, imports, progress."""

    def assignment_ratings(self, assignment_id: str) -> Answers:
        """This assignment's current answers (units with a value or a comment)."""
        ...

    def form_answers(self, assignment_id: str) -> Answers:
        """What the rating form shows: the current answers, except that a unit whose last
        change was an undo shows the undone answer again."""
        ...

    def save_ratings(self, assignment_id: str, values: Answers, *, done: bool = True,
                     at: str | None = None) -> str:
        """Save answers for one transcript in one committed transaction ((None, None) clears
        a unit); with `done`, mark the assignment done. Returns the save id."""
        ...

    def skip(self, assignment_id: str, reason: str) -> str:
        """Skip a transcript with a reason (InputError when blank); undoable like a save."""
        ...

    def undo_last(self, study_id: str, rater_id: str) -> Undone | None:
        """Revert the rater's most recent save or skip not yet undone; None if none."""
        ...

    def rating_history(self, assignment_id: str) -> list[RatingChange]:
        """Every recorded change of an assignment's answers, oldest first."""
        ...

    def import_rating(self, assignment_id: str, unit: Unit, entry: Entry, created_at: str,
                      updated_at: str, *, replace: bool = False) -> ImportOutcome:
        """Write one imported answer with its own timestamps (call inside `transaction`);
        a stored answer as new or newer is 'kept' unless `replace`."""
        ...

    def progress(self, study_id: str, rater_id: str) -> RaterProgress:
        """Finished of total, and an estimate of the time left from the rater's own saves."""
        ...

    def study_ratings(self, study_id: str) -> list[StudyRating]:
        """Every answered unit of a study, by rater name, transcript, item, unit."""
        ...

    def unrated_skips(self, study_id: str) -> list[StudyRating]:
        """Skipped assignments without any answered unit (item None), by rater and transcript."""
        ...


class ReaderStudyStore(StudyStore, RatingStore, Protocol):
    """Everything a reader study needs of the store (studies and answers)."""
