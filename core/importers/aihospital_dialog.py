"""Importer for AI Hospital dialogue histories (JSONL) → Transcripts.

Each line holds `patient_id`, the agents' classes and engines, `time` and
`dialog_history: [{turn, role, content}]`. Patient lines begin with a routing tag
(<对医生讲> to the doctor, <对检查员讲> to the examiner) and may carry <结束> (end); tags
are stripped from the content and become the addressee and `meta["end"]`. The doctor's
closing '#症状# ... #治疗方案#' message becomes the transcript's FinalReport.

Must not import: textual, rich, litellm, or any other bedside package (db, annotation, tui).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from core.errors import InputError
from core.importers.base import ImportResult, bullets_to_items, iter_jsonl, read_text, safe_id
from core.transcript import EndReason, FinalReport, Role, Transcript, Turn

TAG_DOCTOR, TAG_EXAMINER, TAG_END = "<对医生讲>", "<对检查员讲>", "<结束>"
_TAGS = re.compile(r"\s*(<对医生讲>|<对检查员讲>|<结束>)\s*")
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
    """Remove routing tags from a patient line; return (clean text, tags in order)."""
    tags = _TAGS.findall(content)
    clean = _TAGS.sub(lambda m: "\n" if m.start() and m.end() < len(content) else "", content)
    return clean.strip(), tags


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
    addressee = Role.PATIENT if role in (Role.DOCTOR, Role.EXAMINER) else None
    kind, tests = "message", []
    if role is Role.PATIENT:
        content, tags = split_tags(content)
        meta["tags"] = tags
        meta["end"] = TAG_END in tags
        # An untagged patient line is answered by the doctor in the histories, so it is
        # taken as addressed to the doctor.
        addressee = Role.EXAMINER if TAG_EXAMINER in tags else Role.DOCTOR
        kind = "test_request" if addressee is Role.EXAMINER else "answer"
    elif role is Role.EXAMINER:
        kind = "result"
        tests = [i.name for i in bullets_to_items(re.sub(r"^#[^#\n]*#\s*", "", content), "")
                 if i.name]
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
    pid = record.get("patient_id")
    case_id = safe_id("aihospital", pid) if pid not in (None, "") else \
        safe_id("aihospital-dialog", line)
    doctor = record.get("doctor_engine_name") or record.get("doctor")
    meta = {k: v for k, v in record.items() if k != "dialog_history"}
    try:
        return Transcript(case_id=case_id, turns=turns, end_reason=EndReason.IMPORTED,
                          doctor=str(doctor) if doctor else None, meta=meta, report=report,
                          diagnosis=report.diagnostic_results if report else None)
    except ValidationError as err:  # pragma: no cover - fields above are already checked
        raise InputError(err.errors()[0]["msg"], path=str(path), line=line) from None


def import_aihospital_dialog(path: Path) -> ImportResult:
    """Import an AI Hospital dialogue-history JSONL file (one consultation per line)."""
    result = ImportResult()
    for line, record in iter_jsonl(path, read_text(path)):
        result.transcripts.append(transcript_from_record(record, path, line))
    if not result.transcripts:
        result.warnings.append(f"{path}: no dialogues found")
    return result
