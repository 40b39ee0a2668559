"""Role views of a case: each agent is built from exactly one of these and nothing else.

The information partition lives here. A view is a separate, frozen pydantic model holding
copies of the fields that role may see, so an agent given a view has no path back to the
case:
- patient: demographics, persona, complaint, symptoms, history. No findings, no tests, no
  truth; a patient biased to talk of an illness also gets the differential's entries that
  can never be taken for the diagnosis (`core.biases.biased_view`).
- examiner: examination findings and test results only.
- doctor: the objective, the images shown up front (and how many more it may ask for) and
  multiple-choice options only.
- moderator: the ground-truth diagnosis (and accepted names) only.

Views are cheap to cut, so every agent gets a fresh one: the nested parts (profile, finding
trees) are dumped to plain data and validated back, which pydantic-core does in compiled code,
building new objects all the way down — several times faster than `model_copy(deep=True)`,
which walks the tree with `copy.deepcopy` in Python. Views are deliberately not cached and
shared between consultations: a view is frozen only at its top level (the `Item`s and lists
inside are ordinary mutable models), and a cache key that notices in-place edits of a case
would cost a good part of what it saves.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from core.case import Case, HistoryItem, ImageRef, Item, PatientProfile, Symptom
from core.images import UPFRONT, shown_upfront


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    case_id: str = Field(description="Which case this view was cut from.")
    language: str = Field(description="BCP-47 tag the agent should answer in.")


class PatientView(_View):
    """What the simulated patient knows."""

    profile: PatientProfile = Field(description="The patient's own knowledge of themself.")
    hearsay: list[str] = Field(
        default_factory=list, description="Illnesses the patient has heard of, for a bias "
        "that makes it talk of one: the case's differential less anything that could be "
        "taken for the diagnosis (`core.biases.hearsay`); empty for any other patient.")

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
    images_on_request: int = Field(0, description="How many more images the doctor may ask "
                                   "for with REQUEST IMAGES (not what they show).")
    options: list[str] = Field(description="Multiple-choice options, if the case has them.")


class ModeratorView(_View):
    """What the moderator needs to judge the doctor's diagnosis."""

    diagnosis: str = Field(description="The correct primary diagnosis.")
    synonyms: list[str] = Field(description="Accepted names for it.")
    icd10: list[str] = Field(description="ICD-10 codes, primary first.")
    correct_option: str | None = Field(description="Correct multiple-choice option, if any.")


def patient_view(case: Case, hearsay: list[str] | None = None) -> PatientView:
    """Cut the patient's view from a case (a deep copy of the patient profile); `hearsay`
    only for a biased patient (`core.biases.biased_view` decides and filters it)."""
    return PatientView.model_validate(
        {"case_id": case.id, "language": case.language, "profile": case.patient.model_dump(),
         "hearsay": list(hearsay or [])})


def examiner_view(case: Case) -> ExaminerView:
    """Cut the examiner's view from a case (deep copies of the finding trees)."""
    # One dump of the two fields, one validation: no per-item Python work. Every validator
    # on these models is an idempotent normaliser, so re-validating changes no value
    # (tests/test_views.py checks view == case part on every bundled and imported case).
    findings = case.model_dump(include={"physical_exam", "tests"})
    return ExaminerView.model_validate(
        {"case_id": case.id, "language": case.language, **findings})


def doctor_view(case: Case, images: str = UPFRONT) -> DoctorView:
    """Cut the doctor's view from a case; `images` is the `--images` mode (`core.images`)."""
    upfront = [i for i in case.images if shown_upfront(i, images)]
    return DoctorView(
        case_id=case.id,
        language=case.language,
        objective=case.objective,
        images=[i.model_copy() for i in upfront],
        images_on_request=len(case.images) - len(upfront),
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
