"""The case model, role views and the information partition."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from core.caseio import load_bundled_cases, parse_case, validate_case_errors
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
    assert set(d.model_dump()) == {"case_id", "language", "objective", "images",
                                     "images_on_request", "options"}
    assert case.truth.diagnosis.lower() not in d.model_dump_json().lower()
    m = moderator_view(case)
    assert m.diagnosis == case.truth.diagnosis
    assert "patient" not in m.model_dump() and "tests" not in m.model_dump()


def test_views_are_copies_not_references() -> None:
    case = CASES[0].model_copy(deep=True)
    view = examiner_view(case)
    case.tests[0].value = "tampered"
    assert view.tests[0].value != "tampered"
    with pytest.raises(ValidationError):
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


# -- authoring errors that YAML hides (bedside cases validate) --------------------------------
MINI = """\
id: t-1
title: T
language: en
specialty: x
objective: o
patient:
  primary_symptoms: [{name: cough}]
  history:
    - {kind: social, name: smoking, text: "I smoke ten a day."}
tests:
  - {name: Chest X-ray, value: clear}
expected_inquiry_order: [symptom:cough, history:social, test:Chest X-ray, diagnosis]
truth:
  diagnosis: d
"""


def test_the_minimal_case_is_clean() -> None:
    assert validate_case_errors(MINI, "m.yaml") == []
    assert parse_case(MINI, "m.yaml").id == "t-1"


def test_duplicate_key_is_rejected_with_file_line_and_key() -> None:
    text = MINI.replace("  diagnosis: d\n", "  diagnosis: d\n  diagnosis: e\n")
    with pytest.raises(InputError) as err:
        parse_case(text, "dup.yaml")  # loading refuses too: the last value must not win
    assert str(err.value) == ("dup.yaml:15: field 'truth.diagnosis': duplicate key 'diagnosis' "
                              "(first on line 14; YAML would keep only the last value)")
    nested = MINI.replace('text: "I smoke ten a day."}', 'text: "a", text: "b"}')
    [problem] = validate_case_errors(nested, "n.yaml")
    assert (problem.line, problem.field) == (9, "patient.history.0.text")


def test_inquiry_step_naming_no_item_is_reported() -> None:
    text = MINI.replace("test:Chest X-ray, diagnosis", "test:Troponin, symptom:cuogh, diagnosis")
    problems = validate_case_errors(text, "q.yaml")
    assert [(p.line, p.field) for p in problems] == [(12, "expected_inquiry_order.2"),
                                                     (12, "expected_inquiry_order.3")]
    assert str(problems[0]).startswith("q.yaml:12: field 'expected_inquiry_order.2': "
                                       "'test:Troponin' names no test item of this case")
    assert "chest x ray" in str(problems[0])  # says what the case does have
    # A step's name may be the history kind or the item's own name, in any case/spacing.
    ok = MINI.replace("history:social", "history:Smoking")
    assert validate_case_errors(ok, "ok.yaml") == []


@pytest.mark.parametrize("tag", ["en", "zh-Hans", "pt-BR", "es-419", "de-CH-1901", "fr"])
def test_bcp47_language_tags_are_accepted(tag: str) -> None:
    assert parse_case(MINI.replace("language: en", f"language: {tag}"), "l.yaml").language == tag


@pytest.mark.parametrize("tag", ["klingon-xx-yy-zz", "english", "e", "en_US", "zh-Han"])
def test_malformed_language_tags_are_rejected(tag: str) -> None:
    [problem] = validate_case_errors(MINI.replace("language: en", f"language: {tag}"), "l.yaml")
    assert (problem.line, problem.field) == (3, "language")
    assert "not a BCP-47 language tag" in problem.reason


def test_unquoted_boolean_or_number_gets_a_quote_hint() -> None:
    text = MINI.replace("  diagnosis: d\n", "  diagnosis: d\n  options: [yes, no]\n") \
        .replace("value: clear", "value: 7.9")
    problems = validate_case_errors(text, "u.yaml")
    by_field = {p.field: str(p) for p in problems}
    assert set(by_field) == {"tests.0.value", "truth.options.0", "truth.options.1"}
    assert by_field["truth.options.0"] == ("u.yaml:15: field 'truth.options.0': Input should "
                                           "be a valid string: YAML read yes as a boolean "
                                           "(quote the value)")
    assert by_field["tests.0.value"].startswith("u.yaml:11: field 'tests.0.value'")
    assert by_field["tests.0.value"].endswith("YAML read 7.9 as a number (quote the value)")
    # The loader's one-line error carries the same hint.
    with pytest.raises(InputError, match=r"\(quote the value\) \(and 2 more\)$"):
        parse_case(text, "u.yaml")


def test_an_unquoted_age_is_read_as_text() -> None:
    case = parse_case(MINI.replace("patient:\n", "patient:\n  demographics: {age: 58}\n"), "a")
    assert case.patient.demographics.age == "58"


def test_validate_command_reports_each_authoring_error(tmp_path) -> None:
    import subprocess
    import sys
    from pathlib import Path

    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "dup.yaml").write_text(MINI.replace("  diagnosis: d\n",
                                                  "  diagnosis: d\n  diagnosis: e\n"))
    (folder / "step.yaml").write_text(MINI.replace("id: t-1", "id: t-2")
                                      .replace("test:Chest X-ray", "test:Troponin"))
    (folder / "lang.yaml").write_text(MINI.replace("id: t-1", "id: t-3")
                                      .replace("language: en", "language: klingon-xx-yy-zz"))
    (folder / "opts.yaml").write_text(MINI.replace("id: t-1", "id: t-4")
                                      .replace("  diagnosis: d\n", "  diagnosis: d\n"
                                               "  options: [yes, 'no']\n"))
    # A second file with the same id is reported even though it has another problem too.
    (folder / "z-same-id.yaml").write_text(MINI.replace("id: t-1", "id: t-2")
                                           .replace("language: en", "language: english"))
    root = Path(__file__).resolve().parents[1]
    env = {"BEDSIDE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-m", "tui.cli", "cases", "validate", str(folder)],
                         cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "Traceback" not in out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[-1] == "5 files checked, 6 problems"
    expected = [f"{folder / 'dup.yaml'}:15: field 'truth.diagnosis': duplicate key",
                f"{folder / 'lang.yaml'}:3: field 'language':",
                f"{folder / 'opts.yaml'}:15: field 'truth.options.0':",
                f"{folder / 'step.yaml'}:12: field 'expected_inquiry_order.2':",
                f"{folder / 'z-same-id.yaml'}:3: field 'language':",
                f"{folder / 'z-same-id.yaml'}: field 'id': duplicate case id 't-2'"]
    for want, got in zip(expected, lines[:-1], strict=True):
        assert got.startswith(want), (want, got)
    assert lines[2].endswith("(quote the value)")
