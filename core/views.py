"""Role views of a case: each agent is built from exactly one of these and nothing else.

The information partition lives here. A view is a separate, frozen pydantic model holding
copies of the fields that role may see, so an agent given a view has no path back to the
case:
- patient: demographics, persona, complaint, symptoms, history. No findings, no tests, no
  truth.
- examiner: examination findings and test results only.
- doctor: the objective, up-front images and multiple-choice options only.
- moderator: the ground-truth diagnosis (and accepted names) only.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from core.case import Case, HistoryItem, ImageRef, Item, PatientProfile, Symptom


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    case_id: str = Field(description="Which case this view was cut from.")
    language: str = Field(description="BCP-47 tag the agent should answer in.")


class PatientView(_View):
    """What the simulated patient knows."""

    profile: PatientProfile = Field(description="The patient's own knowledge of themself.")

    @property
    def symptoms(self) -> list[Symptom]:
        """Primary then secondary symptoms."""
        return self.profile.symptoms()

    @property
    def history(self) -> list[HistoryItem]:
        """All history items."""
        return self.profile.history


class ExaminerView(_View):
    """What the examiner can report: findings and results, nothing else."""

    physical_exam: list[Item] = Field(description="Examination findings.")
    tests: list[Item] = Field(description="Test results.")


class DoctorView(_View):
    """What the doctor is told before asking anything."""

    objective: str = Field(description="The task statement / opening.")
    images: list[ImageRef] = Field(description="Images shown up front.")
    options: list[str] = Field(description="Multiple-choice options, if the case has them.")


class ModeratorView(_View):
    """What the moderator needs to judge the doctor's diagnosis."""

    diagnosis: str = Field(description="The correct primary diagnosis.")
    synonyms: list[str] = Field(description="Accepted names for it.")
    icd10: list[str] = Field(description="ICD-10 codes, primary first.")
    correct_option: str | None = Field(description="Correct multiple-choice option, if any.")


def patient_view(case: Case) -> PatientView:
    """Cut the patient's view from a case."""
    return PatientView(
        case_id=case.id, language=case.language, profile=case.patient.model_copy(deep=True)
    )


def examiner_view(case: Case) -> ExaminerView:
    """Cut the examiner's view from a case."""
    return ExaminerView(
        case_id=case.id,
        language=case.language,
        physical_exam=[i.model_copy(deep=True) for i in case.physical_exam],
        tests=[i.model_copy(deep=True) for i in case.tests],
    )


def doctor_view(case: Case) -> DoctorView:
    """Cut the doctor's view from a case."""
    return DoctorView(
        case_id=case.id,
        language=case.language,
        objective=case.objective,
        images=[i.model_copy() for i in case.images if i.given_upfront],
        options=list(case.truth.options),
    )


def moderator_view(case: Case) -> ModeratorView:
    """Cut the moderator's view from a case."""
    truth = case.truth
    return ModeratorView(
        case_id=case.id,
        language=case.language,
        diagnosis=truth.diagnosis,
        synonyms=list(truth.synonyms),
        icd10=list(truth.icd10),
        correct_option=truth.correct_option,
    )
