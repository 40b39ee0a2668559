"""The human doctor: each turn comes from the user interface through an awaitable.

`next_action()` returns either the text the physician typed (a question or a
`REQUEST TEST: ...` line) or a diagnosis form: any object with a `diagnosis` attribute and
optionally `differential`, `rationale` and `treatment`, which ends the consultation and
becomes the final report.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from core.agents.base import DeltaFn, DoctorState, Reply
from core.errors import BedsideError
from core.transcript import FinalReport

HumanInput = Callable[..., Awaitable[Any]]


def _report_from_form(form: Any) -> FinalReport:
    return FinalReport(
        diagnostic_results=str(form.diagnosis),
        rationale=getattr(form, "rationale", None) or None,
        treatment_plan=getattr(form, "treatment", None) or None,
        differential=[str(d) for d in getattr(form, "differential", None) or []],
    )


class HumanDoctor:
    """A physician at the keyboard."""

    def __init__(self, next_action: HumanInput, label: str = "human") -> None:
        self.next_action = next_action
        self.label = label
        self._report: FinalReport | None = None

    async def act(self, state: DoctorState, on_delta: DeltaFn) -> Reply:
        """Wait for the physician's next message or diagnosis form."""
        action = await self.next_action(state)
        if isinstance(action, str):
            return Reply(text=action, model=self.label)
        if getattr(action, "diagnosis", None) is None:
            raise BedsideError("the user interface returned neither text nor a diagnosis")
        self._report = _report_from_form(action)
        return Reply(text=f"DIAGNOSIS READY: {action.diagnosis}", model=self.label,
                     report=self._report)

    async def report(self, state: DoctorState, on_delta: DeltaFn) -> Reply:
        """The report is the diagnosis form the physician already filled in."""
        report = self._report or FinalReport()
        return Reply(text=report.model_dump_json(), model=self.label, report=report)
