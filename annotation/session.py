"""A rater's session on one study: what the rating screen (`bedside rate`) asks for.

Opening a session checks that the rater belongs to the study (the message never lists the
other raters) and keeps only what a rater may know: the `RaterView` (name, instructions,
rubric, show_truth) and their own rater id. From there: where they left off, a blinded
transcript with the answers the form shows, saving (refused while a required unit is
unanswered), skipping with a reason, undoing the last save or skip, and progress. Every save,
skip and undo is committed by the store before the call returns.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from annotation.assignment import load_definition
from annotation.blinding import BlindItem, RaterView, blind_item, missing_required, rater_view
from annotation.rubric import RubricItem
from core.errors import InputError
from core.ports.studies import ReaderStudyStore
from core.records.studies import Answers, RaterProgress, Undone


class OpenItem(BaseModel):
    """A blinded transcript and the answers the form starts from (its own, or those of an
    undone save)."""

    item: BlindItem = Field(description="The transcript as the rater may see it.")
    answers: Answers = Field(description="The answers to show, by unit.")


def match_rater(raters: list[str], typed: str) -> str | None:
    """The study's spelling of the rater `typed` names: exactly, else ignoring case and
    surrounding spaces ("Alice " finds "alice"); None when it names none of them."""
    typed = typed.strip()
    if typed in raters:
        return typed
    found = [r for r in raters if r.casefold() == typed.casefold()]
    return found[0] if len(found) == 1 else None


def study_raters(store: ReaderStudyStore, study: str) -> tuple[str, list[str]]:
    """(study name, its raters) for the prompt that asks who is rating, before a session
    opens (the session itself never holds the other raters); NotFoundError for no study."""
    record = store.get_study(study)
    return record.name, list(load_definition(record).raters)


class RatingSession:
    """One rater working through their assignments of one study."""

    def __init__(self, store: ReaderStudyStore, study: str, rater: str) -> None:
        """Resolve the study and the rater (InputError naming `--rater` when the rater is
        not one of the study's; NotFoundError when the study does not exist)."""
        record = store.get_study(study)
        definition = load_definition(record)
        name = match_rater(definition.raters, rater)
        if name is None:
            # Blinding: never list the other raters.
            raise InputError(f"rater '{rater}' is not in study '{record.name}'; ask the "
                             "study owner", field="rater")
        rater = name
        #: The rater's name as the study spells it (typed in any case).
        self.rater_name = name
        self.store = store
        #: The study as the rater may know it (never the selection or the other raters).
        self.view: RaterView = rater_view(definition)
        self.study_id = record.id
        self.rater_id = store.get_rater(rater).id

    def __repr__(self) -> str:
        # No memory address: the blinding test searches everything the screen holds for
        # secret ids, and an address could contain one by chance.
        return f"RatingSession({self.view.study!r})"

    def progress(self) -> RaterProgress:
        """Finished of total, and the time-left estimate."""
        return self.store.progress(self.study_id, self.rater_id)

    def open(self, assignment_id: str | None = None) -> OpenItem | None:
        """An assignment (default: the first unrated one) blinded, with its form answers;
        None when every assignment is finished."""
        a = (self.store.get_assignment(assignment_id) if assignment_id
             else self.store.next_assignment(self.study_id, self.rater_id))
        if a is None:
            return None
        return OpenItem(item=blind_item(self.store, a, self.view.show_truth),
                        answers=self.store.form_answers(a.id))

    def missing(self, item: BlindItem, answers: Answers) -> list[tuple[RubricItem, int]]:
        """Required units of `item` that `answers` leave without a value."""
        return missing_required(self.view.rubric, item.turns,
                                {u: v for u, (v, _) in answers.items()})

    def save(self, item: BlindItem, answers: Answers) -> str:
        """Commit the answers and mark the transcript done; InputError (field: the first
        unanswered item's id) while a required unit is unanswered."""
        missing = self.missing(item, answers)
        if missing:
            raise InputError("still to rate: " + ", ".join(sorted({i.label for i, _ in missing})),
                             field=missing[0][0].id)
        return self.store.save_ratings(item.assignment_id, answers)

    def skip(self, assignment_id: str, reason: str) -> str:
        """Skip a transcript with a reason (InputError when blank)."""
        return self.store.skip(assignment_id, reason)

    def undo(self) -> Undone | None:
        """Revert the rater's last save or skip; None when there is nothing to undo."""
        return self.store.undo_last(self.study_id, self.rater_id)
