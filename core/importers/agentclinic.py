"""Importer for AgentClinic OSCE JSONL files (MedQA and MedQA-extended).

Each line holds `{"OSCE_Examination": {...}}`. The examination and test sections are
free-form nested JSON with many key spellings; they become Item trees that keep every key
and every scalar. Patient_Actor keys are mapped to our history kinds by keyword, unknown
ones kept as kind "other".

Must not import: textual, rich, litellm, or any other bedside package (db, annotation, tui).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.case import Case, Demographics, HistoryItem, Item, Symptom
from core.errors import InputError
from core.importers.base import (
    ImportResult,
    build_case,
    demographics_from_text,
    flatten_text,
    humanize,
    iter_jsonl,
    norm_key,
    read_text,
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
    """A whole exam/test section: each top-level key becomes one root Item."""
    if isinstance(value, dict):
        return [value_to_item(k, v) for k, v in value.items()]
    if isinstance(value, list):
        return [value_to_item(f"{label} {i}", v) for i, v in enumerate(value, start=1)]
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
        elif nk in ("history", "historyofpresentillness", "hpi", "presentillness"):
            patient["history_of_present_illness"] = text or None
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


def _sections(osce: dict[str, Any], kind: str) -> list[str]:
    """Keys of the exam ('exam') or test ('test') sections; a file may split them up."""
    keys = []
    for key in osce:
        nk = norm_key(key)
        is_test = "test" in nk or "lab" in nk or "investigation" in nk
        if kind == "test" and is_test:
            keys.append(key)
        elif kind == "exam" and not is_test and ("physical" in nk or "examinationfinding" in nk):
            keys.append(key)
    return keys


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


def case_from_osce(osce: Any, path: Path, line: int, warnings: list[str]) -> Case:
    """One Case from the value of an `OSCE_Examination` key."""
    if not isinstance(osce, dict):
        raise InputError("expected an object", path=str(path), line=line,
                         field="OSCE_Examination")
    by_norm = {norm_key(k): k for k in osce}
    diag_key = by_norm.get("correctdiagnosis") or by_norm.get("diagnosis")
    diagnosis = flatten_text(osce[diag_key]).strip() if diag_key else ""
    if not diagnosis:
        raise InputError("missing or empty", path=str(path), line=line,
                         field="OSCE_Examination.Correct_Diagnosis")
    obj_key = by_norm.get("objectivefordoctor") or by_norm.get("objective")
    objective = flatten_text(osce[obj_key]).strip() if obj_key else ""
    if not objective:
        warnings.append(f"{where(path, line)}: no Objective_for_Doctor; a generic one is used")
        objective = DEFAULT_OBJECTIVE
    actor_key = by_norm.get("patientactor") or by_norm.get("patient")
    patient = patient_from_actor(osce[actor_key]) if actor_key else patient_from_actor(None)
    exam, tests = _sections(osce, "exam"), _sections(osce, "test")
    used = {diag_key, obj_key, actor_key, *exam, *tests}
    extra = {k: flatten_text(v) for k, v in osce.items() if k not in used}
    for key in extra:
        warnings.append(f"{where(path, line)}: unknown key '{key}' kept in truth.extra")
    data = {
        "id": safe_id("agentclinic", path.stem, line),
        "title": _title(patient, path, line),
        "language": "en",
        "specialty": "general",
        "source": "agentclinic",
        "licence": "MIT",
        "objective": objective,
        "patient": patient,
        "physical_exam": [i for k in exam for i in section_items(osce[k], humanize(k))],
        "tests": [i for k in tests for i in section_items(osce[k], humanize(k))],
        "truth": {"diagnosis": diagnosis, "extra": extra},
    }
    return build_case(data, path, line)


def import_agentclinic(path: Path) -> ImportResult:
    """Import an AgentClinic OSCE JSONL file (one case per non-blank line)."""
    result = ImportResult()
    for line, record in iter_jsonl(path, read_text(path)):
        key = next((k for k in record if norm_key(k) == "osceexamination"), None)
        if key is None:
            raise InputError("missing", path=str(path), line=line, field="OSCE_Examination")
        result.cases.append(case_from_osce(record[key], path, line, result.warnings))
    if not result.cases:
        result.warnings.append(f"{path}: no cases found")
    return result
