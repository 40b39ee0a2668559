"""The SQLite store: one object implementing the store protocols of `core.ports` by
composing the repositories (`db.cases`, `db.runs`, `db.leases`, `db.consultations`,
`db.metrics`, `db.fidelity`, `db.corpus`).

`open_store(path)` is how the command line and the app open a project: it opens and
migrates through `db.connection.open_db`, the one place that does. A store wraps one
`sqlite3` connection, which belongs to the thread that opened it: open one per thread.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from core.case import Case
from core.events import EventSink
from core.fidelity.models import AnswerFinding
from core.metrics.base import Metrics
from core.ports.agenthospital import EvolutionStore
from core.ports.hospital import HospitalStore
from core.ports.fidelity import FidelityRunsStore
from core.records.fidelity import GraderRecord, StoredGrade
from core.records.tools import CorpusDocument, NewDocument, NotebookVersion, Passage
from core.records.leases import LeaseRecord
from core.records.runs import (CaseImportReport, CaseLabel, ConsultationSummary, LiveRow,
                               MetricState, RunProgress, RunRecord, StudyListRow)
from core.transcript import Transcript
from db import cases as case_repo
from db.agenthospital import EvolutionRepository
from db.hospital import HospitalRepository
from db import consultations as consultation_repo
from db import corpus as corpus_repo
from db import fidelity as fidelity_repo
from db import judged as judged_repo
from db import leases as lease_repo
from db import metrics as metric_repo
from db import runs as run_repo
from db import tables as table_repo
from db.connection import open_db


class SqliteStore(EvolutionRepository, HospitalRepository):
    """Cases, runs, consultations, metrics, fidelity and the doctor tools' corpus in one
    SQLite file (`core.ports.RunsStore`, `core.ports.fidelity.FidelityStore`), and the
    Agent Hospital evolutions (`core.ports.agenthospital.EvolutionStore`, from
    `EvolutionRepository`) and the whole hospital's events
    (`core.ports.hospital.HospitalEventStore`, from `HospitalRepository`)."""

    def __init__(self, db: Database) -> None:
        #: The connection, for repositories not yet behind a protocol (reader studies).
        self.db = db

    def close(self) -> None:
        """Close the connection."""
        self.db.conn.close()

    # -- cases ------------------------------------------------------------------------------
    def save_cases(self, cases: list[Case]) -> int:
        """Insert or replace cases; return how many were written."""
        return case_repo.save_cases(self.db, cases)

    def import_cases(self, cases: list[Case]) -> CaseImportReport:
        """Add new cases, replace changed ones, leave identical ones; say which were which."""
        return case_repo.import_cases(self.db, cases)

    def get_case(self, case_id: str) -> Case:
        """One case; NotFoundError when it is not stored."""
        return case_repo.get_case(self.db, case_id)

    def list_cases(self, *, sources: Collection[str] | None = None,
                   exclude: Collection[str] = ()) -> list[Case]:
        """Stored cases, by id (of `sources` only when given, never of `exclude`)."""
        return case_repo.list_cases(self.db, sources=sources, exclude=exclude)

    def has_case(self, case_id: str) -> bool:
        """Whether a case with this id is stored."""
        return case_repo.has_case(self.db, case_id)

    def case_hashes(self) -> dict[str, str]:
        """Content hash of every stored case, by id."""
        return case_repo.case_hashes(self.db)

    def case_labels(self) -> dict[str, CaseLabel]:
        """Title, source, specialty, language and placeholder flag of every stored case."""
        return case_repo.case_labels(self.db)

    # -- runs -------------------------------------------------------------------------------
    def create_run(self, *, config: dict[str, Any], provenance: dict[str, Any],
                   name: str | None = None, run_id: str | None = None) -> str:
        """Record a new run (status 'running'); return its id."""
        return run_repo.create_run(self.db, config=config, provenance=provenance, name=name,
                               run_id=run_id)

    def set_run_status(self, run_id: str, status: str) -> None:
        """running / finished / cancelled / interrupted / failed."""
        run_repo.set_run_status(self.db, run_id, status)

    def get_run(self, run_ref: str) -> RunRecord:
        """A run by id or name; NotFoundError otherwise."""
        return run_repo.get_run(self.db, run_ref)

    def find_run(self, run_id: str) -> RunRecord | None:
        """A run by id, or None."""
        return run_repo.find_run(self.db, run_id)

    def list_runs(self) -> list[RunRecord]:
        """Every run, newest first, with its consultation counts."""
        return run_repo.list_runs(self.db)

    def run_status_counts(self, run_id: str) -> dict[str, int]:
        """How many consultations of the run are in each status (superseded left out)."""
        return run_repo.run_status_counts(self.db, run_id)

    def first_failure(self, run_id: str) -> str | None:
        """The error of the run's earliest failed consultation, if any."""
        return run_repo.first_failure(self.db, run_id)

    def failure_reasons(self, run_id: str, limit: int = 3) -> list[tuple[str, int]]:
        """The run's distinct failure reasons and their counts, most frequent first."""
        return run_repo.failure_reasons(self.db, run_id, limit)

    def run_progress(self, run_id: str) -> RunProgress:
        """Consultations, turns and ended consultations of the run."""
        return run_repo.run_progress(self.db, run_id)

    def live_rows(self, run_id: str | None) -> list[LiveRow]:
        """The run's consultations (every running one when None) with their progress."""
        return run_repo.live_rows(self.db, run_id)

    # -- leases -----------------------------------------------------------------------------
    def take_lease(self, lease: LeaseRecord,
                   may_take: Callable[[LeaseRecord], bool]) -> LeaseRecord | None:
        """Take the run's lease unless its holder may not be replaced; None or the holder."""
        return lease_repo.take_lease(self.db, lease, may_take)

    def get_lease(self, run_id: str) -> LeaseRecord | None:
        """The run's lease, if held."""
        return lease_repo.get_lease(self.db, run_id)

    def renew_lease(self, run_id: str, token: str, at: float) -> bool:
        """The heartbeat; False when the lease is no longer `token`'s."""
        return lease_repo.renew_lease(self.db, run_id, token, at)

    def release_lease(self, run_id: str, token: str, status: str | None) -> bool:
        """Let go of the lease (setting the final status) if `token` still holds it."""
        return lease_repo.release_lease(self.db, run_id, token, status)

    def claim(self, run_id: str, token: str, unit: str, worker: int) -> bool:
        """Claim a unit of the run's work for a worker; False if another has it."""
        return lease_repo.claim(self.db, run_id, token, unit, worker)

    # -- consultations ----------------------------------------------------------------------
    def recorder(self, fence: tuple[str, str] | None = None) -> EventSink:
        """A sink that commits every event the moment it arrives (of the run `fence`
        names, only while its lease token holds the lease)."""
        return consultation_repo.Recorder(self.db, fence)

    def done_keys(self, run_id: str, *, retry_failed: bool = False) -> set[tuple[str, str]]:
        """(case_id, config_key) pairs of the run not to be run again."""
        return consultation_repo.done_keys(self.db, run_id, retry_failed=retry_failed)

    def abandon_interrupted(self, run_id: str) -> int:
        """Mark the run's consultations left running by a killed process as abandoned."""
        return consultation_repo.abandon_interrupted(self.db, run_id)

    def save_transcript(self, transcript: Transcript, *, consultation_id: str,
                        run_id: str | None = None, origin: str = "imported") -> str:
        """Store a finished transcript (imported dialogues) whole."""
        return consultation_repo.save_transcript(self.db, transcript,
                                             consultation_id=consultation_id, run_id=run_id,
                                             origin=origin)

    def has_consultation(self, consultation_id: str) -> bool:
        """Whether a consultation with this id is stored."""
        return consultation_repo.has_consultation(self.db, consultation_id)

    def get_consultation(self, consultation_id: str) -> ConsultationSummary:
        """One consultation; NotFoundError otherwise."""
        return consultation_repo.get_consultation(self.db, consultation_id)

    def find_consultation(self, consultation_id: str) -> ConsultationSummary | None:
        """One consultation, or None."""
        return consultation_repo.find_consultation(self.db, consultation_id)

    def get_transcript(self, consultation_id: str) -> Transcript:
        """A stored consultation rebuilt as a Transcript."""
        return consultation_repo.get_transcript(self.db, consultation_id)

    def list_consultations(self, *, run_id: str | None = None, status: str | None = None,
                           include_superseded: bool = False, newest_first: bool = False,
                           limit: int | None = None) -> list[ConsultationSummary]:
        """Consultations (of one run, in one status), by id or newest first."""
        return consultation_repo.list_consultations(
            self.db, run_id=run_id, status=status, include_superseded=include_superseded,
            newest_first=newest_first, limit=limit)

    def consultation_rows(self, *, run_id: str | None = None,
                          status: str | None = None) -> list[dict[str, Any]]:
        """Consultations (not superseded) as plain rows for the results tables."""
        return table_repo.consultation_rows(self.db, run_id=run_id, status=status)

    def metric_states(self, names: Iterable[str], *, run_id: str | None = None
                      ) -> list[MetricState]:
        """Finished consultations and whether these metrics are complete and current."""
        return table_repo.metric_states(self.db, names, run_id=run_id)

    def turn_count(self, consultation_id: str) -> int:
        """How many turns of the consultation are stored."""
        return consultation_repo.turn_count(self.db, consultation_id)

    def seen_case_ids(self, doctor: str) -> set[str]:
        """Cases this doctor has played (any status but cancelled)."""
        return consultation_repo.seen_case_ids(self.db, doctor)

    # -- metrics ----------------------------------------------------------------------------
    def save_metrics(self, consultation_id: str, metrics: Metrics, *,
                     case_hash: str | None = None, cache_key: str | None = None) -> int:
        """Insert or replace one value per metric; return how many."""
        return metric_repo.save_metrics(self.db, consultation_id, metrics, case_hash=case_hash,
                                    cache_key=cache_key)

    def get_metrics(self, consultation_id: str) -> Metrics:
        """Every stored metric of one consultation, `{name: (value, detail)}` (a judged one
        as its most recent judge gave it)."""
        return metric_repo.get_metrics(self.db, consultation_id)

    def metrics_by_consultation(self, consultation_ids: Iterable[str],
                                names: Iterable[str] | None = None, *,
                                details: Iterable[str] | None = None) -> dict[str, Metrics]:
        """consultation → `{name: (value, detail)}` (these names; all when None; the
        details of the names in `details` only, when given, the others `{}`, and left
        out when they have no value)."""
        return metric_repo.metrics_by_consultation(self.db, consultation_ids, names,
                                                   details=details)

    def metric_hashes(self, names: Iterable[str]) -> dict[str, dict[str, str | None]]:
        """consultation → metric name → case content hash of each stored value."""
        return metric_repo.metric_hashes(self.db, names)

    def save_judged(self, consultation_id: str, judge: str, metrics: Metrics, *,
                    case_hash: str | None = None, cache_key: str | None = None) -> int:
        """Insert or replace this judge's value of each metric; return how many."""
        return judged_repo.save_judged(self.db, consultation_id, judge, metrics,
                                       case_hash=case_hash, cache_key=cache_key)

    def judged_values(self, consultation_ids: Iterable[str], names: Iterable[str],
                      judges: Iterable[str] | None = None) -> judged_repo.Judged:
        """name → consultation → judge → (value, detail)."""
        return judged_repo.judged_values(self.db, consultation_ids, names, judges)

    def judged_keys(self, names: Iterable[str]
                    ) -> dict[str, dict[str, dict[str, tuple[str | None, bool]]]]:
        """consultation → judge → metric name → (cache key, failed)."""
        return judged_repo.judged_keys(self.db, names)

    def judge_activity(self, consultation_ids: Iterable[str], names: Iterable[str]
                       ) -> dict[str, tuple[int, int, str]]:
        """judge → (consultations with a value, of which defined, latest time)."""
        return judged_repo.judge_activity(self.db, consultation_ids, names)

    # -- simulator fidelity -----------------------------------------------------------------
    def save_fidelity(self, consultation_id: str, findings: list[AnswerFinding], *,
                      case_hash: str | None, rules_hash: str) -> None:
        """Store (replacing) the rules' findings of one consultation."""
        fidelity_repo.save_fidelity(self.db, consultation_id, findings, case_hash=case_hash,
                                    rules_hash=rules_hash)

    def fidelity_hashes(self, consultation_ids: Iterable[str]
                        ) -> dict[str, tuple[str | None, str]]:
        """consultation → (case hash, rules hash) of its stored findings."""
        return fidelity_repo.fidelity_hashes(self.db, consultation_ids)

    def fidelity_findings(self, consultation_ids: Iterable[str]
                          ) -> dict[str, list[AnswerFinding]]:
        """consultation → its stored findings."""
        return fidelity_repo.fidelity_findings(self.db, consultation_ids)

    def save_grade(self, grade: StoredGrade) -> None:
        """Store (replacing) one grader verdict."""
        fidelity_repo.save_grade(self.db, grade)

    def fidelity_grades(self, consultation_ids: Iterable[str], grader_key: str
                        ) -> dict[tuple[str, int], StoredGrade]:
        """(consultation, turn index) → one grader's verdict."""
        return fidelity_repo.fidelity_grades(self.db, consultation_ids, grader_key)

    def fidelity_graders(self, consultation_ids: Iterable[str]) -> list[GraderRecord]:
        """The graders with verdicts on these consultations, latest first."""
        return fidelity_repo.fidelity_graders(self.db, consultation_ids)

    def fidelity_counts(self) -> dict[str, int]:
        """run → how many of its consultations have stored findings."""
        return fidelity_repo.fidelity_counts(self.db)

    # -- doctor tools: the search corpus and the notebooks ----------------------------------
    def corpus_search(self, query: str, limit: int) -> list[Passage]:
        """The passages that best match `query` (at most `limit`), best first."""
        return corpus_repo.search(self.db, query, limit)

    def corpus_documents(self) -> list[CorpusDocument]:
        """Every document of the corpus, by path."""
        return corpus_repo.corpus_documents(self.db)

    def corpus_hashes(self) -> dict[str, str]:
        """path → sha256 of every document."""
        return corpus_repo.corpus_hashes(self.db)

    def save_corpus_document(self, document: NewDocument) -> CorpusDocument:
        """Add a document, or replace the one read from the same path, and its passages."""
        return corpus_repo.save_document(self.db, document)

    def remove_corpus_documents(self, ids: list[str]) -> int:
        """Remove documents (and their passages) by id; return how many."""
        return corpus_repo.remove_documents(self.db, ids)

    def notebook_versions(self, run_id: str) -> list[NotebookVersion]:
        """Notebook versions of the run's finished or failed consultations, in order."""
        return corpus_repo.notebook_versions(self.db, run_id)

    # -- reader studies ---------------------------------------------------------------------
    def study_rows(self) -> list[StudyListRow]:
        """Reader studies for the home screen's Studies tab (newest first, with progress).

        Stop-gap: `db.study_listing` until the typed study repository lists the same.
        """
        from db.study_listing import study_rows

        return study_rows(self.db)


def open_store(path: Path | str | None = None, *, migrate: bool = True) -> SqliteStore:
    """Open (creating and migrating if needed) the project database at `path` (the default
    one when None) as a store."""
    return SqliteStore(open_db(path, migrate=migrate))


def _implements_the_protocols(store: SqliteStore) -> FidelityRunsStore:
    """Never called: mypy checks here that SqliteStore implements every store protocol the
    use cases take (a method missing or of another shape is a type error)."""
    evolutions: EvolutionStore = store
    hospital: HospitalStore = store
    assert evolutions is store and hospital is store
    return store
