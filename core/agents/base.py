"""The small protocol every agent follows, and what an agent returns.

Each role has one async method. Agents are built from their role's view only (see
`core.views`) and never see the case. Streaming agents call `on_delta(text)` with each new
piece of text; the engine turns those calls into `TokenDelta` events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.images import CaseImage
from core.transcript import FinalReport, Turn, Usage, Verdict

DeltaFn = Callable[[str], None]


#: Reply meta of a doctor turn that ends the consultation without naming a diagnosis (a
#: replay line with none); any other doctor ends with `DIAGNOSIS READY: <diagnosis>`.
ENDS = "ends_without_diagnosis"


def no_delta(_: str) -> None:
    """The on_delta of callers that do not stream."""


@dataclass
class Reply:
    """One agent utterance plus what it cost and how it was produced."""

    text: str
    usage: Usage = field(default_factory=Usage)
    model: str | None = None
    raw_request: Any = None
    raw_response: Any = None
    meta: dict[str, Any] = field(default_factory=dict)
    report: FinalReport | None = None  # a human doctor's diagnosis form carries its report


@dataclass(frozen=True)
class DoctorState:
    """What the doctor knows when it takes a turn: the dialogue so far and the budget."""

    turns: list[Turn]
    doctor_turn: int  # 1-based number of the turn about to be taken
    max_turns: int
    # The images the doctor has been shown so far (up front, then those it asked for), and
    # how many more it may ask for with REQUEST IMAGES.
    images: tuple[CaseImage, ...] = ()
    images_pending: int = 0

    @property
    def is_last(self) -> bool:
        """True on the final turn of the budget (the doctor is told so)."""
        return self.doctor_turn >= self.max_turns


class Doctor(Protocol):
    """Asks, orders tests, and commits to a diagnosis."""

    label: str

    async def act(self, state: DoctorState, on_delta: DeltaFn) -> Reply:
        """The next doctor message (a question, `REQUEST TEST: ...` or `DIAGNOSIS READY: ...`)."""
        ...

    async def report(self, state: DoctorState, on_delta: DeltaFn) -> Reply:
        """The structured final report (Reply.report set), after the diagnosis."""
        ...


class Patient(Protocol):
    """Answers the doctor's questions from its PatientView."""

    label: str

    async def answer(self, question: str, turns: list[Turn], on_delta: DeltaFn) -> Reply:
        """Answer one doctor question; `turns` is the dialogue before it."""
        ...


class Examiner(Protocol):
    """Reports stored findings and results for named tests, from its ExaminerView."""

    label: str

    async def examine(self, tests: list[str], message: str, on_delta: DeltaFn) -> Reply:
        """Results for the named tests; a refusal (meta['refused']) when none is named."""
        ...


class Moderator(Protocol):
    """Judges the doctor's diagnosis against the ModeratorView."""

    label: str

    async def judge(self, diagnosis: str) -> tuple[Verdict, Reply | None]:
        """The verdict, and the model call behind it (None for model-free moderators)."""
        ...
