"""The store protocols of cases, runs, consultations and metrics.

The use cases in `core.usecases` take these; `db.store.SqliteStore` implements them on the
SQLite file, and a test store may implement them in memory. Methods take and return
`core.records` models and core domain objects (`Case`, `Transcript`, `Metrics`), never
row dicts.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any, Protocol

from core.case import Case
from core.events import EventSink
from core.metrics.base import Metrics
from core.ports.tools import ToolStore
from core.records.leases import LeaseRecord
from core.records.runs import (CaseImportReport, CaseLabel, ConsultationSummary, LiveRow,
                               MetricState, RunProgress, RunRecord)
from core.transcript import Transcript


class CaseStore(Protocol):
    """Stored cases (the bundled library lives in files; imported cases live here)."""

    def save_cases(self, cases: list[Case]) -> int:
        """Insert or replace cases; return how many were written."""
        ...

    def import_cases(self, cases: list[Case]) -> CaseImportReport:
        """Add new cases, replace changed ones, leave identical ones; say which were which."""
        ...

    def get_case(self, case_id: str) -> Case:
        """One case; NotFoundError when it is not stored."""
        ...

    def list_cases(self, *, sources: Collection[str] | None = None,
                   exclude: Collection[str] = ()) -> list[Case]:
        """Stored cases, by id: of `sources` only when given, never of `exclude`."""
        ...

    def has_case(self, case_id: str) -> bool:
        """Whether a case with this id is stored."""
        ...

    def case_hashes(self) -> dict[str, str]:
        """Content hash of every stored case, by id."""
        ...

    def case_labels(self) -> dict[str, CaseLabel]:
        """Title, source, specialty, language and placeholder flag of every stored case."""
        ...


class RunStore(Protocol):
    """Batch runs and what the live screen polls about them."""

    def create_run(self, *, config: dict[str, Any], provenance: dict[str, Any],
                   name: str | None = None, run_id: str | None = None) -> str:
        """Record a new run (status 'running'); return its id."""
        ...

    def set_run_status(self, run_id: str, status: str) -> None:
        """running / finished / cancelled / interrupted / failed."""
        ...

    def get_run(self, run_ref: str) -> RunRecord:
        """A run by id or name; NotFoundError otherwise."""
        ...

    def find_run(self, run_id: str) -> RunRecord | None:
        """A run by id, or None."""
        ...

    def list_runs(self) -> list[RunRecord]:
        """Every run, newest first, with its consultation counts."""
        ...

    def run_status_counts(self, run_id: str) -> dict[str, int]:
        """How many consultations of the run are in each status (superseded left out)."""
        ...

    def first_failure(self, run_id: str) -> str | None:
        """The error of the run's earliest failed consultation, if any."""
        ...

    def failure_reasons(self, run_id: str, limit: int = 3) -> list[tuple[str, int]]:
        """The run's distinct failure reasons and their counts, most frequent first."""
        ...

    def run_progress(self, run_id: str) -> RunProgress:
        """Consultations, turns and ended consultations of the run."""
        ...

    def live_rows(self, run_id: str | None) -> list[LiveRow]:
        """The run's consultations (every running one when None) with their progress."""
        ...


class ConsultationStore(Protocol):
    """Consultations, their turns, and the sink that records them as they happen."""

    def recorder(self, fence: tuple[str, str] | None = None) -> EventSink:
        """A sink that commits every event the moment it arrives; with `fence` (run id,
        lease token), events of that run only while the token holds its lease (else
        LeaseLostError)."""
        ...

    def done_keys(self, run_id: str, *, retry_failed: bool = False) -> set[tuple[str, str]]:
        """(case_id, config_key) pairs of the run not to be run again."""
        ...

    def abandon_interrupted(self, run_id: str) -> int:
        """Mark the run's consultations left running by a killed process as abandoned."""
        ...

    def save_transcript(self, transcript: Transcript, *, consultation_id: str,
                        run_id: str | None = None, origin: str = "imported") -> str:
        """Store a finished transcript (imported dialogues) whole."""
        ...

    def has_consultation(self, consultation_id: str) -> bool:
        """Whether a consultation with this id is stored."""
        ...

    def get_consultation(self, consultation_id: str) -> ConsultationSummary:
        """One consultation; NotFoundError otherwise."""
        ...

    def find_consultation(self, consultation_id: str) -> ConsultationSummary | None:
        """One consultation, or None."""
        ...

    def get_transcript(self, consultation_id: str) -> Transcript:
        """A stored consultation rebuilt as a Transcript."""
        ...

    def list_consultations(self, *, run_id: str | None = None, status: str | None = None,
                           include_superseded: bool = False, newest_first: bool = False,
                           limit: int | None = None) -> list[ConsultationSummary]:
        """Consultations (of one run, in one status), by id or newest first."""
        ...

    def consultation_rows(self, *, run_id: str | None = None,
                          status: str | None = None) -> list[dict[str, Any]]:
        """Consultations (not superseded; of one run, in one status) as plain rows: the
        summary's values without verdicts, report and meta, `correct` as stored (0 / 1),
        the config parsed."""
        ...

    def turn_count(self, consultation_id: str) -> int:
        """How many turns of the consultation are stored."""
        ...

    def seen_case_ids(self, doctor: str) -> set[str]:
        """Cases this doctor has played (any status but cancelled)."""
        ...


class MetricStore(Protocol):
    """Metric values of consultations: one per (consultation, name), and the LLM-judged
    ones (report score, patient ratings) one per (consultation, name, judge)."""

    def save_metrics(self, consultation_id: str, metrics: Metrics, *,
                     case_hash: str | None = None, cache_key: str | None = None) -> int:
        """Insert or replace one value per metric; return how many."""
        ...

    def get_metrics(self, consultation_id: str) -> Metrics:
        """Every stored metric of one consultation, `{name: (value, detail)}`."""
        ...

    def metrics_by_consultation(self, consultation_ids: Iterable[str],
                                names: Iterable[str] | None = None, *,
                                details: Iterable[str] | None = None) -> dict[str, Metrics]:
        """consultation → `{name: (value, detail)}` of these consultations (these metric
        names; all when None), for tables that read thousands of values at once; with
        `details`, only those names' details are read (the others are `{}`, and left out
        when they have no value)."""
        ...

    def metric_states(self, names: Iterable[str], *, run_id: str | None = None
                      ) -> list[MetricState]:
        """Every finished consultation (not superseded; of one run) with the case version
        its metrics `names` were all computed on (None when incomplete or mixed)."""
        ...

    def metric_hashes(self, names: Iterable[str]) -> dict[str, dict[str, str | None]]:
        """consultation → metric name → content hash of the case each stored value (of
        these metrics) was computed on: what tells a stale value from a current one."""
        ...

    def save_judged(self, consultation_id: str, judge: str, metrics: Metrics, *,
                    case_hash: str | None = None, cache_key: str | None = None) -> int:
        """Insert or replace this judge's value of each (LLM-judged) metric; another
        judge's values are left as they are. Return how many."""
        ...

    def judged_values(self, consultation_ids: Iterable[str], names: Iterable[str],
                      judges: Iterable[str] | None = None
                      ) -> dict[str, dict[str, dict[str, tuple[float | None, dict[str, Any]]]]]:
        """name → consultation → judge → (value, detail) of these consultations' judged
        values (of these judges; all when None)."""
        ...

    def judged_keys(self, names: Iterable[str]
                    ) -> dict[str, dict[str, dict[str, tuple[str | None, bool]]]]:
        """consultation → judge → metric name → (cache key, whether the call failed) of each
        stored judged value of these metrics: what tells a value already paid for."""
        ...

    def judge_activity(self, consultation_ids: Iterable[str], names: Iterable[str]
                       ) -> dict[str, tuple[int, int, str]]:
        """judge → (consultations it has a value for, of which defined, latest time it
        computed one) among these consultations and metrics."""
        ...


class LeaseStore(Protocol):
    """Run leases (one owner per run) and the claims of its worker processes; each
    decision is atomic across processes."""

    def take_lease(self, lease: LeaseRecord,
                   may_take: Callable[[LeaseRecord], bool]) -> LeaseRecord | None:
        """Take the run's lease unless a holder exists and `may_take(holder)` is False;
        None when taken, else the holder."""
        ...

    def get_lease(self, run_id: str) -> LeaseRecord | None:
        """The run's lease, if held."""
        ...

    def renew_lease(self, run_id: str, token: str, at: float) -> bool:
        """The heartbeat; False when `token` no longer holds the lease."""
        ...

    def release_lease(self, run_id: str, token: str, status: str | None) -> bool:
        """Let go of the lease, setting the run's final status, if `token` still holds it."""
        ...

    def claim(self, run_id: str, token: str, unit: str, worker: int) -> bool:
        """Claim a unit of the run's work for a worker of lease `token`; False if taken."""
        ...


class RunsStore(CaseStore, RunStore, ConsultationStore, MetricStore, ToolStore, LeaseStore,
                Protocol):
    """Everything the run, play, scoring, import and results use cases need (the doctor
    tools' corpus and notebooks and the run leases included)."""
