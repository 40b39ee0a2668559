"""The Scorer protocol (inspect_ai's Scorer idea): a finished consultation and its case in,
named values with details out.

Values have the shape of `core.metrics.base.Metrics`: `{name: (value, detail)}`, the value
a float or None (undefined, `detail["reason"]` saying why), never NaN, so every scorer's
output is stored alike. A scorer does not know which solver played the consultation
beyond `Finished.solver`, and a solver never knows how it will be scored.

A new scorer is one module with a class following `Scorer` and one line in
`core.scorers.registry`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from core.case import Case
from core.transcript import Transcript

MetricValue = tuple[float | None, dict[str, Any]]
Scores = dict[str, MetricValue]


@dataclass(frozen=True)
class Finished:
    """A finished consultation, as a scorer reads it."""

    transcript: Transcript
    solver: str = "interactive"  # the solver that played it ('one_step' for upper bounds)
    consultation_id: str | None = None

    @classmethod
    def of(cls, transcript: Transcript, *, consultation_id: str | None = None) -> Finished:
        """From a transcript alone: the solver is read from its meta (mode), if any."""
        return cls(transcript, str(transcript.meta.get("mode") or "interactive"),
                   consultation_id)


class Scorer(Protocol):
    """Turns a finished consultation into named values."""

    @property
    def name(self) -> str:
        """Registry name (e.g. 'offline', 'report_score', 'verdict:exact')."""
        ...

    @property
    def names(self) -> tuple[str, ...]:
        """The value names it gives (every one of them, always)."""
        ...

    def key(self, case: Case) -> str | None:
        """The cache key of its values for this case: values stored with the same key need
        no new call. None when values depend on the case content only (the store keeps
        the case hash beside every value)."""
        ...

    async def score(self, case: Case, done: Finished) -> Scores:
        """Every value in `names` for this consultation."""
        ...


class OfflineScorer(Scorer, Protocol):
    """A scorer that needs no model: it also computes synchronously (the store's batch
    scoring, `core.usecases.scoring.compute_offline`, calls it in a loop)."""

    def compute(self, case: Case, done: Finished) -> Scores:
        """Every value in `names`, without awaiting."""
        ...


@dataclass(frozen=True)
class TaskRow:
    """One row a task gives in the results: a label, the metric it pools, and what its n
    counts ('consultations' for a 0/1 verdict; for a share, what the detail's `hits` and
    `of` count: tests ordered, required tests, treatment requirements)."""

    label: str
    metric: str
    unit: str = "consultations"


class TaskScorer(OfflineScorer, Protocol):
    """The scorer of a task other than the interactive consultation: its values, and the
    rows, title and legend its results table shows (`core.usecases.task_results`)."""

    @property
    def title(self) -> str:
        """The heading of the task's table."""
        ...

    @property
    def legend(self) -> str:
        """What its rows mean, under the table."""
        ...

    @property
    def rows(self) -> tuple[TaskRow, ...]:
        """Its rows, in order."""
        ...
