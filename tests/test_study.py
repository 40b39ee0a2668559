"""Reader studies, headless: definitions, assignment, blinding, saves/undo, export/import."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from annotation.assignment import load_definition, plan_assignments
from annotation.blinding import blind_item, missing_required, rating_units
from annotation.rubric_default import default_rubric
from annotation.study import parse_study
from core.errors import InputError
from core.records.studies import AssignmentRecord
from db.study_store import SqliteStudyStore
from tests.test_study_support import HOSTILE, SECRET_DOCTOR, SECRET_VERDICT, make_study, seed_db


# -- definitions --------------------------------------------------------------------------

def test_default_rubric_has_the_five_dimensions() -> None:
    r = default_rubric()
    ids = {i.id for i in r.items}
    assert {"realism_doctor", "realism_patient", "realism_examiner", "empathy_doctor",
            "patient_relevance", "patient_honesty", "examiner_accuracy", "comment"} <= ids
    realism = r.item("realism_doctor")
    assert realism.anchors == {1: "not realistic at all", 5: "semi-realistic",
                               10: "very realistic"}
    assert r.item("examiner_accuracy").options == ["yes", "no", "n/a"]
    assert r.item("patient_honesty").unit == "turn"


def test_toml_error_names_file_line_and_field() -> None:
    text = 'name = "x"\nraters = ["a", "b"]\n\n[select]\nsample = 0\n'
    with pytest.raises(InputError) as err:
        parse_study(text, "s.toml")
    assert str(err.value).startswith("s.toml:5: field 'select.sample'")


def test_toml_syntax_error_has_a_line() -> None:
    with pytest.raises(InputError, match=r"^s.toml:2: not valid TOML"):
        parse_study('name = "x"\nraters = [\n', "s.toml")


def test_yaml_rubric_error_points_at_the_item() -> None:
    text = ("name: x\nraters: [a]\nrubric:\n  items:\n    - id: ok\n      label: fine\n"
            "      kind: scale\n    - id: bad\n      label: no options\n      kind: choice\n")
    with pytest.raises(InputError) as err:
        parse_study(text, "s.yaml")
    assert str(err.value).startswith("s.yaml:8: field 'rubric.items.1'")
    assert "between 2 and 9 options" in str(err.value)


def test_unknown_key_and_too_few_raters_are_errors() -> None:
    with pytest.raises(InputError, match="field 'overlapp'"):
        parse_study("name: x\nraters: [a]\noverlapp: 1\n", "s.yml")
    with pytest.raises(InputError, match="overlap 3 needs at least 3 raters"):
        parse_study("name: x\nraters: [a, b]\noverlap: 3\n", "s.yml")


def test_yaml_yes_no_options_stay_text() -> None:
    text = ("name: x\nraters: [a]\noverlap: 1\nshow_truth: yes\nrubric:\n  items:\n"
            "    - {id: ok, label: Fine, kind: choice, options: [yes, no, 'n/a']}\n"
            "    - {id: lit, label: Lit, kind: choice, options: [on, off]}\n")
    d = parse_study(text, "s.yaml")
    assert d.rubric.items[0].options == ["yes", "no", "n/a"]
    assert d.rubric.items[1].options == ["on", "off"]
    assert d.show_truth is True  # pydantic still reads 'yes' as true for a boolean field


def test_misspelt_turn_kind_is_an_error_with_its_line() -> None:
    text = ("name: x\nraters: [a]\noverlap: 1\nrubric:\n  items:\n"
            "    - id: honest\n      label: Honest?\n      kind: choice\n      unit: turn\n"
            "      roles: [patient]\n      turn_kinds: [anwser]\n      options: [yes, no]\n")
    with pytest.raises(InputError, match=r"^s.yaml:6: field 'rubric.items.0': unknown turn "
                                         r"kind 'anwser' \(one of question, .*answer"):
        parse_study(text, "s.yaml")


@pytest.mark.parametrize("extra, why", [
    ('options = ["a", "b"]', "'options' does not apply to a scale item"),
    ('roles = ["patient"]', "'roles' does not apply to a scale item rated per transcript"),
])
def test_keys_that_would_be_ignored_are_errors(extra: str, why: str) -> None:
    text = ('name = "x"\nraters = ["a"]\noverlap = 1\n\n[[rubric.items]]\nid = "fine"\n'
            'label = "Fine"\nkind = "scale"\n\n[[rubric.items]]\nid = "bad"\n'
            f'label = "Bad"\nkind = "scale"\n{extra}\n')
    with pytest.raises(InputError) as err:
        parse_study(text, "s.toml")
    # the line of the second [[rubric.items]] header: found in the text, not left out
    assert str(err.value).startswith("s.toml:10: field 'rubric.items.1'")
    assert why in str(err.value)


def test_toml_field_error_inside_a_rubric_item_points_at_the_key() -> None:
    text = ('name = "x"\nraters = ["a"]\noverlap = 1\n\n[[rubric.items]]\nid = "a"\n'
            'label = "A"\nkind = "scale"\n\n[[rubric.items]]\nid = "b"\nlabel = "B"\n'
            'kind = "slider"\n')
    with pytest.raises(InputError, match=r"^s.toml:13: field 'rubric.items.1.kind'"):
        parse_study(text, "s.toml")
    inline = ('name = "x"\nraters = ["a"]\noverlap = 1\n[rubric]\nitems = [\n'
              '  {id = "a", label = "A", kind = "scale"},\n'
              '  {id = "b", label = "B", kind = "choice"},\n]\n')
    with pytest.raises(InputError, match=r"^s.toml:7: field 'rubric.items.1'"):
        parse_study(inline, "s.toml")


def test_example_study_files_are_valid() -> None:
    from annotation.study import load_study_file

    root = Path(__file__).resolve().parents[1] / "annotation" / "examples"
    d = load_study_file(root / "default_study.toml")
    assert d.rubric is None and d.effective_rubric().item("empathy_doctor") is not None
    custom = load_study_file(root / "custom_rubric_study.yaml")
    assert custom.rubric.item("question_clear").options == ["yes", "no"]
    assert custom.rubric.item("question_clear").applies_to("doctor", "question")
    assert not custom.rubric.item("question_clear").applies_to("doctor", "diagnosis")


# -- assignment ----------------------------------------------------------------------------

def test_plan_is_balanced_k_overlap_and_seeded() -> None:
    ids = [f"c{i}" for i in range(11)]
    plan = plan_assignments(ids, ["a", "b", "c", "d"], overlap=2, seed=3, calibration=2)
    calib = {c for c, cal in plan["a"] if cal}
    assert len(calib) == 2
    for _rater, items in plan.items():
        # calibration items come first, for everyone
        assert [cal for _, cal in items] == sorted((cal for _, cal in items), reverse=True)
        assert {c for c, cal in items if cal} == calib
    per_item = Counter(c for items in plan.values() for c, cal in items if not cal)
    assert set(per_item.values()) == {2} and len(per_item) == 9
    loads = [sum(not cal for _, cal in items) for items in plan.values()]
    assert max(loads) - min(loads) <= 1  # 18 ratings over 4 raters: 4 or 5 each
    assert plan == plan_assignments(ids, ["a", "b", "c", "d"], overlap=2, seed=3, calibration=2)
    other = plan_assignments(ids, ["a", "b", "c", "d"], overlap=2, seed=4, calibration=2)
    assert other != plan


def test_create_study_from_file(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    study = SqliteStudyStore(db).get_study("pilot")
    assert study.id == sid
    assert load_definition(study).rubric is not None  # stored spelled out
    assert len(SqliteStudyStore(db).study_consultations(sid)) == study.transcripts == 6
    # 1 calibration × 3 raters + 5 × 2 overlap
    assert db["assignments"].count == study.assignments == 13
    assert (study.raters, study.done, study.skipped, study.finished) == (3, 0, 0, 0)
    with pytest.raises(InputError, match="already exists"):
        make_study(db, tmp_path)


def test_selection_matching_nothing_is_an_input_error(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db", n=2)
    text = 'name = "none"\nraters = ["a"]\noverlap = 1\n[select]\nmodels = ["nobody"]\n'
    with pytest.raises(InputError, match="field 'select'"):
        make_study(db, tmp_path, text)


def test_sources_match_imported_transcripts_by_their_origin(tmp_path: Path) -> None:
    from annotation.assignment import select_consultations
    from annotation.study import Selection
    from core.case import Case
    from db.cases import save_cases
    from db.consultations import save_transcript
    from tests.test_study_support import transcript

    db = seed_db(tmp_path / "s.db", n=2)
    stand_in = Case(id="aihospital-p1", title="Imported", specialty="unknown", source="imported",
                    objective="-", patient={}, truth={"diagnosis": "unknown"}, placeholder=True)
    save_cases(db, [stand_in])
    save_transcript(db, transcript(stand_in.id, 9), consultation_id="imp-1",
                    origin="import:aihospital-dialog")
    store = SqliteStudyStore(db)
    for sources in (["aihospital"], ["aihospital-dialog"], ["import:aihospital-*"]):
        assert select_consultations(store, Selection(sources=sources)) == ["imp-1"]
    assert "imp-1" not in select_consultations(store, Selection(sources=["bedside"]))
    assert select_consultations(store, Selection(sources=["imported"])) == ["imp-1"]


def test_cli_points_selection_errors_at_the_study_file(tmp_path: Path, capsys) -> None:
    from tui.cli import main

    seed_db(tmp_path / "s.db", n=2).close()
    f = tmp_path / "s.toml"
    f.write_text('name = "none"\nraters = ["a"]\noverlap = 1\n\n[select]\n'
                 'sources = ["aihospital"]\n', encoding="utf-8")
    assert main(["--db", str(tmp_path / "s.db"), "study", "create", str(f)]) == 2
    assert f"{f}:5: field 'select': matches no finished transcript" in capsys.readouterr().err
    f.write_text('name = "cal"\nraters = ["a"]\noverlap = 1\ncalibration = 5\n',
                 encoding="utf-8")
    assert main(["--db", str(tmp_path / "s.db"), "study", "create", str(f)]) == 2
    assert f"{f}:4: field 'calibration': 5 calibration" in capsys.readouterr().err


# -- blinding -------------------------------------------------------------------------------

def _assignment(consultation_id: str) -> AssignmentRecord:
    """An assignment of one transcript that is not stored (blinding needs only the record)."""
    return AssignmentRecord(id="x", study_id="s", rater_id="r", consultation_id=consultation_id,
                            position=0, calibration=False, status="pending",
                            updated_at="2025-01-01T00:00:00.000Z")


def test_blind_item_hides_doctor_verdict_config_and_case_id(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    store = SqliteStudyStore(db)
    a = store.next_assignment(sid, store.get_rater("alice").id)
    assert a is not None
    item = blind_item(store, a)
    dumped = item.model_dump_json()
    case_id = db["consultations"].get(a.consultation_id)["case_id"]
    for secret in (SECRET_DOCTOR, SECRET_VERDICT, case_id, "correct", a.consultation_id):
        assert secret not in dumped
    assert [t.role for t in item.turns] == ["doctor", "patient", "doctor", "examiner", "doctor"]
    assert item.turns[1].content == HOSTILE  # verbatim; rendering makes it literal
    assert item.reference is not None and item.reference.truth is None
    shown = blind_item(store, a, show_truth=True)
    assert shown.reference.truth


def test_rating_units_attach_per_turn_items_to_their_turns(tmp_path: Path) -> None:
    store = SqliteStudyStore(seed_db(tmp_path / "s.db", n=1))
    item = blind_item(store, _assignment("c00"))
    units = [(i.id, idx) for i, idx in rating_units(default_rubric(), item.turns)]
    assert ("patient_honesty", 2) in units and ("examiner_accuracy", 4) in units
    assert ("patient_honesty", 4) not in units and ("realism_doctor", -1) in units
    missing = {i.id for i, _ in missing_required(default_rubric(), item.turns, {})}
    assert missing == {"realism_doctor", "realism_patient", "realism_examiner",
                       "empathy_doctor"}


def test_rater_view_holds_no_selection_and_no_raters(tmp_path: Path) -> None:
    from annotation.blinding import rater_view

    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    view = rater_view(load_definition(SqliteStudyStore(db).get_study(sid)))
    held = view.model_dump_json()
    assert view.study == "pilot" and view.rubric.item("empathy_doctor") is not None
    for secret in (SECRET_DOCTOR, "bob", "carol", "select", "seed"):
        assert secret not in held


def test_imported_dialogue_with_a_stand_in_case_has_no_reference(tmp_path: Path) -> None:
    from core.case import Case
    from db.cases import save_cases
    from db.consultations import save_transcript
    from tests.test_study_support import transcript

    db = seed_db(tmp_path / "s.db", n=1)
    stand_in = Case(id="aihospital-p1", title="Imported transcript", specialty="unknown",
                    source="imported", objective="(case record not available)", patient={},
                    truth={"diagnosis": "unknown"}, placeholder=True)
    save_cases(db, [stand_in])
    save_transcript(db, transcript(stand_in.id, 1), consultation_id="imp-1",
                    origin="import:aihospital-dialog")
    store = SqliteStudyStore(db)
    assert blind_item(store, _assignment("imp-1")).reference is None
    assert blind_item(store, _assignment("imp-1"), show_truth=True).reference is None
