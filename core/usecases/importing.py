"""Importing a peer benchmark's file: its cases and its transcripts, into a store.

Re-importing is safe: a case with a known id is updated (or left alone if identical), and a
transcript whose source record was imported before is skipped — its consultation id is a
hash of the record, so the same dialogue never appears twice. A transcript whose case
record is not in the file gets a placeholder case (never run, never scored) so that it can
be stored and rated. AI Hospital's collaboration results are linked to their doctors'
imported dialogues as they are stored (`core.usecases.collaboration_import`).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from pydantic import BaseModel, Field

from core.case import Case, GroundTruth, PatientProfile
from core.errors import InputError
from core.importers.base import ImportResult
from core.ports.runs import RunsStore
from core.records.runs import CaseImportReport
from core.transcript import Transcript

COLLABORATION_FORMAT = "aihospital-collaboration"


class ImportOutcome(BaseModel):
    """What importing one file did."""

    cases: int = Field(description="Cases in the file.")
    saved: CaseImportReport = Field(description="New, updated and unchanged case ids.")
    transcripts: int = Field(description="Transcripts in the file.")
    added: int = Field(description="Transcripts stored now.")
    skipped: int = Field(description="Transcripts already imported before (left alone).")
    relinked: int = Field(0, description="Collaboration results imported before whose "
                          "doctors' consultations are linked differently now (stored again).")
    warnings: list[str] = Field(default_factory=list, description="What the importer "
                                "noticed but could still import.")


def read_peer_file(fmt: str, path: Path, language: str | None = None) -> ImportResult:
    """Read and check a peer benchmark's file whole (format `fmt`, see `core.importers`);
    a bad file is an InputError naming file, line and field. `language`: the cases'
    language tag (AgentClinic files), else read from each case's text."""
    if not path.is_file():
        raise InputError("no such file", path=str(path))
    from core.importers import import_file

    return import_file(fmt, path, language)


def import_peer_file(store: RunsStore, fmt: str, path: Path) -> ImportOutcome:
    """Read `path` (`read_peer_file`), then store it (`store_import`)."""
    return store_import(store, read_peer_file(fmt, path), fmt)


def store_import(store: RunsStore, result: ImportResult, fmt: str) -> ImportOutcome:
    """Store what was read: its cases (one transaction), then its new transcripts (each in
    its own transaction)."""
    saved = store.import_cases(result.cases)
    warnings = list(result.warnings)
    relinked = 0
    if fmt == COLLABORATION_FORMAT:  # joint results, linked to their doctors' dialogues
        added, skipped, relinked = store_collaborations(store, result.transcripts, fmt,
                                                        warnings)
    else:
        added, skipped = store_transcripts(store, result.transcripts, fmt)
    return ImportOutcome(cases=len(result.cases), saved=saved,
                         transcripts=len(result.transcripts), added=added, skipped=skipped,
                         relinked=relinked, warnings=warnings)


def store_transcripts(store: RunsStore, transcripts: list[Transcript],
                      fmt: str) -> tuple[int, int]:
    """Save each new transcript (its own transaction); return (added, skipped)."""
    added = skipped = 0
    for t in transcripts:
        consultation_id = transcript_id(t)
        if store.has_consultation(consultation_id):
            skipped += 1
            continue
        if not store.has_case(t.case_id):
            store.save_cases([placeholder_case(t.case_id, language_of(t))])
        store.save_transcript(t, consultation_id=consultation_id, origin=f"import:{fmt}")
        added += 1
    return added, skipped


def store_collaborations(store: RunsStore, transcripts: list[Transcript], fmt: str,
                         warnings: list[str]) -> tuple[int, int, int]:
    """Link each joint result to its doctors' dialogues, then save it (its own
    transaction) unless stored before with the same links; (added, skipped, relinked)."""
    from core.usecases.collaboration_import import link_all, links

    added = skipped = relinked = 0
    for t in link_all(store, transcripts, warnings):
        cid = transcript_id(t)
        stored = store.find_consultation(cid)
        if stored is not None and links(stored.meta) == links(t.meta):
            skipped += 1
            continue
        if not store.has_case(t.case_id):
            store.save_cases([placeholder_case(t.case_id, language_of(t))])
        store.save_transcript(t, consultation_id=cid, origin=f"import:{fmt}")
        added, relinked = (added + 1, relinked) if stored is None else (added, relinked + 1)
    return added, skipped, relinked


def transcript_id(t: Transcript) -> str:
    """Stable consultation id of an imported transcript: a hash of its source record
    (importers put it in `meta["import"]["sha256"]`), else of the transcript itself."""
    digest = (t.meta.get("import") or {}).get("sha256") if isinstance(t.meta, dict) else None
    if not digest:
        digest = hashlib.sha256(t.model_dump_json().encode()).hexdigest()
    return f"imp-{digest[:24]}"


def placeholder_case(case_id: str, language: str = "en") -> Case:
    """A minimal case row for an imported transcript whose source record is not imported."""
    return Case(id=case_id, title=f"Imported transcript {case_id}", specialty="unknown",
                language=language, source="imported",
                objective="(imported transcript; case record not available)",
                patient=PatientProfile(), truth=GroundTruth(diagnosis="unknown"),
                placeholder=True)


def language_of(t: Transcript) -> str:
    """'zh-Hans' if the dialogue is written in Chinese, else 'en' (AI Hospital's two)."""
    text = "".join(turn.content for turn in t.turns[:4])
    return "zh-Hans" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"
