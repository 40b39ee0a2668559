"""Importer for AI Hospital's released collaboration outputs (JSONL) → joint results.

AI Hospital's `CollaborativeConsultation` writes one line per patient: `patient_id`,
`final_turn` (the discussion rounds held: 0 when the doctors agreed at once), the host's
joint report `diagnosis` ('#诊断结果#', '#诊断依据#', '#治疗方案#', often under a
'#最终诊断#' heading), the host's pooled `symptom_and_examination`, `doctor_ids` (the
dialogue file each doctor's consultation came from), `doctor_engine_names`, `host`,
`host_engine_name`, the patient's and reporter's agents and engines, `doctor_database` and
`time`. The rounds themselves are not in the file.

Each line becomes a joint consultation (as `core.solvers.collaborate` stores its own, see
`core.collaboration`): a host turn with the pooled findings (kind 'summary') and one with
the joint report (kind 'final'); the report parsed into its parts, its diagnostic results
the diagnosis; `meta["collaboration"]` with the doctors (A, B, … with their engine and
dialogue file), `rounds` = `final_turn`, and consensus read with AI Hospital's released
maximum of 4 rounds (its run script): `final_turn` below 4 is consensus in that round, 4
is left unsaid (agreement in the last round and none look the same). Dispute resolution is
read from the file name ('critique': yes; 'parallel' without it: no; else unsaid). The
doctors' own consultations are linked when the file is stored
(`core.usecases.collaboration_import`), to the dialogues imported with
`aihospital-dialog`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from core.collaboration import COLLABORATE, LABELS, Member, Summary
from core.errors import InputError
from core.importers.aihospital_dialog import parse_report
from core.importers.base import (ImportResult, flatten_text, record_digest, safe_id,
                                  transcripts_once)
from core.transcript import EndReason, Role, Transcript, Turn

FORMAT = "aihospital-collaboration"
RELEASED_ROUNDS = 4  # max_discussion_turn of AI Hospital's released runs (scripts/run_md.sh)


def _dispute_resolution(path: Path) -> bool | None:
    name = path.name.lower()
    if "critique" in name:
        return True
    return False if "parallel" in name else None


def _engines(record: dict[str, Any], path: Path, line: int) -> list[str]:
    engines = record.get("doctor_engine_names")
    if not isinstance(engines, list) or not engines or \
            not all(isinstance(e, str) and e.strip() for e in engines):
        raise InputError("expected a list of the doctors' engine names", path=str(path),
                         line=line, field="doctor_engine_names")
    if len(engines) > len(LABELS):
        raise InputError(f"at most {len(LABELS)} doctors (got {len(engines)})",
                         path=str(path), line=line, field="doctor_engine_names")
    return [e.strip() for e in engines]


def _sources(record: dict[str, Any], count: int, path: Path, line: int) -> list[str | None]:
    ids = record.get("doctor_ids")
    if ids is None:
        return [None] * count
    if not isinstance(ids, list) or len(ids) != count:
        raise InputError(f"expected a list of {count} dialogue files, one per doctor",
                         path=str(path), line=line, field="doctor_ids")
    return [Path(str(i)).name if str(i).strip() else None for i in ids]


def _rounds(record: dict[str, Any], path: Path, line: int) -> int:
    value = record.get("final_turn")
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(f"expected a whole number of rounds, 0 or more (got {value!r})",
                         path=str(path), line=line, field="final_turn")
    return value


def transcript_from_record(record: dict[str, Any], path: Path, line: int) -> Transcript:
    """One joint result from one line (its doctors not linked yet)."""
    pid = flatten_text(record.get("patient_id")).strip()
    if not pid:
        raise InputError("missing", path=str(path), line=line, field="patient_id")
    text = record.get("diagnosis")
    if not isinstance(text, str) or not text.strip():
        raise InputError("missing or not text (the host's joint report)", path=str(path),
                         line=line, field="diagnosis")
    engines = _engines(record, path, line)
    rounds = _rounds(record, path, line)
    agreed = rounds < RELEASED_ROUNDS
    summary = Summary(
        doctors=[Member(label=label, doctor=engine, source=source) for label, engine, source
                 in zip(LABELS, engines, _sources(record, len(engines), path, line),
                        strict=False)],
        rounds=rounds, consensus=True if agreed else None,
        consensus_round=rounds if agreed else None, max_rounds=None,
        dispute_resolution=_dispute_resolution(path),
        host=flatten_text(record.get("host_engine_name")).strip() or None)
    turns = []
    pooled = record.get("symptom_and_examination")
    if isinstance(pooled, str) and pooled.strip():
        turns.append(Turn(index=0, role=Role.HOST, kind="summary", content=pooled.strip(),
                          meta={"round": 0}))
    turns.append(Turn(index=len(turns), role=Role.HOST, kind="final", content=text.strip(),
                      model=summary.host))
    report = parse_report(text)
    meta = {k: v for k, v in record.items() if k not in ("diagnosis", "symptom_and_examination")}
    meta.update(mode=COLLABORATE, collaboration=summary.model_dump(mode="json"),
                **{"import": {"format": FORMAT, "file": path.name, "line": line,
                              "sha256": record_digest(record)}})
    return Transcript(case_id=safe_id("aihospital", pid), turns=turns,
                      end_reason=EndReason.IMPORTED, doctor=" + ".join(engines), meta=meta,
                      report=report, diagnosis=report.diagnostic_results if report else None)


def import_aihospital_collaboration(path: Path) -> ImportResult:
    """Import an AI Hospital collaboration output file (JSONL, one patient per line); the
    same line twice is imported once (with a warning)."""
    return transcripts_once(path, transcript_from_record, "collaboration result")


def dialogue_stem(name: str | None) -> str | None:
    """A dialogue file's name as AI Hospital's runs name it, without the folder, the
    extension or a trailing date tag ('dialog_history_gpt4_1122.jsonl' →
    'dialog_history_gpt4'): how a collaboration's `doctor_ids` meet the released files."""
    if not name:
        return None
    stem = Path(name).name.rsplit(".", 1)[0]
    return re.sub(r"_\d{3,8}$", "", stem)
