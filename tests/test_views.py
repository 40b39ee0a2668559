"""Role views are faithful, unshared deep copies: cutting them cheaply (dump + validate in
pydantic-core rather than `model_copy(deep=True)`) must keep every value, share no mutable
object with the case or with another view, and keep the top level frozen.

The information partition itself (which fields each role sees) is tested in
tests/test_case_model.py; this file tests the copying.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from core.case import Case, HistoryItem, Item, Symptom
from core.caseio import load_bundled_cases
from core.importers import import_file
from core.views import doctor_view, examiner_view, moderator_view, patient_view
from tests.importer_support import FIXTURES

CASES = load_bundled_cases()
PEER_FILES = FIXTURES.formats(dialog=False)  # our fixtures; the peers' own: tests/peers/


def _mutable_ids(value: Any, out: set[int] | None = None) -> set[int]:
    """The ids of every model, list and dict reachable from `value` (itself included)."""
    out = set() if out is None else out
    if isinstance(value, BaseModel):
        out.add(id(value))
        for field in value.__dict__.values():
            _mutable_ids(field, out)
    elif isinstance(value, list | dict):
        out.add(id(value))
        for item in value.values() if isinstance(value, dict) else value:
            _mutable_ids(item, out)
    return out


def _case_ids(case: Case) -> set[int]:
    out: set[int] = set()
    for part in (case.patient, case.physical_exam, case.tests, case.images, case.truth):
        _mutable_ids(part, out)
    return out


def _view_ids(view: BaseModel) -> set[int]:
    """The view's own mutable parts (not the view itself, which is the caller's)."""
    out: set[int] = set()
    for field in view.__dict__.values():
        _mutable_ids(field, out)
    return out


def assert_faithful_and_unshared(case: Case) -> None:
    """Each role view equals its part of the case and shares no mutable object with it."""
    patient, examiner = patient_view(case), examiner_view(case)
    assert patient.profile == case.patient
    assert examiner.physical_exam == case.physical_exam and examiner.tests == case.tests
    assert (patient.case_id, patient.language) == (examiner.case_id, examiner.language) == \
        (case.id, case.language)
    doctor = doctor_view(case)
    assert doctor.images == [i for i in case.images if i.given_upfront]
    owned = _case_ids(case)
    for view in (patient, examiner, doctor, moderator_view(case)):
        assert not _view_ids(view) & owned, type(view).__name__
    # Two consultations of the same case get two independent views.
    assert not _view_ids(examiner) & _view_ids(examiner_view(case))
    assert not _view_ids(patient) & _view_ids(patient_view(case))


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bundled_views_are_equal_and_share_no_mutable_object(case: Case) -> None:
    assert case.findings() and case.patient.symptoms()  # the copy has something to copy
    assert_faithful_and_unshared(case)


@pytest.mark.parametrize(("fmt", "sample"), PEER_FILES, ids=[s for _, s in PEER_FILES])
def test_imported_views_are_equal_and_share_no_mutable_object(fmt: str, sample: str) -> None:
    """Imported cases carry the odd shapes (deep trees, weights of 0.0, timings, CJK text)."""
    cases = import_file(fmt, FIXTURES.path(sample)).cases
    assert cases
    for case in cases:
        assert_faithful_and_unshared(case)


def _a_case() -> Case:
    case = next(c for c in CASES if any(t.children for t in c.tests)).model_copy(deep=True)
    assert case.patient.primary_symptoms
    return case


def test_in_place_edits_of_the_case_after_cutting_do_not_reach_the_view() -> None:
    case = _a_case()
    patient, examiner = patient_view(case), examiner_view(case)
    before = patient.model_dump_json(), examiner.model_dump_json()
    parent = next(t for t in case.tests if t.children)
    parent.children[0].value = "tampered"
    parent.children.append(Item(name="Injected", value="tampered"))
    parent.synonyms.append("tampered")
    case.physical_exam.clear()
    case.patient.primary_symptoms[0].description = "tampered"
    case.patient.history.append(HistoryItem(kind="other", text="tampered"))
    case.patient.demographics.age = "tampered"
    assert (patient.model_dump_json(), examiner.model_dump_json()) == before
    assert "tampered" not in before[0] + before[1]


def test_in_place_edits_before_cutting_reach_the_view() -> None:
    """Lists filled in place after construction (so not in the model's fields_set) are
    copied too: the cheap copy must not drop what `exclude_unset` would."""
    case = _a_case()
    leaf = next(item for _, _, item in case.findings() if not item.children)
    leaf.children.append(Item(name="Added analyte", value="7.1 mmol/L"))
    case.patient.secondary_symptoms.append(Symptom(name="added symptom"))
    examiner, patient = examiner_view(case), patient_view(case)
    assert "7.1 mmol/L" in examiner.model_dump_json()
    assert patient.symptoms[-1].name == "added symptom"
    assert examiner.tests == case.tests and patient.profile == case.patient


def test_editing_a_view_reaches_neither_the_case_nor_the_next_view() -> None:
    case = _a_case()
    original = case.model_dump_json()
    examiner = examiner_view(case)
    examiner.tests[0].value = "tampered"  # nested models are mutable; the view is its own
    examiner.tests[0].children.clear()
    patient = patient_view(case)
    patient.profile.primary_symptoms.clear()
    assert case.model_dump_json() == original
    assert examiner_view(case).tests == case.tests
    assert patient_view(case).profile.primary_symptoms == case.patient.primary_symptoms


@pytest.mark.parametrize(("cut", "field", "value"), [
    (patient_view, "profile", None), (examiner_view, "tests", []),
    (doctor_view, "objective", "x"), (moderator_view, "diagnosis", "x")])
def test_every_view_is_frozen(cut: Any, field: str, value: Any) -> None:
    view = cut(CASES[0])
    with pytest.raises(ValidationError):
        setattr(view, field, value)
    with pytest.raises(ValidationError):
        type(view).model_validate({**view.model_dump(), "truth": {}})  # no extra fields
