"""The offline metrics as a scorer: accuracy, diagnosis-entity precision/recall/F1 and the
clinical-pathway metrics of `core.metrics.compute.compute_metrics`, with no model call.

A one-step consultation has no pathway to judge (its pathway metrics but diagnostic and
treatment logicality are None with the reason); a placeholder case gives every value as
None ('case record not available').
"""

from __future__ import annotations

from core.case import Case
from core.metrics.compute import compute_metrics
from core.metrics.names import OFFLINE_NAMES, ONE_STEP
from core.scorers.base import Finished, Scores


class OfflineMetrics:
    """Every offline metric of a finished consultation."""

    name = "offline"
    names: tuple[str, ...] = OFFLINE_NAMES

    def __init__(self, *, use_icd: bool = True) -> None:
        self.use_icd = use_icd  # False: no ICD-10 codes (faster; entity links by name only)

    def key(self, case: Case) -> str | None:
        """None: the values depend on the case content only."""
        return None

    def compute(self, case: Case, done: Finished) -> Scores:
        """The values, synchronously (no model call is ever made)."""
        return compute_metrics(case, done.transcript, use_icd=self.use_icd,
                               one_step=done.solver == ONE_STEP or None)

    async def score(self, case: Case, done: Finished) -> Scores:
        """The values (`compute`)."""
        return self.compute(case, done)
