"""Importing a peer benchmark's file: its cases and its transcripts, into a store.

Re-importing is safe: a case with a known id is updated (or left alone if identical), and a
transcript whose source record was imported before is skipped — its consultation id is a
hash of the record, so the same dialogue never appears twice. A transcript whose case
record is not in the file gets a placeholder case (never run, never scored) so that it can
be stored and rated. AI Hospital's collaboration results are linked to their doctors'
imported dialogues as they are stored (`core.usecases.collaboration_import`).

A re-import that would change a stored case's ground truth — its diagnoses, its findings
(examination) or its results (tests) — writes nothing unless asked (`update=True`): results
obtained on the old case would silently stop meaning what they meant. `TruthChanged` lists
what would change, one line per difference.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from pydantic import BaseModel, Field

from core.case import Case, GroundTruth, Item, PatientProfile
from core.errors import BedsideError, InputError
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
    truth_changes: list[str] = Field(default_factory=list, description="Ground truth of "
                                     "stored cases changed by this import (with update).")


class TruthChanged(BedsideError):
    """The import would change the ground truth of stored cases; nothing was written."""

    title = "Ground truth would change"

    def __init__(self, path: str, changes: list[str], cases: int) -> None:
        super().__init__(f"{path}: the import would change the ground truth of {cases} "
                         f"stored case(s); nothing was written (add --update to apply it)")
        self.changes = changes


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


def store_import(store: RunsStore, result: ImportResult, fmt: str, *,
                 update: bool = False, path: str = "") -> ImportOutcome:
    """Store what was read: its cases (one transaction), then its new transcripts (each in
    its own transaction). Raises TruthChanged, before writing anything, when a stored
    case's ground truth would change and `update` is not given."""
    changes = truth_changes(store, result.cases)
    if changes and not update:
        changed = len({c.split(":", 1)[0] for c in changes})
        raise TruthChanged(path or "the file", changes, changed)
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
                         relinked=relinked, warnings=warnings, truth_changes=changes)


def truth_changes(store: RunsStore, cases: list[Case]) -> list[str]:
    """'<case id>: <what>' for every ground-truth difference between the stored cases and
    these (a placeholder being replaced by its real case is no change)."""
    from core.caseio import case_hash

    stored = store.case_hashes()
    out: list[str] = []
    for case in cases:
        if case.id not in stored or stored[case.id] == case_hash(case):
            continue
        old = store.get_case(case.id)
        if not old.placeholder:
            out += [f"{case.id}: {line}" for line in _truth_diff(old, case)]
    return out


def _truth_diff(old: Case, new: Case) -> list[str]:
    out = []
    if old.truth.diagnosis != new.truth.diagnosis:
        out.append(f"diagnosis '{old.truth.diagnosis}' → '{new.truth.diagnosis}'")
    if old.truth.other_names() != new.truth.other_names():
        out.append(f"other diagnoses {old.truth.other_names()} → {new.truth.other_names()}")
    out += _items_diff("findings", old.physical_exam, new.physical_exam)
    out += _items_diff("results", old.tests, new.tests)
    return out


def _items_diff(label: str, old: list[Item], new: list[Item], most: int = 5) -> list[str]:
    """Items added, removed or with another value, by their path ('Blood tests > HbA1c')."""
    before = {" > ".join(p): i.value for item in old for p, i in item.walk()}
    after = {" > ".join(p): i.value for item in new for p, i in item.walk()}
    lines = [f"{label}: '{p}' removed" for p in before if p not in after]
    lines += [f"{label}: '{p}' added" for p in after if p not in before]
    lines += [f"{label}: '{p}' '{_short(before[p])}' → '{_short(after[p])}'"
              for p in before if p in after and before[p] != after[p]]
    if len(lines) > most:
        lines = [*lines[:most], f"{label}: and {len(lines) - most} more"]
    return lines


def _short(value: str | None, width: int = 60) -> str:
    one = " ".join((value or "").split())
    return one if len(one) <= width else one[:width - 1] + "…"


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
