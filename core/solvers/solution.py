"""What a solver hands back (`Solution`) and the memory a run's consultations share
(`RunState`). Apart from `core.solvers.base` so the solver context can use them without an
import loop."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from core.transcript import EndReason, FinalReport


@dataclass
class Solution:
    """What a solver hands back: the doctor's answer, before anyone judges it."""

    diagnosis: str | None = None  # None: no diagnosis (the budget ran out)
    report: FinalReport | None = None
    end_reason: EndReason | None = None  # default: diagnosis → 'diagnosis', else 'budget'
    meta: dict[str, Any] = field(default_factory=dict)  # merged into the transcript's meta

    def ending(self) -> EndReason:
        """Why the consultation ended."""
        if self.end_reason is not None:
            return self.end_reason
        return EndReason.DIAGNOSIS if self.diagnosis is not None else EndReason.BUDGET


class RunState:
    """Memory shared by the consultations of one run (a notebook, a library of solved
    cases), keyed by whatever the solver chooses (e.g. solver name and doctor). The batch
    passes one per run to every consultation; by default it lives as long as the batch."""

    def __init__(self) -> None:
        self._data: dict[str, Any] = {}

    def get(self, key: str, default: Any = None) -> Any:
        """The value stored under `key`, or `default`."""
        return self._data.get(key, default)

    def put(self, key: str, value: Any) -> None:
        """Store `value` under `key` for the rest of the run."""
        self._data[key] = value
