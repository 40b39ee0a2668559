"""Reader-study records: studies, raters, assignments, answers and their history, progress,
the study-wide listing that export reads, and the judge's call log.

`db.studies` and `db.ratings` build these from their rows (JSON columns parsed); the use
cases in `annotation` read and write through the `core.ports.studies` protocols with them.
A study's definition stays a plain mapping here: it is validated by
`annotation.study.StudyDefinition`, which the store (below annotation) cannot know.

A rating unit is (rubric item id, turn index; -1 = the whole transcript); an entry is
(value, comment), either of which may be None. These stay tuples because they are the keys
and values of the answer maps every layer passes around.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, Field

AssignmentStatus = Literal["pending", "done", "skipped"]
#: Assignment statuses: not yet rated, rated (saved), skipped with a reason.
PENDING: Final = "pending"
DONE: Final = "done"
SKIPPED: Final = "skipped"

RaterKind = Literal["human", "judge"]
SaveKind = Literal["save", "skip", "import"]
HistoryAction = Literal["set", "edit", "clear", "undo"]
#: What importing one rating did (see `RatingStore.import_rating`).
ImportOutcome = Literal["new", "updated", "same", "kept"]

Unit = tuple[str, int]
"""(rubric item id, turn index; -1 = the whole transcript)."""
Entry = tuple[str | None, str | None]
"""(value, comment): the answer as stored text, and the rater's comment on it."""
Answers = dict[Unit, Entry]
"""A rater's answers to one transcript, by unit."""
Plan = dict[str, list[tuple[str, bool]]]
"""Assignments to create: rater name → [(consultation id, calibration)] in the rater's order."""


class StudyRecord(BaseModel):
    """A stored reader study with its progress (counted over every rater's assignments)."""

    id: str = Field(description="Study id ('st-…').")
    name: str = Field(description="Unique study name, used on the command line.")
    created_at: str = Field(description="ISO-8601 UTC time the study was created.")
    definition: dict[str, Any] = Field(
        default_factory=dict, description="The study definition as stored (rubric spelled "
        "out); `annotation.study.StudyDefinition` validates it.")
    transcripts: int = Field(0, description="Distinct transcripts assigned in the study.")
    raters: int = Field(0, description="Raters (humans and judges) with assignments.")
    assignments: int = Field(0, description="Assignments of every rater.")
    done: int = Field(0, description="Assignments rated (saved).")
    skipped: int = Field(0, description="Assignments skipped with a reason.")

    @property
    def finished(self) -> int:
        """Assignments no longer pending (rated or skipped)."""
        return self.done + self.skipped


class RaterRecord(BaseModel):
    """A rater: a human, or an LLM judge whose settings are part of its identity."""

    id: str = Field(description="Rater id ('ra-…').")
    name: str = Field(description="Unique name; judges are 'judge:MODEL#HASH'.")
    kind: RaterKind = Field(description="'human' or 'judge'.")
    model: str | None = Field(None, description="Judges: the model string.")
    params: dict[str, Any] | None = Field(None, description="Judges: sampling parameters.")
    prompt_hash: str | None = Field(None, description="Judges: hash of the fixed prompt.")
    created_at: str = Field(description="ISO-8601 UTC time the rater was first stored.")


class AssignmentRecord(BaseModel):
    """One transcript assigned to one rater in one study."""

    id: str = Field(description="Assignment id ('as-…').")
    study_id: str = Field(description="The study.")
    rater_id: str = Field(description="The rater.")
    consultation_id: str = Field(description="The transcript to rate.")
    position: int = Field(description="0-based position in the rater's order.")
    calibration: bool = Field(description="A calibration transcript that every rater rates.")
    status: AssignmentStatus = Field(description="'pending', 'done' or 'skipped'.")
    skip_reason: str | None = Field(None, description="Why the rater skipped it.")
    updated_at: str = Field(description="ISO-8601 UTC time of the last status change.")


class RatingChange(BaseModel):
    """One recorded change of one rating unit (what undo reverts, what export's history keeps)."""

    id: int = Field(description="Position in the history (increasing).")
    rating_id: str = Field(description="The rating unit's row ('rt-…').")
    action: HistoryAction = Field(description="'set', 'edit', 'clear' or 'undo'.")
    value: str | None = Field(None, description="The value after the change.")
    comment: str | None = Field(None, description="The comment after the change.")
    prev_value: str | None = Field(None, description="The value it replaced.")
    prev_comment: str | None = Field(None, description="The comment it replaced.")
    save_id: str | None = Field(None, description="The save (Enter, skip, import or undo).")
    at: str = Field(description="ISO-8601 UTC time of the change.")


class StudyRating(BaseModel):
    """One answered unit of a study (or, with no item, a skipped transcript without answers)
    with its rater and its assignment's status: a line of `bedside ratings export`."""

    consultation_id: str = Field(description="The rated transcript.")
    item: str | None = Field(None, description="Rubric item id; None on a skip line.")
    turn_idx: int = Field(-1, description="Turn index; -1 for the whole transcript.")
    value: str | None = Field(None, description="The answer as stored text.")
    comment: str | None = Field(None, description="The rater's comment on this unit.")
    created_at: str = Field(description="ISO-8601 UTC time first rated.")
    updated_at: str = Field(description="ISO-8601 UTC time last changed.")
    rater: RaterRecord = Field(description="Who rated it (a judge's settings included).")
    status: AssignmentStatus = Field(description="The assignment's status.")
    skip_reason: str | None = Field(None, description="Why the rater skipped the transcript.")


class Undone(BaseModel):
    """What undoing a rater's last save or skip reverted."""

    assignment_id: str = Field(description="The assignment to show again.")
    kind: SaveKind = Field(description="'save' or 'skip'.")
    values: Answers = Field(default_factory=dict, description="The answers that save had "
                            "written, by unit (to fill the form in again).")


class RaterProgress(BaseModel):
    """How far a rater is in a study, and an estimate of the time left."""

    finished: int = Field(description="Assignments done or skipped.")
    total: int = Field(description="All of the rater's assignments.")
    seconds_left: float | None = Field(
        None, description="Median gap between the rater's saves × assignments left; None "
        "until there are two saves close enough together.")

    @property
    def remaining(self) -> int:
        """Assignments still pending."""
        return self.total - self.finished


class JudgeCall(BaseModel):
    """One call of the LLM judge on one transcript, as logged (ok or failed)."""

    study_id: str = Field(description="The study.")
    rater_id: str = Field(description="The judge's rater id.")
    consultation_id: str = Field(description="The transcript rated.")
    status: Literal["ok", "failed"] = Field(description="Whether a usable answer came back.")
    attempts: int = Field(description="Answers asked for (retries after unusable ones).")
    raw_response: str | None = Field(None, description="The last answer, verbatim.")
    error: str | None = Field(None, description="Why the last answer was not usable.")
    prompt_hash: str = Field(description="Hash of the fixed part of the prompt.")
    params: dict[str, Any] = Field(default_factory=dict,
                                   description="The model and its sampling parameters.")


class StudyCandidate(BaseModel):
    """A finished consultation as a study's selection sees it (never shown to raters)."""

    id: str = Field(description="Consultation id.")
    case_id: str | None = Field(None, description="The case played.")
    doctor: str | None = Field(None, description="The doctor's label (model string or name).")
    end_reason: str | None = Field(None, description="Why it ended, e.g. 'diagnosis'.")
    run_id: str | None = Field(None, description="The batch run, if any.")
    origin: str | None = Field(None, description="Where it came from, e.g. 'import:rjua'.")
    case_source: str | None = Field(None, description="The case's source, e.g. 'bedside'.")
