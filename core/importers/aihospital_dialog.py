"""Importer for AI Hospital dialogue histories (JSONL) → Transcripts.

Each line holds `patient_id`, the agents' classes and engines, `time` and
`dialog_history: [{turn, role, content}]`. As in AI Hospital, the patient starts each
message with its addressee — <对医生讲> (to the doctor) or <对检查员讲> (to the examiner) —
so only the LEADING tags route a message; a tag later in the text is kept as written. An
untagged patient message goes to the doctor (AI Hospital's default). <结束> (end) may come
first or last; it sets `meta["end"]` and is removed. The doctor always speaks to the
patient; the Reporter (examiner) answers the doctor — in the histories its report is
followed by the doctor's turn, which uses it. The doctor's closing '#症状# ... #治疗方案#'
message becomes the transcript's FinalReport.

`meta["import"]` records the source file, line and a SHA-256 of the record, so that a
re-import of the same record is recognised and skipped.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from core.errors import InputError
from core.importers.base import (
    ImportResult,
    bullets_to_items,
    flatten_text,
    record_digest,
    safe_id,
    transcripts_once,
)
from core.transcript import EndReason, FinalReport, Role, Transcript, Turn

TAG_DOCTOR, TAG_EXAMINER, TAG_END = "<对医生讲>", "<对检查员讲>", "<结束>"
_LEADING = re.compile(r"^(?:\s*(?:<对医生讲>|<对检查员讲>|<结束>))+\s*")
_TAG = re.compile(r"<对医生讲>|<对检查员讲>|<结束>")
_ROLES = {
    "doctor": Role.DOCTOR, "医生": Role.DOCTOR,
    "patient": Role.PATIENT, "患者": Role.PATIENT, "病人": Role.PATIENT,
    "reporter": Role.EXAMINER, "examiner": Role.EXAMINER, "检查员": Role.EXAMINER,
    "moderator": Role.MODERATOR, "system": Role.SYSTEM,
}
# Report headings → FinalReport fields; checked in order ('诊断依据' before '诊断').
_REPORT = (
    ("依据", "rationale"), ("basis", "rationale"), ("rationale", "rationale"),
    ("鉴别", "differential"), ("differential", "differential"),
    ("症状", "symptoms"), ("symptom", "symptoms"),
    ("检查", "examinations"), ("exam", "examinations"),
    ("治疗", "treatment_plan"), ("treatment", "treatment_plan"),
    ("诊断", "diagnostic_results"), ("diagnos", "diagnostic_results"),
)
_HEADING = re.compile(r"#([^#\n]{1,30})#")


def split_tags(content: str) -> tuple[str, list[str]]:
    """Strip the leading routing tags and every <结束>; return (text, tags).

    `tags` are the leading tags in order, plus <结束> if it occurs anywhere. A routing tag
    after the start is part of what the patient said and stays in the text.
    """
    m = _LEADING.match(content)
    leading = _TAG.findall(m.group(0)) if m else []
    rest = content[m.end():] if m else content
    clean = re.sub(r"\s*<结束>\s*", lambda t: "\n" if t.start() and t.end() < len(rest)
                   else "", rest)
    if TAG_END in rest and TAG_END not in leading:
        leading.append(TAG_END)
    return clean.strip(), leading


def addressee_of(tags: list[str]) -> Role:
    """The first routing tag decides; no routing tag means the doctor."""
    first = next((t for t in tags if t != TAG_END), TAG_DOCTOR)
    return Role.EXAMINER if first == TAG_EXAMINER else Role.DOCTOR


def reported_tests(content: str) -> list[str]:
    """Names of the tests a Reporter message reports: its top-level '- name:' bullets."""
    body = re.sub(r"^\s*#[^#\n]*#\s*", "", content)
    names = [m.group(1).strip() for m in re.finditer(r"^[-*•]\s*([^:：\n]{1,40}?)\s*[:：]",
                                                      body, re.MULTILINE)]
    if names:
        return list(dict.fromkeys(names))
    return [i.name for i in bullets_to_items(body, "") if i.name]


def parse_report(content: str) -> FinalReport | None:
    """The doctor's '#heading#' report, if the message is one (needs a diagnosis part)."""
    pieces = _HEADING.split(content)
    fields: dict[str, Any] = {}
    for heading, body in zip(pieces[1::2], pieces[2::2], strict=False):
        low = heading.strip().lower()
        field = next((f for word, f in _REPORT if word in low), None)
        if field and body.strip():
            fields[field] = body.strip()
    if "diagnostic_results" not in fields:
        return None
    if "differential" in fields:
        fields["differential"] = [fields["differential"]]
    return FinalReport(**fields)


def _turn(index: int, raw: Any, path: Path, line: int) -> Turn:
    """One Turn from one dialog_history entry."""
    field = f"dialog_history[{index}]"
    if not isinstance(raw, dict):
        raise InputError("expected an object", path=str(path), line=line, field=field)
    role_text, content = raw.get("role"), raw.get("content")
    if not isinstance(role_text, str) or role_text.strip().lower() not in _ROLES:
        raise InputError(f"unknown role {role_text!r} (Doctor, Patient, Reporter or System)",
                         path=str(path), line=line, field=f"{field}.role")
    if not isinstance(content, str):
        raise InputError("missing or not text", path=str(path), line=line,
                         field=f"{field}.content")
    role = _ROLES[role_text.strip().lower()]
    meta: dict[str, Any] = {"source_role": role_text,
                            **{k: v for k, v in raw.items() if k not in ("role", "content")}}
    source_turn = raw.get("turn") if isinstance(raw.get("turn"), int) else None
    addressee = {Role.DOCTOR: Role.PATIENT, Role.EXAMINER: Role.DOCTOR}.get(role)
    kind, tests = "message", []
    if role is Role.PATIENT:
        content, tags = split_tags(content)
        meta["tags"] = tags
        meta["end"] = TAG_END in tags
        addressee = addressee_of(tags)
        kind = "test_request" if addressee is Role.EXAMINER else "answer"
    elif role is Role.EXAMINER:
        kind = "result"
        tests = reported_tests(content)
    elif parse_report(content):
        kind = "report"
    doctor_turn = None
    if source_turn is not None:  # source turn t of the doctor is answered in patient turn t+1
        doctor_turn = source_turn + 1 if role is Role.DOCTOR else max(source_turn, 1)
    return Turn(index=index, role=role, addressee=addressee, content=content, kind=kind,
                tests=tests, doctor_turn=doctor_turn, meta=meta)


def transcript_from_record(record: dict[str, Any], path: Path, line: int) -> Transcript:
    """One Transcript from one dialogue-history line."""
    history = record.get("dialog_history")
    if not isinstance(history, list):
        raise InputError("missing or not a list", path=str(path), line=line,
                         field="dialog_history")
    turns = [_turn(i, raw, path, line) for i, raw in enumerate(history)]
    report = next((r for t in reversed(turns) if t.role is Role.DOCTOR
                   and (r := parse_report(t.content))), None)
    pid = flatten_text(record.get("patient_id")).strip()
    case_id = safe_id("aihospital", pid) if pid else safe_id("aihospital-dialog", line)
    doctor = flatten_text(record.get("doctor_engine_name") or record.get("doctor")).strip()
    meta = {k: v for k, v in record.items() if k != "dialog_history"}
    meta["import"] = {"format": "aihospital-dialog", "file": path.name, "line": line,
                      "sha256": record_digest(record)}
    try:
        return Transcript(case_id=case_id, turns=turns, end_reason=EndReason.IMPORTED,
                          doctor=doctor or None, meta=meta, report=report,
                          diagnosis=report.diagnostic_results if report else None)
    except ValidationError as err:  # pragma: no cover - fields above are already checked
        raise InputError(err.errors()[0]["msg"], path=str(path), line=line) from None


def import_aihospital_dialog(path: Path) -> ImportResult:
    """Import an AI Hospital dialogue-history file (JSONL, one consultation per line).

    The same record twice in one file is imported once (with a warning).
    """
    return transcripts_once(path, transcript_from_record, "dialogue")
