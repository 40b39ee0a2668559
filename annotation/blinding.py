"""What a rater may see of a transcript: the blinded item.

A rater (human or judge) sees the turns with role names only (doctor, patient, examiner; the
host of collaborating doctors, who are Doctor A, Doctor B, … and never their models) and
the case record as the reference they rate against:
- the patient's record (demographics, complaint, story, symptoms, history), needed to rate
  the patient's honesty;
- the examiner's stored findings and results, needed to rate examiner accuracy.
Never shown: who played the doctor (model or human), per-turn model names, usage, latency,
raw requests, the batch configuration, run ids, the verdict, whether the diagnosis was
correct, moderator and system turns, the case id and title (ids such as
'card-001-inferior-stemi' name the diagnosis), and other raters' ratings. The correct
diagnosis and the record's treatment are added only when the study sets `show_truth`.
Imported dialogues whose case is a stand-in (`Case.placeholder`) have no case record to
show. The doctor's final report is shown as its labelled parts (`blind_turns`).

`BlindItem` (one transcript) and `RaterView` (the study as a rater may know it: name,
instructions, rubric, show_truth — not the selection, which names models and runs, nor the
list of raters) are all the rating screen and the judge prompt are given. The store is
reached only through the `StudyStore` port.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from annotation.rubric import Rubric, RubricItem
from annotation.study import StudyDefinition
from core.case import Case
from core.collaboration import speaker
from core.ports.studies import StudyStore
from core.records.studies import AssignmentRecord, Unit
from core.transcript import FinalReport, Transcript

VISIBLE_ROLES = ("doctor", "patient", "examiner", "host")


class RaterView(BaseModel):
    """What a rater may know about the study itself."""

    study: str = Field(description="The study's name.")
    instructions: str = Field(description="Shown before the first item and on request.")
    rubric: Rubric = Field(description="The questions (the study's or the default rubric).")
    show_truth: bool = Field(description="Whether the correct diagnosis is shown.")


def rater_view(definition: StudyDefinition) -> RaterView:
    """The rater-safe part of a study definition."""
    return RaterView(study=definition.name, instructions=definition.instructions,
                     rubric=definition.effective_rubric(), show_truth=definition.show_truth)


class BlindTurn(BaseModel):
    """One turn as a rater sees it."""

    index: int = Field(description="Position in the stored transcript (per-turn ratings key).")
    role: str = Field(description="'doctor', 'patient' or 'examiner'.")
    kind: str = Field(description="'question', 'answer', 'test_request', 'result', ...")
    content: str = Field(description="What was said, verbatim (untrusted text).")
    tests: list[str] = Field(default_factory=list, description="Test names, if any.")
    speaker: str = Field("", description="Who speaks as raters read it: the role "
                         "('Doctor', 'Host', …), or 'Doctor A', 'Doctor B', … for one of "
                         "several collaborating doctors.")
    round: int | None = Field(None, description="A collaboration's round the turn belongs to.")

    @property
    def who(self) -> str:
        """The speaker, or the role when none is given."""
        return self.speaker or self.role.title()


class CaseReference(BaseModel):
    """The parts of the case a rater rates against."""

    patient: str = Field(description="The patient's record as plain text.")
    findings: str = Field(description="Stored examination findings and test results.")
    truth: str | None = Field(None, description="Correct diagnosis (only with show_truth).")
    treatment: str | None = Field(None, description="The record's treatment (only with "
                                  "show_truth: what a report's treatment plan is graded "
                                  "against).")


class BlindItem(BaseModel):
    """One transcript to rate, stripped of everything a rater must not see."""

    assignment_id: str = Field(description="The rater's assignment (their own).")
    position: int = Field(description="0-based position in the rater's order.")
    calibration: bool = Field(description="A calibration transcript everyone rates.")
    turns: list[BlindTurn] = Field(description="Visible turns, in order.")
    reference: CaseReference | None = Field(
        None, description="Case record; None when not available (e.g. imported dialogues).")


def blind_turns(t: Transcript) -> list[BlindTurn]:
    """Doctor, patient, examiner and host turns with content only (a collaborating doctor
    named by its letter, the round of a collaboration's turn). The doctor's final report is
    shown as labelled parts (a report turn stored as JSON is written out), and a report
    that has no turn of its own (a physician's diagnosis form) is shown as one more doctor
    turn, numbered after the last, so raters see what a report judge grades."""
    out = [BlindTurn(index=x.index, role=str(x.role), kind=x.kind,
                     content=_report_text(x.content) if x.kind == "report" else x.content,
                     tests=list(x.tests), speaker=speaker(str(x.role), x.meta),
                     round=x.meta.get("round") if isinstance(x.meta.get("round"), int)
                     else None)
           for x in t.turns if str(x.role) in VISIBLE_ROLES]
    if t.report is not None and not _said(t.report, [b for b in out if b.role == "doctor"]):
        last = max((x.index for x in t.turns), default=-1)
        out.append(BlindTurn(index=last + 1, role="doctor", kind="report",
                             content=report_parts(t.report)))
    return out


def _said(report: FinalReport, doctor: list[BlindTurn]) -> bool:
    """Whether the doctor's turns already show the report: a report turn, or every part's
    text in some turn (a one-step answer, a replayed diagnosis)."""
    if any(b.kind == "report" for b in doctor):
        return True
    parts = [getattr(report, p) for p in ("symptoms", "examinations", "diagnostic_results",
                                           "rationale", "treatment_plan")]
    return all(any(text in b.content for b in doctor) for text in parts if text)


def report_parts(report: FinalReport) -> str:
    """The report's parts as 'Label: text' lines ('' when every part is empty)."""
    from core.metrics.report_score import report_lines

    return "\n".join(report_lines(report))


def _report_text(content: str) -> str:
    """A report turn as raters read it: a structured report stored as JSON written out as
    labelled parts; any other text as it is."""
    import json

    from pydantic import ValidationError

    try:
        data = json.loads(content)
        report = FinalReport.model_validate(data) if isinstance(data, dict) else None
    except (ValueError, ValidationError):
        return content
    return (report_parts(report) if report is not None else "") or content


def _patient_text(case: Case) -> str:
    p = case.patient
    d = p.demographics
    lines = [f"Patient: {', '.join(x for x in (d.age, d.sex, d.occupation) if x)}"
             if any((d.age, d.sex, d.occupation)) else d.text or ""]
    for label, value in (("Chief complaint", p.chief_complaint),
                         ("History of present illness", p.history_of_present_illness)):
        if value:
            lines.append(f"{label}: {value}")
    for s in p.symptoms():
        bits = [x for x in (s.description, s.onset, s.duration, s.character) if x]
        lines.append(f"{'Symptom' if s.present else 'Denies'}: {s.name}"
                     + (f" ({'; '.join(bits)})" if bits else ""))
    lines.extend(f"History ({h.kind.replace('_', ' ')}): {h.text}" for h in p.history)
    return "\n".join(x for x in lines if x)


def case_reference(case: Case, show_truth: bool = False) -> CaseReference:
    """The case record for raters; the diagnosis only when `show_truth`."""
    findings = [item.render() for item in [*case.physical_exam, *case.tests]]
    return CaseReference(patient=_patient_text(case), findings="\n".join(findings),
                         truth=case.truth.diagnosis if show_truth else None,
                         treatment=(case.truth.treatment or None) if show_truth else None)


def blind_item(store: StudyStore, assignment: AssignmentRecord,
               show_truth: bool = False) -> BlindItem:
    """Build the blinded view of one assignment from the store."""
    return blind_consultation(store, assignment.consultation_id, show_truth,
                              assignment_id=assignment.id, position=assignment.position,
                              calibration=assignment.calibration)


def blind_consultation(store: StudyStore, consultation_id: str, show_truth: bool = False, *,
                       assignment_id: str = "", position: int = 0,
                       calibration: bool = False) -> BlindItem:
    """The blinded view of one of the study's transcripts, also before anyone is assigned
    it (the judge's first call is made before it writes anything)."""
    transcript = store.study_transcript(consultation_id)
    case = store.study_case(transcript.case_id)
    reference = (case_reference(case, show_truth)
                 if case is not None and not case.placeholder else None)
    return BlindItem(assignment_id=assignment_id, position=position, calibration=calibration,
                     turns=blind_turns(transcript), reference=reference)


def rating_units(rubric: Rubric, turns: list[BlindTurn]) -> list[tuple[RubricItem, int]]:
    """Every (item, turn index) to answer: per-turn items on eligible turns, then the rest."""
    out = [(item, t.index) for t in turns for item in rubric.items
           if item.applies_to(t.role, t.kind)]
    return out + [(item, -1) for item in rubric.items if item.unit == "transcript"]


def missing_required(rubric: Rubric, turns: list[BlindTurn],
                     values: dict[Unit, Any]) -> list[tuple[RubricItem, int]]:
    """Required units that have no value yet."""
    return [(item, idx) for item, idx in rating_units(rubric, turns)
            if item.required and values.get((item.id, idx)) in (None, "")]


def transcript_units(store: StudyStore, consultation_id: str, rubric: Rubric) -> set[Unit]:
    """Every (item id, turn index) a rater of this transcript answers (-1: whole transcript)."""
    turns = blind_turns(store.study_transcript(consultation_id))
    return {(item.id, idx) for item, idx in rating_units(rubric, turns)}
