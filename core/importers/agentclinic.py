"""Importer for AgentClinic OSCE JSONL files (MedQA and MedQA-extended).

Each line holds `{"OSCE_Examination": {...}}`. Every top-level key is routed by its role
(`agentclinic_keys.key_role`, robust to the many spellings of the full files): objective →
doctor; Patient_Actor and other patient sections → patient; every examination section
(Physical_Examination_Findings, Exam_Findings, Vital_Signs, ...) and test section
(Test_Results, Lab_Results, Imaging, ...) → examiner, as Item trees that keep every key and
every scalar; diagnosis, differential and treatment → ground truth; anything else →
`truth.extra` with a warning. An examination, test or diagnosis section found inside
Patient_Actor is moved out of the patient's reach. An empty `Correct_Diagnosis` next to a
filled `Diagnosis` uses the filled one. Patient_Actor keys are mapped to our history kinds
by keyword, unknown ones kept as kind "other".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.case import Case, Demographics, HistoryItem, Item, Symptom
from core.errors import InputError
from core.importers.agentclinic_keys import actor_key_role, key_role
from core.language import case_language
from core.importers.base import (
    TEXT,
    ImportResult,
    build_case,
    bullets_to_items,
    demographics_from_text,
    expect,
    expect_text_tree,
    flatten_text,
    humanize,
    leak_warning,
    load_records,
    norm_key,
    safe_id,
    scalar_text,
    where,
)

DEFAULT_OBJECTIVE = "Assess the patient, request the tests you need and make a diagnosis."

# (keyword in the normalised key, history kind); the first match wins, so the more specific
# keywords come first ("pastsurgicalhistory" must not land in past_medical).
_HISTORY_KEYWORDS: tuple[tuple[str, str], ...] = (
    ("reviewofsystem", "review_of_systems"),
    ("ros", "review_of_systems"),
    ("family", "family"),
    ("allerg", "allergy"),
    ("surg", "surgical"),
    ("operat", "surgical"),
    ("medication", "medication"),
    ("drug", "medication"),
    ("menstru", "menstrual_obstetric"),
    ("obstet", "menstrual_obstetric"),
    ("gyn", "menstrual_obstetric"),
    ("pregnan", "menstrual_obstetric"),
    ("social", "social"),
    ("pastmedical", "past_medical"),
    ("medicalhistory", "past_medical"),
    ("pmh", "past_medical"),
)


def value_to_item(name: str, value: Any) -> Item:
    """One JSON value as an Item named `name`, keeping every key and scalar.

    dict → children (keys humanised); list of scalars → one joined value; list with
    containers → numbered children; scalar → value (numbers as JSON writes them).
    """
    label = humanize(name)
    if isinstance(value, dict):
        return Item(name=label, children=[value_to_item(k, v) for k, v in value.items()])
    if isinstance(value, list):
        if all(not isinstance(v, dict | list) for v in value):
            texts = [t for t in (scalar_text(v) for v in value) if t]
            return Item(name=label, value="; ".join(texts) or None)
        return Item(name=label, children=[value_to_item(f"{label} {i}", v)
                                          for i, v in enumerate(value, start=1)])
    text = scalar_text(value)
    return Item(name=label, value=text if text and text.strip() else None)


def section_items(value: Any, label: str) -> list[Item]:
    """A whole exam/test section: each top-level key becomes one root Item.

    A list section contributes the keys of its objects as roots (so "CBC" stays findable
    at the top) and its loose scalars as one Item `label`; a nested list is numbered.
    """
    if isinstance(value, dict):
        return [value_to_item(k, v) for k, v in value.items()]
    if isinstance(value, list):
        roots: list[Item] = []
        loose = [v for v in value if not isinstance(v, dict | list)]
        if any(scalar_text(v) for v in loose):
            roots.append(value_to_item(label, loose))
        for i, v in enumerate(value, start=1):
            if isinstance(v, dict):
                roots.extend(value_to_item(k, sub) for k, sub in v.items())
            elif isinstance(v, list):
                roots.append(value_to_item(f"{label} {i}", v))
        return roots
    if value is None or scalar_text(value) in (None, ""):
        return []
    return [value_to_item(label, value)]


def history_kind(key: str) -> str:
    """The history kind for a Patient_Actor key, or 'other'."""
    nk = norm_key(key)
    for word, kind in _HISTORY_KEYWORDS:
        if word in nk:
            return kind
    return "other"


def _symptom_list(value: Any) -> list[Symptom]:
    if value is None:
        return []
    values = value if isinstance(value, list) else [value]
    out = []
    for v in values:
        text = flatten_text(v).strip()
        if text:
            out.append(Symptom(name=text))
    return out


def _symptoms(value: Any, patient: dict[str, Any]) -> None:
    """Fill primary/secondary symptoms (and history 'other' for odd keys) into `patient`."""
    if not isinstance(value, dict):
        patient["primary_symptoms"].extend(_symptom_list(value))
        return
    for key, sub in value.items():
        nk = norm_key(key)
        if "primary" in nk or "chief" in nk or "main" in nk:
            patient["primary_symptoms"].extend(_symptom_list(sub))
        elif "secondary" in nk or "associated" in nk or "other" in nk:
            patient["secondary_symptoms"].extend(_symptom_list(sub))
        elif (text := flatten_text(sub).strip()):
            patient["history"].append(HistoryItem(kind="other", name=f"Symptoms: {key}",
                                                  text=text))


def patient_from_actor(actor: Any) -> dict[str, Any]:
    """PatientProfile fields from a Patient_Actor dict (anything else → one 'other' item)."""
    patient: dict[str, Any] = {"primary_symptoms": [], "secondary_symptoms": [], "history": []}
    if not isinstance(actor, dict):
        if text := flatten_text(actor).strip():
            patient["history_of_present_illness"] = text
        return patient
    for key, value in actor.items():
        nk = norm_key(key)
        text = flatten_text(value).strip()
        if nk == "demographics" or nk == "demographic":
            patient["demographics"] = _demographics(value)
        elif nk in ("history", "historyofpresentillness", "hpi", "presentillness",
                    "presentingillness"):
            earlier = patient.get("history_of_present_illness")
            patient["history_of_present_illness"] = "\n".join(
                t for t in (earlier, text) if t) or None  # two story keys: keep both
        elif nk.startswith("symptom"):
            _symptoms(value, patient)
        elif nk in ("chiefcomplaint", "presentingcomplaint"):
            patient["chief_complaint"] = text or None
        elif nk in ("persona", "personality", "behavior", "behaviour"):
            patient["persona"] = text or None
        elif text:
            kind = history_kind(key)
            patient["history"].append(
                HistoryItem(kind=kind, text=text, name=key if kind == "other" else None))  # type: ignore[arg-type]
    return patient


def _title(patient: dict[str, Any], path: Path, line: int) -> str:
    demo = patient.get("demographics")
    who = demo.text if demo is not None and demo.text else "Patient"
    first = patient["primary_symptoms"][0].name if patient["primary_symptoms"] else None
    title = f"{who}: {first}" if first else f"{who} ({path.stem} line {line})"
    return title if len(title) <= 100 else title[:97] + "..."


def _demographics(value: Any) -> Demographics:
    """Demographics from a line of text, or from a dict with age/sex/occupation keys."""
    text = flatten_text(value).strip()
    demo = demographics_from_text(text)
    if isinstance(value, dict):
        fields = {norm_key(k): flatten_text(v).strip() for k, v in value.items()}
        demo = Demographics(age=fields.get("age") or demo.age,
                            sex=fields.get("sex") or fields.get("gender") or demo.sex,
                            occupation=fields.get("occupation") or None, text=text or None)
    return demo


def _section(value: Any, label: str) -> list[Item]:
    """Items of one exam/test section; a text section may be a 'name: value' list."""
    if isinstance(value, str):
        return bullets_to_items(value, label) if value.strip() else []
    return section_items(value, label)


def _diagnosis(osce: dict[str, Any], keys: list[str], path: Path, line: int,
               warnings: list[str]) -> tuple[str, list[str]]:
    """(primary, others) from the first non-empty diagnosis key, Correct_Diagnosis first."""
    keys = sorted(keys, key=lambda k: norm_key(k) != "correctdiagnosis")
    for key in keys:
        value = osce[key]
        # A list or a {Primary: ..., Secondary: ...} object: the first entry is the primary.
        values = value if isinstance(value, list) else list(value.values()) \
            if isinstance(value, dict) else [value]
        names = [flatten_text(v).strip() for v in values]
        names = [n for n in names if n]
        if names:
            if key != keys[0]:
                warnings.append(f"{where(path, line)}: '{keys[0]}' is empty; the diagnosis "
                                f"comes from '{key}'")
            return names[0], names[1:]
    raise InputError("missing or empty", path=str(path), line=line,
                     field=f"OSCE_Examination.{keys[0] if keys else 'Correct_Diagnosis'}")


def _split_actor(osce: dict[str, Any], roles: dict[str, str], path: Path, line: int,
                 warnings: list[str]) -> dict[str, Any]:
    """The patient's own keys; exam/test/diagnosis keys found inside Patient_Actor are
    lifted to the top level (into `osce` and `roles`) so that they leave the patient."""
    actor: dict[str, Any] = {}
    for key in [k for k, r in roles.items() if r == "patient"]:
        value = osce[key]
        nk = norm_key(key)
        wrapper = "actor" in nk or nk.startswith("patient")
        if wrapper and not isinstance(value, dict):
            actor.setdefault("Present_Illness", value)  # a Patient_Actor that is just text
            continue
        if not wrapper:
            actor[key] = value  # a section of the patient's own ("History", "Demographics")
            continue
        for inner, sub in value.items():
            role = actor_key_role(inner)
            if role == "patient":
                actor[inner] = sub
                continue
            lifted = f"{key}.{inner}"
            osce[lifted], roles[lifted] = sub, role
            warnings.append(f"{where(path, line)}: '{lifted}' is not the patient's to know; "
                            f"moved to the {'examiner' if role in ('exam', 'test') else 'truth'}")
    return actor


def _check_types(osce: dict[str, Any], roles: dict[str, str], path: Path, line: int) -> None:
    """The objective is text; diagnosis, differential and treatment are text or lists and
    objects of text. Examination and test sections keep any scalar (a vital sign may be a
    number)."""
    for key, role in roles.items():
        field = f"OSCE_Examination.{key}"
        if role == "objective":
            expect(osce[key], TEXT, path, line, field)
        elif role in ("diagnosis", "differential", "treatment"):
            expect_text_tree(osce[key], path, line, field)


def case_from_osce(osce: Any, path: Path, line: int, warnings: list[str],
                   language: str | None = None) -> Case:
    """One Case from the value of an `OSCE_Examination` key, in `language` (None: read from
    its text, `core.language`)."""
    if not isinstance(osce, dict):
        raise InputError("expected an object", path=str(path), line=line,
                         field="OSCE_Examination")
    osce = dict(osce)
    roles = {k: key_role(k) for k in osce}
    actor = _split_actor(osce, roles, path, line, warnings)
    _check_types(osce, roles, path, line)
    by_role: dict[str, list[str]] = {}
    for key, role in roles.items():
        by_role.setdefault(role, []).append(key)
    diagnosis, others = _diagnosis(osce, by_role.get("diagnosis", []), path, line, warnings)
    objective = " ".join(flatten_text(osce[k]).strip() for k in by_role.get("objective", []))
    if not objective.strip():
        warnings.append(f"{where(path, line)}: no Objective_for_Doctor; a generic one is used")
        objective = DEFAULT_OBJECTIVE
    patient = patient_from_actor(actor if actor else None)
    differential = [flatten_text(v).strip() for k in by_role.get("differential", [])
                    for v in (osce[k] if isinstance(osce[k], list) else [osce[k]])]
    treatment = "\n".join(flatten_text(osce[k]) for k in by_role.get("treatment", []))
    extra = {k: flatten_text(osce[k]) for k in by_role.get("other", [])}
    for key in extra:
        warnings.append(f"{where(path, line)}: unknown key '{key}' kept in truth.extra")
    data = {
        "id": safe_id("agentclinic", path.stem, line),
        "title": _title(patient, path, line),
        "language": language or _language(objective, actor, diagnosis, path, line, warnings),
        "specialty": "general",
        "source": "agentclinic",
        "licence": "MIT",
        "objective": objective.strip(),
        "patient": patient,
        "physical_exam": [i for k in by_role.get("exam", [])
                          for i in _section(osce[k], humanize(k.split(".")[-1]))],
        "tests": [i for k in by_role.get("test", [])
                  for i in _section(osce[k], humanize(k.split(".")[-1]))],
        "truth": {"diagnosis": diagnosis, "other_diagnoses": others,
                  "differential": [d for d in differential if d],
                  "treatment": treatment.strip() or None, "extra": extra},
    }
    return build_case(data, path, line)


def _language(objective: str, actor: dict[str, Any], diagnosis: str, path: Path, line: int,
              warnings: list[str]) -> str:
    """The language of a case's text; English, with a warning, when the text does not tell
    (AgentClinic-Lang publishes the same cases in seven languages)."""
    found = case_language([objective, diagnosis, *_leaves(actor)])
    if found is None:
        warnings.append(f"{where(path, line)}: the case's language is unclear; read as English "
                        "(give --language to say)")
    return found or "en"


def _leaves(value: Any) -> list[str]:
    """The texts of a record, without its (English) keys."""
    if isinstance(value, dict):
        return [t for v in value.values() for t in _leaves(v)]
    if isinstance(value, list):
        return [t for v in value for t in _leaves(v)]
    return [str(value)] if isinstance(value, str | int | float) else []


def _osce_of(record: dict[str, Any], path: Path, line: int,
             warnings: list[str]) -> Any:
    """The OSCE dict of a line: under `OSCE_Examination` (any spelling) or the line itself."""
    key = next((k for k in record if norm_key(k) in ("osceexamination", "osce")), None)
    if key is not None:
        return record[key]
    if any(key_role(k) == "diagnosis" for k in record):
        warnings.append(f"{where(path, line)}: no OSCE_Examination key; the line itself is "
                        "read as the OSCE record")
        return record
    raise InputError("missing", path=str(path), line=line, field="OSCE_Examination")


def import_agentclinic(path: Path, language: str | None = None) -> ImportResult:
    """Import an AgentClinic OSCE JSONL file (one case per non-blank line), each case in its
    own language (detected) or in `language`."""
    result = ImportResult()
    for line, record in load_records(path):
        case = case_from_osce(_osce_of(record, path, line, result.warnings), path, line,
                              result.warnings, language)
        if warning := leak_warning(case, path, line):
            result.warnings.append(warning)
        result.cases.append(case)
    if not result.cases:
        raise InputError("no cases in the file (is it empty?)", path=str(path))
    return result
