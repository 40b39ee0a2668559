"""Importers from the peer benchmarks' formats: real samples (read in place from the shared
folder beside the repo, never copied) and synthetic malformed or odd inputs in tmp_path.

The samples are expected in ../shared/peers beside the checkout (as in CI); the environment
variable BEDSIDE_PEERS names another folder. A missing sample fails the test with a message
saying where it was looked for — it is never skipped.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from core.agents.retrieval_examiner import RetrievalExaminer
from core.case import Case
from core.errors import InputError
from core.importers import FORMATS, ImportResult, import_file
from core.transcript import EndReason, Role
from core.views import doctor_view, examiner_view, patient_view

MEDQA = "agentclinic/agentclinic_medqa_sample.jsonl"
NEJM = "agentclinic/agentclinic_nejm_sample.jsonl"
AIH_ZH = "ai_hospital/patients_zh_sample.json"
AIH_EN = "ai_hospital/patients_en_sample.json"
DIALOG = "ai_hospital/dialog_history_sample.jsonl"
RJUA = "rjua/sp_test_case.csv"
RJUA_HEADER = "类目大项,类目子项,结果,约束,备注,上位词,得分项分类\n"


def peers_root() -> Path:
    """$BEDSIDE_PEERS, else the shared folder beside the checkout."""
    override = os.environ.get("BEDSIDE_PEERS")
    return Path(override) if override else Path(__file__).resolve().parents[2] / "shared" / "peers"


def peer(relative: str) -> Path:
    """The path of a peer sample; fails (never skips) with where it was expected."""
    path = peers_root() / relative
    if not path.is_file():
        pytest.fail(f"peer sample '{relative}' not found in {peers_root()}: the samples are "
                    "expected in ../shared/peers beside the checkout, or in the folder named "
                    "by the environment variable BEDSIDE_PEERS", pytrace=False)
    return path


def _roundtrip(result: ImportResult) -> None:
    """Every case validates and survives a dump/validate round trip unchanged."""
    for case in result.cases:
        again = Case.model_validate(case.model_dump())
        assert again == case
        assert Case.model_validate_json(case.model_dump_json()) == case


def _tree_text(items: list[Any]) -> str:
    return "\n".join(root.render() for root in items)


def _string_leaves(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _string_leaves(v)]
    if isinstance(value, list):
        return [s for v in value for s in _string_leaves(v)]
    return [value] if isinstance(value, str) and value.strip() else []


def _find(items: list[Any], *path: str) -> Any:
    """The item at a name path (first match at each level)."""
    level, found = items, None
    for name in path:
        found = next(i for i in level if i.name == name)
        level = found.children
    return found


# ---------------------------------------------------------------- formats and dispatch


def test_formats_are_listed_and_unknown_format_names_them(tmp_path: Path) -> None:
    assert set(FORMATS) == {"agentclinic", "agentclinic-nejm", "aihospital",
                            "aihospital-dialog", "rjua"}
    with pytest.raises(InputError) as err:
        import_file("medqa", peer(MEDQA))
    assert "unknown format 'medqa'" in str(err.value) and "aihospital-dialog" in str(err.value)
    with pytest.raises(InputError, match="no such file"):
        import_file("rjua", tmp_path / "missing.csv")


def test_missing_peer_folder_fails_with_where_it_is_expected(tmp_path: Path,
                                                              monkeypatch) -> None:
    monkeypatch.setenv("BEDSIDE_PEERS", str(tmp_path / "nowhere"))
    with pytest.raises(pytest.fail.Exception) as err:
        peer(MEDQA)
    message = str(err.value)
    assert str(tmp_path / "nowhere") in message and "BEDSIDE_PEERS" in message
    assert "../shared/peers" in message
    (tmp_path / "mine" / "agentclinic").mkdir(parents=True)
    (tmp_path / "mine" / MEDQA).write_text("{}", encoding="utf-8")
    monkeypatch.setenv("BEDSIDE_PEERS", str(tmp_path / "mine"))
    assert peer(MEDQA) == tmp_path / "mine" / MEDQA


# ---------------------------------------------------------------- reading files

_OSCE_LINE = json.dumps({"OSCE_Examination": {"Correct_Diagnosis": "Gout\u2028(acute)",
                                               "Objective_for_Doctor": "Assess\u2029the toe.",
                                               "Patient_Actor": {"History": "Pain\u0085"}}},
                        ensure_ascii=False)


@pytest.mark.parametrize(("name", "data"), [
    ("crlf", (_OSCE_LINE + "\r\n\r\n" + _OSCE_LINE + "\r\n").encode()),
    ("bom", b"\xef\xbb\xbf" + (_OSCE_LINE + "\n" + _OSCE_LINE).encode()),
    ("no-final-newline", (_OSCE_LINE + "\n\n   \n" + _OSCE_LINE).encode()),
    ("json-list", ("[\n" + _OSCE_LINE + ",\n" + _OSCE_LINE + "\n]").encode()),
])
def test_jsonl_variants_load(tmp_path: Path, name: str, data: bytes) -> None:
    """U+2028/U+2029/U+0085 inside strings (json.dumps writes them raw) do not end lines."""
    path = tmp_path / f"{name}.jsonl"
    path.write_bytes(data)
    cases = import_file("agentclinic", path).cases
    assert len(cases) == 2 and cases[0].truth.diagnosis == "Gout\u2028(acute)"
    assert cases[1].id.endswith(str(3 if name in ("crlf", "json-list") else
                                    4 if name == "no-final-newline" else 2))


@pytest.mark.parametrize(("fmt", "data", "line", "needle"), [
    ("agentclinic", b"", None, "no cases in the file"),
    ("aihospital", b"[]", None, "no records in the file"),
    ("aihospital-dialog", b"\n\n", None, "no dialogues in the file"),
    ("agentclinic-nejm", "caf\u00e9\n".encode("latin-1") * 2, 1, "not UTF-8"),
    ("aihospital", "[{}]".encode("utf-16"), 1, "UTF-16"),
    ("agentclinic", b'{"OSCE_Examination": {}}\n' + b"[" * 5000 + b"]" * 5000, 2,
     "nested too deeply"),
    ("aihospital", b"[\n" + b'{"a":' * 3000 + b"1" + b"}" * 3000 + b"\n]", 2,
     "nested too deeply"),
    ("aihospital-dialog", b'{"dialog_history": ' + b"[" * 150 + b"]" * 150 + b"}", 1,
     "nested too deeply"),
    ("aihospital", b'[{"medical_record": {"x": 1}},\n 7]', 2, "expected a JSON object"),
    ("aihospital", b'[{"id": 1}] trailing', 1, "extra data after the list"),
    ("agentclinic-nejm", b'{\n  "question": "Q",\n  "answers": [,]\n}', 3, "not valid JSON"),
])
def test_bad_files_give_one_line_errors(tmp_path: Path, fmt: str, data: bytes,
                                        line: int | None, needle: str) -> None:
    path = tmp_path / "bad.data"
    path.write_bytes(data)
    with pytest.raises(InputError) as err:
        import_file(fmt, path)
    message = str(err.value)
    assert "\n" not in message and needle in message
    assert message.startswith(f"{path}:{line}:" if line else f"{path}:")


# ---------------------------------------------------------------- AgentClinic MedQA


def test_agentclinic_sample() -> None:
    result = import_file("agentclinic", peer(MEDQA))
    assert len(result.cases) == 5 and result.warnings == []
    _roundtrip(result)
    first = result.cases[0]
    assert first.id == "agentclinic-agentclinic_medqa_sample-1"
    assert (first.source, first.licence, first.specialty) == ("agentclinic", "MIT", "general")
    assert first.truth.diagnosis == "Myasthenia gravis"
    assert first.patient.demographics.age == "35" and first.patient.demographics.sex == "female"
    assert first.patient.primary_symptoms[0].name == "Double vision"
    assert len(first.patient.secondary_symptoms) == 3
    kinds = {h.kind for h in first.patient.history}
    assert kinds == {"past_medical", "social", "review_of_systems"}
    assert _find(first.physical_exam, "Vital Signs", "Heart Rate").value == "72 bpm"
    assert _find(first.tests, "Imaging", "Chest CT", "Findings").value.startswith("Normal, no")
    assert "myasthenia" not in first.title.lower()
    infant = result.cases[2]
    assert infant.patient.demographics.age == "8 months"
    assert _find(infant.tests, "Barium Enema", "Findings").value.endswith("Hirschsprung disease")


def test_agentclinic_sample_loses_no_leaf_text() -> None:
    lines = [json.loads(ln) for ln in peer(MEDQA).read_text(encoding="utf-8").splitlines() if ln]
    for case, raw in zip(import_file("agentclinic", peer(MEDQA)).cases, lines, strict=True):
        osce = raw["OSCE_Examination"]
        text = _tree_text(case.physical_exam) + _tree_text(case.tests)
        for leaf in _string_leaves(osce["Physical_Examination_Findings"]) + \
                _string_leaves(osce["Test_Results"]):
            assert leaf in text, (case.id, leaf)


def _odd_osce() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """An OSCE record with odd key spellings, lists, numbers and deep nesting."""
    exam = {
        "vital signs": {"Temp": 38.2, "BP": "90/60", "SpO2": [94, "on room air"]},
        "VitalSigns": {"HR": 120},
        "Skin_Findings": ["petechiae on legs", "no rash elsewhere"],
        "Chest": {"Auscultation": {"Left": {"Upper_Zone": {"Breath_Sounds": "bronchial"}}}},
        "Abdomen": "Soft",
        "Reflexes": True,
        "Notes": None,
    }
    tests = {
        "Blood_Cultures": [{"Bottle": 1, "Result": "Gram-negative rods"},
                           {"Bottle": 2, "Result": "pending"}],
        "Lactate": 4.1,
        "Imaging": [{"CXR": "left lower lobe consolidation"}, "CT deferred"],
    }
    osce = {"OSCE_Examination": {
        "Objective_for_Doctor": "Assess the febrile patient.",
        "Patient_Actor": {
            "Demographics": "70-year-old man",
            "History": "Fever for two days.",
            "Symptoms": {"Primary_Symptom": ["Fever", "Rigors"], "Secondary_Symptoms": "Cough",
                         "Duration": "2 days"},
            "Family_History": "Mother had diabetes.",
            "Medications": ["Metformin", "Ramipril"],
            "Allergies": "Penicillin",
            "Past_Surgical_History": "Appendicectomy",
            "Menstrual_History": "Not applicable",
            "Travel": {"Recent": "Spain"},
        },
        "Physical_Examination_Findings": exam,
        "Test_Results": tests,
        "Lab_Results": {"Troponin": "0.01 ng/mL"},
        "Teaching_Points": {"Key": "CURB-65"},
        "Correct_Diagnosis": "Pneumococcal pneumonia with sepsis",
    }}
    return exam, tests, osce


def test_agentclinic_free_form_nesting(tmp_path: Path) -> None:
    exam, tests, osce = _odd_osce()
    good = json.dumps(osce)
    path = tmp_path / "extended.jsonl"
    path.write_text(f"\n{good}\n\n{good}", encoding="utf-8")  # blank lines; no final newline
    result = import_file("agentclinic", path)
    _roundtrip(result)
    assert [c.id for c in result.cases] == ["agentclinic-extended-2", "agentclinic-extended-4"]
    case = result.cases[1]
    names = [i.name for i in case.physical_exam]
    assert names == ["vital signs", "Vital Signs", "Skin Findings", "Chest", "Abdomen",
                     "Reflexes", "Notes"]
    assert _find(case.physical_exam, "vital signs", "Temp").value == "38.2"
    assert _find(case.physical_exam, "vital signs", "SpO2").value == "94; on room air"
    assert _find(case.physical_exam, "Chest", "Auscultation", "Left", "Upper Zone",
                 "Breath Sounds").value == "bronchial"
    assert _find(case.physical_exam, "Reflexes").value == "true"
    assert _find(case.tests, "Blood Cultures", "Blood Cultures 2", "Result").value == "pending"
    assert _find(case.tests, "Lactate").value == "4.1"
    assert _find(case.tests, "Troponin").value == "0.01 ng/mL"  # a second test section
    assert case.truth.extra["Teaching_Points"] == "Key: CURB-65"  # unknown key kept
    assert any("Teaching_Points" in w and "extended.jsonl:4" in w for w in result.warnings)
    text = _tree_text(case.physical_exam) + _tree_text(case.tests)
    for leaf in _string_leaves(exam) + _string_leaves(tests):
        assert leaf in text, leaf
    kinds = {(h.kind, h.name) for h in case.patient.history}
    assert {("family", None), ("medication", None), ("allergy", None), ("surgical", None),
            ("menstrual_obstetric", None), ("other", "Travel")} <= kinds
    assert [s.name for s in case.patient.primary_symptoms] == ["Fever", "Rigors"]
    assert case.patient.secondary_symptoms[0].name == "Cough"
    assert any(h.name == "Symptoms: Duration" for h in case.patient.history)
    assert case.patient.demographics.sex == "male"


def test_agentclinic_sample_patient_sees_no_finding() -> None:
    """No examination or test text of the sample reaches the patient's view."""
    raw = [json.loads(ln) for ln in peer(MEDQA).read_text(encoding="utf-8").splitlines() if ln]
    for case, line in zip(import_file("agentclinic", peer(MEDQA)).cases, raw, strict=True):
        osce = line["OSCE_Examination"]
        seen = patient_view(case).model_dump_json()
        leaves = _string_leaves(osce["Physical_Examination_Findings"]) + \
            _string_leaves(osce["Test_Results"])
        for leaf in (x for x in leaves if len(x) > 20):
            assert leaf not in seen, (case.id, leaf)
        assert osce["Correct_Diagnosis"] not in seen


def test_agentclinic_key_spellings_route_to_the_examiner(tmp_path: Path) -> None:
    """Exam/test sections under any spelling reach the examiner, never truth.extra; an
    empty Correct_Diagnosis falls back to a filled Diagnosis; sections misplaced inside
    Patient_Actor leave the patient."""
    osce = {"OSCE_Examination": {
        "Objective_for_Doctor": "Assess the patient with chest pain.",
        "Patient_Actor": {"Demographics": "60-year-old man", "History": "Chest pain for 1 h.",
                          "Symptoms": {"Primary_Symptom": "Chest pain"},
                          "Vital_Signs": {"BP": "150/90"},
                          "Test_Results": {"Troponin": "raised"},
                          "Past_Diagnoses": "Hypertension"},
        "Exam_Findings": {"Heart": "S4 gallop"},
        "Imaging": {"Chest_X-Ray": "normal mediastinum"},
        "Lab_Results": ["CK-MB 40", "K 4.1"],
        "ECG": "ST elevation in II, III, aVF",
        "Differential_Diagnosis": ["Aortic dissection", "Pericarditis"],
        "Management": "Primary PCI",
        "Correct_Diagnosis": "",
        "Diagnosis": "Inferior STEMI",
    }}
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps(osce), encoding="utf-8")
    result = import_file("agentclinic", path)
    case = result.cases[0]
    assert case.truth.diagnosis == "Inferior STEMI"
    assert any("'Correct_Diagnosis' is empty" in w for w in result.warnings)
    assert _find(case.physical_exam, "Heart").value == "S4 gallop"
    assert _find(case.physical_exam, "BP").value == "150/90"  # lifted out of Patient_Actor
    assert _find(case.tests, "Chest X-Ray").value == "normal mediastinum"
    assert _find(case.tests, "Troponin").value == "raised"
    assert _find(case.tests, "Lab Results").value == "CK-MB 40; K 4.1"
    assert _find(case.tests, "ECG").value == "ST elevation in II, III, aVF"
    assert case.truth.extra == {}  # nothing left unrouted
    assert case.truth.differential == ["Aortic dissection", "Pericarditis"]
    assert case.truth.treatment == "Primary PCI"
    seen = patient_view(case).model_dump_json()
    assert "150/90" not in seen and "raised" not in seen and "S4" not in seen
    assert "Hypertension" in seen  # the patient's own past diagnoses stay with the patient
    moved = [w for w in result.warnings if "moved to the examiner" in w]
    assert len(moved) == 2 and all("odd.jsonl:1" in w for w in moved)


def test_agentclinic_bare_osce_line_and_list_diagnosis(tmp_path: Path) -> None:
    record = {"Objective_for_Doctor": "Assess.", "Patient_Actor": {"History": "Cough."},
              "Test_Results": {"CXR": "consolidation"},
              "Final_Diagnosis": ["Pneumonia", "Sepsis"]}
    path = tmp_path / "bare.jsonl"
    path.write_text(json.dumps(record) + "\r\n", encoding="utf-8")
    result = import_file("agentclinic", path)
    case = result.cases[0]
    assert case.truth.diagnosis == "Pneumonia" and case.truth.other_names() == ["Sepsis"]
    assert any("no OSCE_Examination key" in w for w in result.warnings)
    odd = {"OSCE_Examination": {"Patient_Actor": "A 30-year-old man with a cough.",
                                "History": "Since childhood.",
                                "Correct_Diagnosis": {"Primary": "Asthma", "Other": "Eczema"}}}
    path.write_text(json.dumps(odd), encoding="utf-8")
    case = import_file("agentclinic", path).cases[0]
    assert case.patient.history_of_present_illness == ("A 30-year-old man with a cough.\n"
                                                       "Since childhood.")
    assert case.truth.diagnosis == "Asthma" and case.truth.other_names() == ["Eczema"]


@pytest.mark.parametrize(("content", "line", "needle"), [
    ('{"OSCE_Examination": {"Correct_Diagnosis": "X"}}\n{"OSCE_Examination": ', 2,
     "not valid JSON"),
    ('\n\n{"Something": 1}\n', 3, "OSCE_Examination"),
    ('{"OSCE_Examination": {"Objective_for_Doctor": "x"}}', 1, "Correct_Diagnosis"),
    ('[1, 2]\n', 1, "expected a JSON object"),
])
def test_agentclinic_malformed(tmp_path: Path, content: str, line: int, needle: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_file("agentclinic", path)
    assert f"{path}:{line}" in str(err.value) and needle in str(err.value)
    assert "\n" not in str(err.value)


# ---------------------------------------------------------------- AgentClinic NEJM


def _sentences(text: str) -> list[str]:
    """Rough sentence split for assertions (independent of the importer's own splitter)."""
    import re

    parts = re.split(r"(?<=[.?!])\s+|\s+-\s+|\s\d\.\s", text)
    return [p.strip(" .") for p in parts if len(p.strip(" .")) > 15]


def test_nejm_sample() -> None:
    result = import_file("agentclinic-nejm", peer(NEJM))
    assert len(result.cases) == 3
    _roundtrip(result)
    case = result.cases[0]
    assert case.truth.diagnosis == case.truth.correct_option == "Exogenous ochronosis"
    assert len(case.truth.options) == 5 and "Contact dermatitis" in case.truth.options
    assert case.images[0].url.startswith("https://csvc.nejm.org/") and case.images[0].given_upfront
    assert doctor_view(case).images[0].url == case.images[0].url  # the image is given up front
    assert case.objective.startswith("A 55-year-old woman presented to the dermatology clinic")
    assert case.objective.endswith("What is the most likely diagnosis?")
    assert "hydroquinone" in case.patient.history_of_present_illness
    assert case.specialty == "dermatology" and case.patient.demographics.age == "55"
    assert result.cases[2].truth.diagnosis == "Pulmonary Sarcoidosis"
    assert all("sarcoidosis" not in c.title.lower() for c in result.cases)
    assert result.cases[2].objective.endswith("Which of the following is the most likely "
                                              "diagnosis?")


def test_nejm_findings_reach_only_the_examiner() -> None:
    """No sentence of the exam text, nor of the question's findings, reaches the doctor."""
    raw = [json.loads(ln) for ln in peer(NEJM).read_text(encoding="utf-8").splitlines() if ln]
    for case, record in zip(import_file("agentclinic-nejm", peer(NEJM)).cases, raw, strict=True):
        shown = doctor_view(case).model_dump_json()
        for sentence in _sentences(record["physical_exams"]):
            assert sentence not in shown, (case.id, sentence)
        for marker in ("biopsy", "CT scan", "Dermoscopy", "On physical examination",
                       "computed tomography", "Laboratory testing"):
            assert marker.lower() not in case.objective.lower(), (case.id, marker)
        assert case.truth.extra["question"] == record["question"]  # nothing is lost
        assert case.truth.extra["physical_exams"] == record["physical_exams"]
    case = import_file("agentclinic-nejm", peer(NEJM)).cases[0]
    examiner = RetrievalExaminer(examiner_view(case))
    text, reported = examiner.report(["skin biopsy"])
    assert "banana-shaped bodies in the dermis" in text and "normal" not in text.lower()
    assert reported == ["Skin biopsy"]
    text, _ = examiner.report(["dermoscopy"])
    assert "Hyperchromic, pinpoint macules" in text
    text, _ = examiner.report(["physical examination"])
    assert "bluish-brown patches" in text  # the question's exam sentence, for the examiner


def test_nejm_labelled_segments_and_headings() -> None:
    cases = import_file("agentclinic-nejm", peer(NEJM)).cases
    boy = cases[1]  # "Laboratory testing results: - ... Imaging results: - CT scan of the neck: ..."
    labs = _find(boy.tests, "Laboratory testing")
    assert labs.value == "Peripheral eosinophilia present"
    assert _find(boy.tests, "Laboratory testing", "Tests for histoplasmosis").value == "Negative"
    assert _find(boy.tests, "Imaging", "CT scan of the neck").value.startswith("Hyperattenuating")
    # A test the question names but physical_exams does not carry becomes its own item.
    assert _find(boy.tests, "Lymph node biopsy").value == "Lymph node biopsy results are shown."
    woman = cases[2]
    assert _find(woman.tests, "Transbronchial lung biopsy").value.startswith("Showed multiple")
    examiner = RetrievalExaminer(examiner_view(woman))
    assert "noncaseating granulomas" in examiner.report(["lung biopsy"])[0]


def test_nejm_no_findings_note_and_odd_shapes(tmp_path: Path) -> None:
    """The source's 'no instrument readings' note is no finding; findings may be a dict."""
    base = {"question": "A 40-year-old man presented with a rash on his back. On physical "
            "examination, crusted papules were seen. A skin biopsy showed transepidermal "
            "elimination of collagen. What is the most likely diagnosis?",
            "answers": [{"text": "Reactive perforating collagenosis", "correct": "true"},
                        {"text": "Folliculitis", "correct": False}]}
    note = dict(base, physical_exams="The information provided does not include specific "
                "instrument readings or numerical test results.")
    nested = dict(base, physical_exams={"Skin_Biopsy": {"Histology": "collagen extrusion"}},
                  type="dermatology", patient_info=["I have an itchy rash.", "It is on my back."])
    path = tmp_path / "nejm.jsonl"
    path.write_text(json.dumps(note) + "\n" + json.dumps(nested), encoding="utf-8")
    result = import_file("agentclinic-nejm", path)
    first, second = result.cases
    assert any("nejm.jsonl:1" in w and "no findings" in w for w in result.warnings)
    assert [i.name for i in first.tests] == ["Skin biopsy"]  # from the question, not the note
    assert "transepidermal" in first.tests[0].value
    assert "instrument readings" not in examiner_view(first).model_dump_json()
    assert _find(second.tests, "Skin Biopsy", "Histology").value == "collagen extrusion"
    assert second.objective == ("A 40-year-old man presented with a rash on his back. "
                                "What is the most likely diagnosis?")
    assert second.patient.history_of_present_illness == "I have an itchy rash.; It is on my back."
    assert second.specialty == "dermatology"


def test_nejm_malformed(tmp_path: Path) -> None:
    good = {"question": "Q?", "answers": [{"text": "A", "correct": True}]}
    bad = {"question": "Q?", "answers": [{"text": "A", "correct": False}]}
    path = tmp_path / "nejm.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_file("agentclinic-nejm", path)
    assert f"{path}:2" in str(err.value) and "field 'answers'" in str(err.value)
    path.write_text(json.dumps({"answers": good["answers"]}), encoding="utf-8")
    with pytest.raises(InputError, match=r":1: field 'question'"):
        import_file("agentclinic-nejm", path)


# ---------------------------------------------------------------- AI Hospital records


def test_aihospital_chinese_sample() -> None:
    result = import_file("aihospital", peer(AIH_ZH))
    assert len(result.cases) == 2
    _roundtrip(result)
    case = result.cases[0]
    assert case.id == "aihospital-1003" and case.language == "zh-Hans"
    assert (case.source, case.licence, case.specialty) == ("aihospital", "MIT", "gastroenterology")
    assert case.patient.demographics.age == "54" and case.patient.demographics.sex == "男"
    assert case.patient.chief_complaint == "胸闷伴恶心2天，加重1.5小时"
    assert _find(case.tests, "血常规", "血红蛋白").value == "63g/L"
    assert _find(case.tests, "大便常规", "隐血").value == "阳性"
    assert case.physical_exam[0].name == "查体" and "Murphy征阴性" in case.physical_exam[0].value
    assert case.truth.diagnosis == "上消化道出血：消化性溃疡出血"
    assert "中度贫血" in case.truth.other_names()
    assert case.truth.differential == ["胃癌出血", "食管胃底静脉曲张破裂出血"]
    assert "艾司奥美拉唑" in case.truth.treatment
    assert "分析总结" in case.truth.extra and "初步诊断" in case.truth.extra
    assert case.truth.extra["record.url"].startswith("https://")
    assert "<说法方式>" in case.patient.persona
    second = result.cases[1]
    assert _find(second.tests, "影像学检查", "头颅CT").value == "右侧脑外伤术后改变"
    assert second.truth.diagnosis == "继发性癫痫" and second.specialty == "neurology"
    # The diagnosis stays out of what the patient and the doctor see up front.
    assert second.truth.diagnosis not in second.title + second.objective


def test_aihospital_english_sample() -> None:
    result = import_file("aihospital", peer(AIH_EN))
    _roundtrip(result)
    case = result.cases[0]
    assert case.id == "aihospital-10001" and case.language == "en"
    assert case.patient.demographics.occupation == "Retired Teacher"
    assert _find(case.physical_exam, "Blood pressure").value == "182/115 mmHg"
    assert _find(case.tests, "Blood tests", "Lipid profile").value == "elevated LDL cholesterol"
    assert "Left ventricular hypertrophy" in _find(case.tests, "ECG").value
    assert case.truth.diagnosis == "Grade 2 hypertension, high risk"
    assert case.truth.differential[1] == "Migraine"
    # Every bullet line of the source survives in the findings.
    record = json.loads(peer(AIH_EN).read_text(encoding="utf-8"))[0]["medical_record"]
    text = _tree_text(case.physical_exam) + _tree_text(case.tests)
    for key in ("physical_examination", "auxiliary_examinations"):
        for line in record[key].splitlines():
            body = line.strip().lstrip("- ").strip()
            name, _, value = body.partition(": ")
            assert (name in text and value in text) if value else body.rstrip(":") in text


def test_aihospital_jsonl_and_errors(tmp_path: Path) -> None:
    rec = {"medical_record": {"chief_complaint": "Cough", "diagnostic_results": "Asthma",
                              "physical_examination": "Wheeze", "unexpected_field": "kept"}}
    path = tmp_path / "recs.jsonl"
    path.write_text(json.dumps(rec) + "\n\n" + json.dumps(rec), encoding="utf-8")
    result = import_file("aihospital", path)
    assert [c.id for c in result.cases] == ["aihospital-recs-1", "aihospital-recs-3"]
    assert result.cases[0].truth.extra["unexpected_field"] == "kept"
    assert result.cases[0].physical_exam[0].value == "Wheeze"
    no_dx = {"medical_record": {"chief_complaint": "Cough"}}
    path.write_text(json.dumps(rec) + "\n" + json.dumps(no_dx) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_file("aihospital", path)
    assert f"{path}:2" in str(err.value) and "medical_record" in str(err.value)
    listed = tmp_path / "list.json"
    text = json.dumps([rec, {"id": 7}], indent=2)  # the real files are pretty-printed lists
    listed.write_text(text, encoding="utf-8")
    second = text[:text.index('"id": 7')].rstrip().rstrip("{").count("\n") + 1
    with pytest.raises(InputError) as err:
        import_file("aihospital", listed)
    assert str(err.value) == f"{listed}:{second}: field 'medical_record': missing or not an object"
    listed.write_text('[{"id": 1},\n{"id": 2,,}]', encoding="utf-8")
    with pytest.raises(InputError, match=r"list\.json:2: not valid JSON"):
        import_file("aihospital", listed)


def test_aihospital_list_errors_name_the_line_of_each_record(tmp_path: Path) -> None:
    """Errors inside a JSON list name the line where that record starts (real format)."""
    records = json.loads(peer(AIH_EN).read_text(encoding="utf-8"))
    records[1]["medical_record"]["diagnostic_results"] = "；"
    del records[1]["medical_record"]["preliminary_diagnosis"]
    path = tmp_path / "patients_en.json"
    text = json.dumps(records, indent=1, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    second = text.index("\n {", text.index("\n {") + 1)  # where record 2's '{' is
    start = text.count("\n", 0, second) + 2
    with pytest.raises(InputError) as err:
        import_file("aihospital", path)
    assert str(err.value) == (f"{path}:{start}: field 'medical_record.diagnostic_results': "
                              "holds no diagnosis name")


@pytest.mark.parametrize("diagnosis", ["，，", "；", "1.\n2.", " ", "（1）（2）", "- "])
def test_aihospital_punctuation_only_diagnosis_is_no_diagnosis(tmp_path: Path,
                                                              diagnosis: str) -> None:
    rec = {"id": 5, "medical_record": {"主诉": "头痛", "诊断结果": diagnosis}}
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(rec, ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_file("aihospital", path)
    message = str(err.value)
    assert message.startswith(f"{path}:1: field 'medical_record") and "\n" not in message
    # With a preliminary diagnosis the record still imports, with a warning.
    rec["medical_record"]["初步诊断"] = "1. 偏头痛\n2. 高血压"
    path.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
    result = import_file("aihospital", path)
    assert result.cases[0].truth.diagnosis == "偏头痛"
    assert result.cases[0].truth.other_names() == ["高血压"]
    assert any("preliminary" in w for w in result.warnings)


def test_aihospital_falls_back_to_preliminary_diagnosis(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"id": "x 1", "medical_record": {"主诉": "头痛", "初步诊断": "偏头痛"}},
                               ensure_ascii=False), encoding="utf-8")
    result = import_file("aihospital", path)
    assert result.cases[0].truth.diagnosis == "偏头痛" and result.cases[0].language == "zh-Hans"
    assert result.cases[0].id.startswith("aihospital-x-1")
    assert any("preliminary" in w for w in result.warnings)


# ---------------------------------------------------------------- AI Hospital dialogues


def test_dialog_sample() -> None:
    result = import_file("aihospital-dialog", peer(DIALOG))
    assert len(result.transcripts) == 5 and result.cases == []
    first = result.transcripts[0]
    assert first.case_id == "aihospital-1812" and first.doctor == "gpt-4"
    assert first.end_reason is EndReason.IMPORTED
    assert first.meta["patient_engine_name"] == "gpt-3.5-turbo"
    roles = [t.role for t in first.turns]
    assert roles[:2] == [Role.DOCTOR, Role.PATIENT] and Role.EXAMINER in roles
    assert [t.index for t in first.turns] == list(range(len(first.turns)))
    for turn in first.turns:
        assert "<对医生讲>" not in turn.content and "<结束>" not in turn.content
    to_examiner = next(t for t in first.turns if t.addressee is Role.EXAMINER)
    assert to_examiner.role is Role.PATIENT and to_examiner.content.startswith("您好，医生建议")
    assert first.turns[1].addressee is Role.DOCTOR
    report = next(t for t in first.turns if t.role is Role.EXAMINER)
    assert report.tests == ["X光检查"] and report.kind == "result"
    ended = [t for t in first.turns if t.meta.get("end")]
    assert len(ended) == 1 and ended[0].content.startswith("谢谢医生")
    assert first.report is not None and first.diagnosis.startswith("左股骨粗隆间骨折")
    assert result.transcripts[3].doctor == "qwen-max-1201"
    # A trailing <结束> tag is stripped too.
    last_patient = [t for t in result.transcripts[3].turns if t.role is Role.PATIENT][-1]
    assert last_patient.meta["end"] and not last_patient.content.endswith(">")


def test_dialog_sample_addressees() -> None:
    """Doctor → patient; patient → the leading tag's addressee; Reporter → doctor (in every
    sample history a Reporter turn is followed by the Doctor's turn that uses it)."""
    raw = [json.loads(ln) for ln in peer(DIALOG).read_text(encoding="utf-8").splitlines() if ln]
    result = import_file("aihospital-dialog", peer(DIALOG))
    reporters = 0
    for transcript, record in zip(result.transcripts, raw, strict=True):
        history = record["dialog_history"]
        for turn, source in zip(transcript.turns, history, strict=True):
            if turn.role is Role.DOCTOR:
                assert turn.addressee is Role.PATIENT
            elif turn.role is Role.EXAMINER:
                reporters += 1
                assert turn.addressee is Role.DOCTOR
                assert history[turn.index + 1]["role"] == "Doctor"
            else:
                lead = source["content"].lstrip()
                expected = Role.EXAMINER if lead.startswith("<对检查员讲>") else Role.DOCTOR
                assert turn.addressee is expected, (turn.index, source["content"][:30])
        assert transcript.meta["import"]["file"] == DIALOG.split("/")[-1]
        assert len(transcript.meta["import"]["sha256"]) == 64
    assert reporters == 4
    again = import_file("aihospital-dialog", peer(DIALOG))  # stable across imports
    assert [t.meta["import"]["sha256"] for t in again.transcripts] == \
        [t.meta["import"]["sha256"] for t in result.transcripts]


def test_dialog_routes_on_the_leading_tag_only(tmp_path: Path) -> None:
    history = [
        {"turn": 0, "role": "Doctor", "content": "哪里不舒服？"},
        {"turn": 1, "role": "Patient", "content": "<对医生讲> 我头痛。医生说过<对检查员讲>要做CT。"},
        {"turn": 1, "role": "Doctor", "content": "请去做头颅CT。"},
        {"turn": 2, "role": "Patient", "content": "  <对检查员讲><对医生讲> 请告诉我头颅CT结果。"},
        {"turn": 2, "role": "Reporter", "content": "#检查项目#\n- 头颅CT: 未见异常"},
        {"turn": 2, "role": "Doctor", "content": "CT正常。"},
        {"turn": 3, "role": "Patient", "content": "<结束> <对医生讲> 谢谢医生。"},
        {"turn": 4, "role": "Patient", "content": "好的\u2028明白了 <结束>"},
    ]
    path = tmp_path / "d.jsonl"
    # ensure_ascii=False writes U+2028 raw inside the string: still one JSONL line.
    path.write_text(json.dumps({"patient_id": 9, "dialog_history": history},
                               ensure_ascii=False), encoding="utf-8")
    turns = import_file("aihospital-dialog", path).transcripts[0].turns
    assert turns[1].addressee is Role.DOCTOR and turns[1].kind == "answer"
    assert turns[1].content == "我头痛。医生说过<对检查员讲>要做CT。"  # a later tag is text
    assert turns[3].addressee is Role.EXAMINER and turns[3].kind == "test_request"
    assert turns[3].content == "请告诉我头颅CT结果。"
    assert turns[4].addressee is Role.DOCTOR and turns[4].tests == ["头颅CT"]
    assert turns[6].addressee is Role.DOCTOR and turns[6].meta["end"]
    assert turns[6].content == "谢谢医生。"
    assert turns[7].addressee is Role.DOCTOR and turns[7].meta["end"]
    assert turns[7].content == "好的\u2028明白了"


def test_dialog_malformed_and_fallback_id(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    ok = {"dialog_history": [{"turn": 0, "role": "Doctor", "content": "Hi"}]}
    path.write_text(json.dumps(ok) + "\n", encoding="utf-8")
    assert import_file("aihospital-dialog", path).transcripts[0].case_id == "aihospital-dialog-1"
    bad = {"dialog_history": [{"turn": 0, "role": "Nurse", "content": "Hi"}]}
    path.write_text(json.dumps(ok) + "\n" + json.dumps(bad), encoding="utf-8")
    with pytest.raises(InputError) as err:
        import_file("aihospital-dialog", path)
    assert f"{path}:2" in str(err.value) and "dialog_history[0].role" in str(err.value)
    path.write_text(json.dumps({"patient_id": 3}), encoding="utf-8")
    with pytest.raises(InputError, match=r":1: field 'dialog_history'"):
        import_file("aihospital-dialog", path)


# ---------------------------------------------------------------- RJUA


def test_rjua_sample() -> None:
    result = import_file("rjua", peer(RJUA))
    _roundtrip(result)
    (case,) = result.cases
    assert (case.source, case.licence, case.language) == ("rjua", "CC-BY-NC-SA-4.0", "zh-Hans")
    assert case.expected_rounds == 10
    # The sample has 年龄=男 and 性别=73岁; the importer puts them right and says so.
    assert case.patient.demographics.age == "73" and case.patient.demographics.sex == "男"
    assert any("swapped" in w for w in result.warnings)
    assert case.patient.opening.startswith("医生您好") and case.patient.chief_complaint
    assert case.truth.diagnosis == "膀胱恶性肿瘤"
    assert case.truth.synonyms == ["膀胱癌", "膀胱肿瘤", "CAB"]
    assert "膀胱根治性切除术" in case.truth.treatment and "输尿管皮肤造口" in case.truth.treatment
    urine = _find(case.tests, "尿常规")
    assert "尿潜血 3+↑" in urine.value and urine.timing == "4个月前" and urine.weight == 2.0
    assert _find(case.tests, "凝血功能").weight == 1.0
    assert "术前验血" in _find(case.tests, "肾功能").synonyms
    assert [i.name for i in case.tests].count("CTU") == 2  # same scan, two dates
    assert [i.name for i in case.tests].count("肾功能") == 1  # verbatim repeat merged
    assert "15.6秒" in _find(case.tests, "凝血功能").value  # multi-line quoted cell
    symptoms = {s.name: s for s in case.patient.primary_symptoms}
    assert symptoms["肉眼血尿"].duration == "4个月" and symptoms["尿痛"].present is False
    kinds = {h.name: h.kind for h in case.patient.history}
    assert kinds["DSA"] == "surgical" and kinds["厄贝沙坦"] == "medication"
    assert kinds["高血压"] == "past_medical" and kinds["婚育史"] == "social"
    steps = [(s.category, s.name) for s in case.expected_inquiry_order]
    assert steps[:4] == [("symptom", "排尿困难"), ("symptom", "肉眼血尿"), ("symptom", "尿痛"),
                         ("test", "尿常规")]
    assert steps.index(("test", "泌尿系统CT平扫")) < steps.index(("test", "CTU"))
    assert ("history", "surgical") in steps and steps[-2:] == [("diagnosis", None),
                                                               ("treatment", None)]
    names = {i.name for _, _, i in case.findings()}
    assert all(n in names for c, n in steps if c == "test" and n)
    assert case.truth.extra["正确顺序"].startswith("尿常规=")


def test_rjua_sample_partition() -> None:
    """Operative findings leave the patient for the examiner; the diagnosis named in the
    patient's opening (RJUA's design) is kept but reported."""
    result = import_file("rjua", peer(RJUA))
    case = result.cases[0]
    seen = patient_view(case).model_dump_json()
    assert "广基实性新生物" not in seen and "栓塞左侧骼内动脉" not in seen
    surgery = {h.name: h.text for h in case.patient.history if h.kind == "surgical"}
    assert surgery == {"经尿道膀胱肿瘤电切术": "经尿道膀胱肿瘤电切术（1个半月前）",
                       "DSA": "DSA（1个半月前）"}
    operation = _find(case.tests, "经尿道膀胱肿瘤电切术术中所见")
    assert "广基实性新生物" in operation.value and operation.timing == "1个半月前"
    assert operation.weight == 0.0  # RJUA scores the history row, not this copy
    examiner = RetrievalExaminer(examiner_view(case))
    assert "广基实性新生物" in examiner.report(["经尿道膀胱肿瘤电切术"])[0]
    assert "栓塞左侧骼内动脉" in examiner.report(["DSA"])[0]
    leak = [w for w in result.warnings if "names the diagnosis" in w]
    assert len(leak) == 1 and "'膀胱癌'" in leak[0] and "'膀胱肿瘤'" in leak[0]
    assert "'膀胱恶性肿瘤'" not in leak[0]  # the opening does not use the full name
    assert leak[0].startswith(f"{peer(RJUA)}: case rjua-sp_test_case")


def _rjua(tmp_path: Path, body: str, header: str = RJUA_HEADER, bom: bool = False) -> Path:
    path = tmp_path / "sp.csv"
    path.write_bytes(("\ufeff" if bom else "").encode() + (header + body).encode("utf-8"))
    return path


def test_rjua_bom_unknown_category_and_plain_age(tmp_path: Path) -> None:
    body = ("年龄,,45岁,,,,\n性别,,女,,,,\n诊断,核心诊断,肾结石,,,肾石病，尿石症,\n"
            "宠物接触史,猫,家中养猫,3年,,,\n,狗,邻居养狗,,,,\n预计轮次,,约八轮,,,,\n")
    result = import_file("rjua", _rjua(tmp_path, body, bom=True))
    case = result.cases[0]
    assert case.patient.demographics.age == "45" and case.patient.demographics.sex == "女"
    assert case.truth.synonyms == ["肾石病", "尿石症"]
    others = [h for h in case.patient.history if h.kind == "other"]
    assert [h.name for h in others] == ["宠物接触史/猫", "宠物接触史/狗"]  # blank = same category
    assert "家中养猫（3年）" in others[0].text
    assert case.expected_rounds is None and case.truth.extra["预计轮次"] == "约八轮"
    assert any("宠物接触史" in w for w in result.warnings)


def test_rjua_missing_column(tmp_path: Path) -> None:
    path = _rjua(tmp_path, "诊断,核心诊断,肾结石\n", header="类目大项,类目子项,约束\n")
    with pytest.raises(InputError) as err:
        import_file("rjua", path)
    assert f"{path}:1" in str(err.value) and "field '结果'" in str(err.value)


def test_rjua_malformed_rows(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"sp\.csv: field '诊断'"):
        import_file("rjua", _rjua(tmp_path, "症状,发热,,2天,,,\n"))
    with pytest.raises(InputError, match=r"sp\.csv:2: field '类目大项'"):
        import_file("rjua", _rjua(tmp_path, ",发热,,2天,,,\n"))
    with pytest.raises(InputError, match=r"sp\.csv:3: bad CSV"):
        import_file("rjua", _rjua(tmp_path, '诊断,核心诊断,肾结石,,,,\n检验,尿常规,"a"b,,,,\n'))


# ---------------------------------------------------------------- fuzzing every importer


def _mutations(value: Any, rng: Any) -> Any:
    """One random nasty change somewhere in a JSON value: a key dropped or respelled, a
    value replaced by a wrong type, nested in a dict, wrapped in a list."""
    if isinstance(value, dict) and value:
        value = dict(value)
        key = rng.choice(list(value))
        op = rng.randrange(6)
        if op == 0:
            del value[key]
        elif op == 1:
            value[key.upper().replace("_", " ")] = value.pop(key)
        elif op == 2:
            value[key] = [value[key], value[key]]
        elif op == 3:
            value[key] = {"nested": value[key], "n": 3}
        elif op == 4:
            value[key] = rng.choice([None, 1, 2.5, True, "", [], {}, "，，", "；", "1.\n2.",
                                     "\u2028", "<结束>"])
        else:
            value[key] = _mutations(value[key], rng)
        return value
    if isinstance(value, list) and value:
        value = list(value)
        i = rng.randrange(len(value))
        value[i] = rng.choice([None, 7, {"x": value[i]}, _mutations(value[i], rng)])
        return value
    return rng.choice(["", None, 0, [value], {"t": value}, "<对检查员讲>x"])


@pytest.mark.parametrize(("fmt", "sample"), [
    ("agentclinic", MEDQA), ("agentclinic-nejm", NEJM), ("aihospital", AIH_ZH),
    ("aihospital", AIH_EN), ("aihospital-dialog", DIALOG)])
def test_fuzzed_samples_import_or_fail_in_one_line(tmp_path: Path, fmt: str,
                                                   sample: str) -> None:
    """200 seeded mutations of each sample: each imports, or fails with a one-line
    InputError naming the file and a line — never another exception."""
    import random

    text = peer(sample).read_text(encoding="utf-8")
    records = json.loads(text) if text.lstrip().startswith("[") else \
        [json.loads(ln) for ln in text.splitlines() if ln.strip()]
    rng = random.Random(f"{fmt}:{sample}")
    outcomes = set()
    for n in range(200):
        mutated = [_mutations(r, rng) if rng.random() < 0.6 else r for r in records]
        path = tmp_path / f"{n}.json"
        if sample.endswith(".json"):
            path.write_text(json.dumps(mutated, ensure_ascii=False, indent=1), encoding="utf-8")
        else:
            path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in mutated),
                            encoding="utf-8")
        try:
            result = import_file(fmt, path)
        except InputError as err:
            message = str(err)
            assert "\n" not in message and message.startswith(f"{path}:"), message
            outcomes.add("error")
            continue
        _roundtrip(result)
        outcomes.add("ok")
    assert outcomes == {"ok", "error"}  # the mutations exercise both paths


def test_fuzzed_rjua_csv_imports_or_fails_in_one_line(tmp_path: Path) -> None:
    """150 seeded damages of the RJUA sheet (rows dropped, cut short, lengthened, emptied,
    cells blanked or replaced, header shuffled): import, or a one-line InputError."""
    import csv
    import io
    import random

    rows = list(csv.reader(io.StringIO(peer(RJUA).read_text(encoding="utf-8"))))
    outcomes = set()
    for seed in range(150):
        rng = random.Random(seed)
        damaged = [list(r) for r in rows]
        for _ in range(rng.randrange(1, 5)):
            i = rng.randrange(1, len(damaged))
            op = rng.randrange(5)
            if op == 0:
                del damaged[i]
            elif op == 1:
                damaged[i] = damaged[i][:rng.randrange(len(damaged[i]) + 1)] + ["extra"] * op
            elif op == 2 and damaged[i]:
                damaged[i][rng.randrange(len(damaged[i]))] = rng.choice(
                    ["", "，，", "无", "诊断", "正确顺序", "预计轮次", "手术史", ">>=", "\u2028"])
            elif op == 3:
                damaged[0] = rng.sample(damaged[0], len(damaged[0]))
            else:
                damaged[i] = []
        out = io.StringIO()
        csv.writer(out).writerows(damaged)
        path = tmp_path / "sp.csv"
        path.write_text(out.getvalue(), encoding="utf-8")
        try:
            _roundtrip(import_file("rjua", path))
            outcomes.add("ok")
        except InputError as err:
            assert "\n" not in str(err) and str(err).startswith(f"{path}"), str(err)
            outcomes.add("error")
    assert outcomes == {"ok", "error"}
