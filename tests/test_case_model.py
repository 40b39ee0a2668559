"""The case model, role views and the information partition."""

from __future__ import annotations

import json

import pytest

from core.caseio import load_bundled_cases, parse_case
from core.errors import InputError
from core.views import doctor_view, examiner_view, moderator_view, patient_view

CASES = load_bundled_cases()


def _leaf_texts(case):
    return [item.value for _, _, item in case.findings() if item.value]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_patient_view_holds_no_result_and_no_diagnosis(case) -> None:
    text = patient_view(case).model_dump_json().lower()
    truth = case.truth
    for name in [truth.diagnosis, *truth.synonyms, *truth.icd10]:
        # Very short abbreviations (e.g. "MI") are checked as whole JSON words only.
        needle = name.lower()
        if len(needle) <= 3:
            assert f'"{needle}"' not in text, (case.id, name)
        else:
            assert needle not in text, (case.id, name)
    for value in _leaf_texts(case):
        if len(value) >= 12:  # short values like "Normal" may legitimately recur in history
            assert value.lower() not in text, (case.id, value)
    if truth.rationale:
        assert truth.rationale.lower() not in text


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_examiner_view_is_findings_only(case) -> None:
    view = examiner_view(case)
    assert set(view.model_dump()) == {"case_id", "language", "physical_exam", "tests"}
    dumped = view.model_dump_json().lower()
    assert case.truth.diagnosis.lower() not in dumped or any(
        case.truth.diagnosis.lower() in (v or "").lower() for v in _leaf_texts(case))


def test_doctor_and_moderator_views_hold_only_their_fields() -> None:
    case = CASES[0]
    d = doctor_view(case)
    assert set(d.model_dump()) == {"case_id", "language", "objective", "images", "options"}
    assert case.truth.diagnosis.lower() not in d.model_dump_json().lower()
    m = moderator_view(case)
    assert m.diagnosis == case.truth.diagnosis
    assert "patient" not in m.model_dump() and "tests" not in m.model_dump()


def test_views_are_copies_not_references() -> None:
    case = CASES[0].model_copy(deep=True)
    view = examiner_view(case)
    case.tests[0].value = "tampered"
    assert view.tests[0].value != "tampered"
    with pytest.raises(Exception):
        view.tests = []  # frozen


def test_history_accepts_a_mapping_and_inquiry_steps_accept_strings() -> None:
    case = parse_case(
        "id: t-1\ntitle: T\nspecialty: x\nobjective: o\n"
        "patient: {history: {social: smokes, family: none}}\n"
        "expected_inquiry_order: ['symptom:cough', test]\n"
        "truth: {diagnosis: d}\n", "t.yaml")
    assert [h.kind for h in case.patient.history] == ["social", "family"]
    assert case.expected_inquiry_order[0].name == "cough"
    assert case.expected_inquiry_order[1].category == "test"


def test_bad_field_names_file_line_and_field() -> None:
    text = "id: t-1\ntitle: T\nspecialty: x\nobjective: o\npatient: {}\ntests:\n" \
           "  - name: CBC\n    weight: heavy\ntruth: {diagnosis: d}\n"
    with pytest.raises(InputError) as err:
        parse_case(text, "bad.yaml")
    msg = str(err.value)
    assert msg.startswith("bad.yaml:8: field 'tests.0.weight'")
    assert "\n" not in msg


def test_yaml_syntax_error_names_the_line() -> None:
    with pytest.raises(InputError, match=r"^x.yaml:2: not valid YAML"):
        parse_case("id: a\ntitle: b: c\nspecialty: x\n", "x.yaml")


def test_item_tree_walk_and_render() -> None:
    case = CASES[0]
    paths = [p for _, p, _ in case.findings()]
    assert all(isinstance(p, tuple) and p for p in paths)
    rendered = case.tests[0].render()
    assert case.tests[0].name in rendered
    json.loads(case.model_dump_json())
