"""Importer for AI Hospital / MVME patient records (Chinese or English keys).

A record's `medical_record` is split as AI Hospital splits it: subjective parts (general
information, chief complaint, present illness, past and personal history) go to the patient;
physical examination and auxiliary tests go to the examiner as Item trees; diagnosis,
rationale, differential and treatment course go to the ground truth, and every other field
is kept in `truth.extra`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from core.case import Case, Demographics
from core.errors import InputError
from core.importers.base import (
    TEXT,
    ImportResult,
    build_case,
    bullets_to_items,
    demographics_from_text,
    expect,
    flatten_text,
    has_cjk,
    humanize,
    leak_warning,
    load_records,
    norm_key,
    safe_id,
    split_name_value,
    split_numbered,
    where,
)

LICENCE = "MIT"  # the README's licence for AI Hospital (code; records from a public site)

# Section roles, by exact Chinese key or normalised English key.
_ROLES: dict[str, str] = {
    "一般资料": "general", "generalinfo": "general", "generalinformation": "general",
    "主诉": "chief", "chiefcomplaint": "chief",
    "现病史": "hpi", "currentmedicalhistory": "hpi", "historyofpresentillness": "hpi",
    "presentillness": "hpi",
    "查体": "exam", "体格检查": "exam", "physicalexamination": "exam",
    "辅助检查": "tests", "auxiliaryexaminations": "tests", "auxiliaryexamination": "tests",
    "诊断结果": "diagnosis", "diagnosticresults": "diagnosis", "diagnosisresults": "diagnosis",
    "诊断依据": "rationale", "diagnosticbasis": "rationale",
    "鉴别诊断": "differential", "differentialdiagnosis": "differential",
    "诊治经过": "treatment", "diagnosisandtreatmentprocess": "treatment",
    "treatmentprocess": "treatment",
}
# History sections → our history kinds.
_HISTORY: dict[str, str] = {
    "既往史": "past_medical", "pastmedicalhistory": "past_medical",
    "个人史": "social", "personalhistory": "social", "婚育史": "social",
    "maritalhistory": "social", "socialhistory": "social",
    "家族史": "family", "familyhistory": "family",
    "月经史": "menstrual_obstetric", "生育史": "menstrual_obstetric",
    "menstrualhistory": "menstrual_obstetric", "obstetrichistory": "menstrual_obstetric",
    "过敏史": "allergy", "allergyhistory": "allergy",
    "手术史": "surgical", "surgicalhistory": "surgical",
    "用药史": "medication", "medicationhistory": "medication",
}
# Department words → specialty (first match wins; surgical words before medical ones).
_SPECIALTY: tuple[tuple[str, str], ...] = (
    ("神经外科", "neurosurgery"), ("心胸外科", "cardiothoracic surgery"),
    ("泌尿外科", "urology"), ("骨科", "orthopaedics"), ("普外科", "general surgery"),
    ("妇产科", "obstetrics and gynaecology"), ("妇科", "obstetrics and gynaecology"),
    ("产科", "obstetrics and gynaecology"), ("儿科", "paediatrics"),
    ("消化", "gastroenterology"), ("神经内科", "neurology"), ("心内科", "cardiology"),
    ("心血管", "cardiology"), ("呼吸", "respiratory medicine"), ("内分泌", "endocrinology"),
    ("肾内科", "nephrology"), ("血液", "haematology"), ("风湿", "rheumatology"),
    ("感染", "infectious diseases"), ("肿瘤", "oncology"), ("皮肤", "dermatology"),
    ("眼科", "ophthalmology"), ("耳鼻", "otolaryngology"), ("急诊", "emergency medicine"),
)
_OBJECTIVE = {
    "zh-Hans": "一位患者前来就诊。请通过问诊和检查，给出诊断、诊断依据和治疗方案。",
    "en": "A patient has come to see you. Take a history, request examinations, then give "
          "the diagnosis, its rationale and a treatment plan.",
}


def _label(key: str) -> str:
    """Display label of a section key: 'physical_examination' → 'Physical examination'."""
    label = humanize(key)
    return label[:1].upper() + label[1:]


def _role(key: str) -> str | None:
    return _ROLES.get(key.strip()) or _ROLES.get(norm_key(key))


def _history_kind(key: str) -> str | None:
    return _HISTORY.get(key.strip()) or _HISTORY.get(norm_key(key))


def parse_general(text: str) -> Demographics:
    """Demographics from 'Gender: Female\\nAge: 65 years\\n...' lines (else free text)."""
    demo = demographics_from_text(text)
    fields: dict[str, str] = {}
    for line in text.splitlines():
        name, value = split_name_value(line.strip())
        if name and value:
            fields[norm_key(name)] = value
    sex = fields.get("性别") or fields.get("gender") or fields.get("sex")
    age = fields.get("年龄") or fields.get("age")
    job = fields.get("职业") or fields.get("occupation")
    if age:
        age = re.sub(r"\s*(岁|years?(\s*old)?)$", "", age, flags=re.IGNORECASE)
    return Demographics(age=age or demo.age, sex=sex or demo.sex, occupation=job,
                        text=demo.text)


def _split_diagnoses(text: str, zh: bool) -> list[str]:
    """Numbered lines, else '；'/';' separated, else (Chinese) '，' outside brackets.

    Parts with no letter or digit ('，，', '1.') are dropped, so a diagnosis field of
    punctuation only gives [] (no diagnosis).
    """
    parts = split_numbered(text)
    if len(parts) == 1:
        parts = [p.strip() for p in re.split(r"[；;]", parts[0]) if p.strip()]
    if len(parts) == 1 and (zh or has_cjk(parts[0])):
        parts = [p.strip() for p in re.split(r"[，,](?![^（(]*[)）])", parts[0]) if p.strip()]
    return [p for p in parts if re.search(r"\w", p)]


def _differential(text: str) -> list[str]:
    """Differential names: each numbered entry up to its first colon."""
    names = []
    for entry in split_numbered(text):
        name, _ = split_name_value(entry)
        names.append(name or entry)
    return names


def _fill(record: dict[str, Any], case: dict[str, Any], zh: bool) -> None:
    """Route every medical_record section into `case` (patient, findings, truth)."""
    patient, truth = case["patient"], case["truth"]
    for key, raw in record.items():
        text = flatten_text(raw).strip()
        if not text:
            continue
        role, kind = _role(key), _history_kind(key)
        if role == "general":
            patient["demographics"] = parse_general(text)
        elif role == "chief":
            patient["chief_complaint"] = text
        elif role == "hpi":
            patient["history_of_present_illness"] = text
        elif kind:
            patient["history"].append({"kind": kind, "text": text})
        elif role == "exam":
            case["physical_exam"] = bullets_to_items(text, _label(key))
        elif role == "tests":
            case["tests"] = bullets_to_items(text, _label(key))
        elif role == "diagnosis":
            truth["extra"][key] = text
            if parts := _split_diagnoses(text, zh):
                truth["diagnosis"], truth["other_diagnoses"] = parts[0], parts[1:]
            else:
                case["empty_diagnosis_key"] = key  # treated as no diagnosis
        elif role == "rationale":
            truth["rationale"] = text
        elif role == "differential":
            truth["differential"] = _differential(text)
            truth["extra"][key] = text
        elif role == "treatment":
            truth["treatment"] = text
        else:
            truth["extra"][key] = text


def _specialty(rec: dict[str, Any]) -> str:
    dept = flatten_text(rec.get("department") or rec.get("local") or "")
    return next((s for word, s in _SPECIALTY if word in dept), "general")


def _title(patient: dict[str, Any], zh: bool, label: str) -> str:
    demo: Demographics = patient.get("demographics") or Demographics()
    who = "，".join(p for p in (demo.sex, demo.age and f"{demo.age}岁") if p) if zh else \
        ", ".join(p for p in (demo.sex, demo.age and f"{demo.age} years") if p)
    cc = (patient.get("chief_complaint") or "").strip()
    title = f"{who}：{cc}" if zh and who and cc else f"{who}: {cc}" if who and cc else \
        cc or who or f"AI Hospital {label}"
    return title if len(title) <= 100 else title[:97] + "..."


def _final_diagnosis(case: dict[str, Any], zh: bool, path: Path, line: int,
                     warnings: list[str]) -> None:
    """Fall back to the preliminary diagnosis when there is no usable final one."""
    truth = case["truth"]
    empty_key = case.pop("empty_diagnosis_key", None)
    if "diagnosis" in truth:
        return
    prelim_key = next((k for k in truth["extra"]
                       if k.strip() == "初步诊断" or norm_key(k) == "preliminarydiagnosis"), None)
    parts = _split_diagnoses(truth["extra"][prelim_key], zh) if prelim_key else []
    if not parts:
        field = f"medical_record.{empty_key}" if empty_key else "medical_record"
        reason = "holds no diagnosis name" if empty_key else \
            "no diagnosis (诊断结果 / diagnostic_results)"
        raise InputError(reason, path=str(path), line=line, field=field)
    warnings.append(f"{where(path, line)}: no final diagnosis; using the preliminary one")
    truth["diagnosis"], truth["other_diagnoses"] = parts[0], parts[1:]


# Fields AI Hospital writes as text (English and Chinese records); the id is a number.
_TEXT_FIELDS = ("disease", "diseases", "creator", "title", "author", "department", "local",
                "time", "url", "read_num", "comment_num", "reformed_text_medical_record")
_OBJECT_FIELDS = ("medical_record", "raw_medical_record", "disease_info")


def _check_types(rec: dict[str, Any], path: Path, line: int) -> None:
    """Each field the format writes as text is text; each section of the medical record is
    text (or an object or list of them: some records nest their history)."""
    for key in _TEXT_FIELDS:
        expect(rec.get(key), TEXT, path, line, key)
    for key in _OBJECT_FIELDS:
        expect(rec.get(key), (dict,), path, line, key)
    expect(rec.get("id"), (int, str), path, line, "id")
    expect(rec.get("profile"), (str, dict, list), path, line, "profile")
    for key in ("medical_record", "raw_medical_record"):
        for section, value in (rec.get(key) or {}).items():
            expect(value, (str, dict, list), path, line, f"{key}.{section}")


def case_from_record(rec: dict[str, Any], path: Path, line: int,
                     warnings: list[str]) -> Case:
    """One Case from one MVME record (`line`: where the record starts in the file)."""
    _check_types(rec, path, line)
    record = rec.get("medical_record") or rec.get("raw_medical_record")
    if not isinstance(record, dict) or not record:
        raise InputError("missing or not an object", path=str(path), line=line,
                         field="medical_record")
    zh = any(has_cjk(k) for k in record)
    language = "zh-Hans" if zh else "en"
    case: dict[str, Any] = {
        "patient": {"history": []}, "physical_exam": [], "tests": [],
        "truth": {"extra": {}},
    }
    _fill(record, case, zh)
    _final_diagnosis(case, zh, path, line, warnings)
    truth = case["truth"]
    for key, value in rec.items():
        if key in ("medical_record", "profile", "id") or value in (None, "", {}, []):
            continue
        if isinstance(value, dict):
            truth["extra"].update({f"{key}.{k}": flatten_text(v) for k, v in value.items()})
        else:
            truth["extra"][f"record.{key}"] = flatten_text(value)
    if rec.get("profile"):
        case["patient"]["persona"] = flatten_text(rec["profile"]).strip() or None
    rid = rec.get("id")
    case.update({
        "id": safe_id("aihospital", flatten_text(rid)) if flatten_text(rid).strip() else
        safe_id("aihospital", path.stem, line),
        "title": _title(case["patient"], zh, f"{path.stem} line {line}"),
        "language": language, "specialty": _specialty(rec), "source": "aihospital",
        "licence": LICENCE, "objective": _OBJECTIVE[language],
    })
    return build_case(case, path, line)


def import_aihospital(path: Path) -> ImportResult:
    """Import AI Hospital patient records (a JSON list, one JSON object, or JSONL)."""
    result = ImportResult()
    seen: dict[str, int] = {}  # case id → index in result.cases
    lines: list[int] = []  # line of each kept case
    for line, rec in load_records(path):
        case = case_from_record(rec, path, line, result.warnings)
        if warning := leak_warning(case, path, line):
            result.warnings.append(warning)
        if case.id in seen:
            first = seen[case.id]
            result.warnings.append(f"{where(path, line)}: duplicate id {case.id} (also at "
                                   f"line {lines[first]}); the later record is kept")
            result.cases[first], lines[first] = case, line
            continue
        seen[case.id] = len(result.cases)
        lines.append(line)
        result.cases.append(case)
    if not result.cases:
        raise InputError("no records in the file (is it empty?)", path=str(path))
    return result
