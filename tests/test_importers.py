"""Importers from the peer benchmarks' formats: real samples (read in place from the shared
folder beside the repo, never copied) and synthetic malformed or odd inputs in tmp_path."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.case import Case
from core.errors import InputError
from core.importers import FORMATS, ImportResult, import_file
from core.transcript import EndReason, Role

PEERS = Path(__file__).resolve().parents[2] / "shared" / "peers"
MEDQA = PEERS / "agentclinic" / "agentclinic_medqa_sample.jsonl"
NEJM = PEERS / "agentclinic" / "agentclinic_nejm_sample.jsonl"
AIH_ZH = PEERS / "ai_hospital" / "patients_zh_sample.json"
AIH_EN = PEERS / "ai_hospital" / "patients_en_sample.json"
DIALOG = PEERS / "ai_hospital" / "dialog_history_sample.jsonl"
RJUA = PEERS / "rjua" / "sp_test_case.csv"
RJUA_HEADER = "类目大项,类目子项,结果,约束,备注,上位词,得分项分类\n"


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
        import_file("medqa", MEDQA)
    assert "unknown format 'medqa'" in str(err.value) and "aihospital-dialog" in str(err.value)
    with pytest.raises(InputError, match="no such file"):
        import_file("rjua", tmp_path / "missing.csv")


# ---------------------------------------------------------------- AgentClinic MedQA


def test_agentclinic_sample() -> None:
    result = import_file("agentclinic", MEDQA)
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
    lines = [json.loads(ln) for ln in MEDQA.read_text(encoding="utf-8").splitlines() if ln]
    for case, raw in zip(import_file("agentclinic", MEDQA).cases, lines, strict=True):
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


def test_nejm_sample() -> None:
    result = import_file("agentclinic-nejm", NEJM)
    assert len(result.cases) == 3
    _roundtrip(result)
    case = result.cases[0]
    assert case.truth.diagnosis == case.truth.correct_option == "Exogenous ochronosis"
    assert len(case.truth.options) == 5 and "Contact dermatitis" in case.truth.options
    assert case.images[0].url.startswith("https://csvc.nejm.org/") and case.images[0].given_upfront
    assert case.objective.endswith("What is the most likely diagnosis?")
    assert "hydroquinone" in case.patient.history_of_present_illness
    assert "banana-shaped" in case.physical_exam[0].value
    assert case.specialty == "dermatology" and case.patient.demographics.age == "55"
    assert result.cases[2].truth.diagnosis == "Pulmonary Sarcoidosis"
    assert all("sarcoidosis" not in c.title.lower() for c in result.cases)


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
    result = import_file("aihospital", AIH_ZH)
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
    result = import_file("aihospital", AIH_EN)
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
    record = json.loads(AIH_EN.read_text(encoding="utf-8"))[0]["medical_record"]
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
    listed.write_text(json.dumps([rec, {"id": 7}]), encoding="utf-8")
    with pytest.raises(InputError, match=r"list\.json: field 'record 2: medical_record'"):
        import_file("aihospital", listed)
    listed.write_text('[{"id": 1},\n{"id": 2,,}]', encoding="utf-8")
    with pytest.raises(InputError, match=r"list\.json:2: not valid JSON"):
        import_file("aihospital", listed)


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
    result = import_file("aihospital-dialog", DIALOG)
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
    result = import_file("rjua", RJUA)
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
