"""Typed events a consultation emits, and the sink protocol that receives them.

The engine pushes events; the database recorder, the TUI and test collectors are sinks.
A sink's `emit` is called on the engine's event loop and must not block for long.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, Field

from core.transcript import EndReason, FinalReport, Role, Turn, Verdict, utc_now


class _Event(BaseModel):
    consultation_id: str = Field(description="Which consultation emitted it.")
    at: str = Field(default_factory=utc_now, description="ISO UTC time of the event.")


class ConsultationStarted(_Event):
    """A consultation began."""

    type: Literal["started"] = "started"
    case_id: str = Field(description="The case being played.")
    run_id: str | None = Field(None, description="The batch it belongs to, if any.")
    config: dict[str, Any] = Field(default_factory=dict, description="Agents and parameters.")
    origin: str = Field("engine", description="'engine' (interactive) or 'one_step' (the "
                        "whole case at once, the upper bound).")


class TurnStarted(_Event):
    """An agent began producing a turn."""

    type: Literal["turn_started"] = "turn_started"
    index: int = Field(description="Index the turn will have.")
    role: Role = Field(description="Who is speaking.")
    doctor_turn: int | None = Field(None, description="Doctor-turn number.")


class TokenDelta(_Event):
    """A streamed piece of a turn in progress."""

    type: Literal["token_delta"] = "token_delta"
    index: int = Field(description="Index of the turn in progress.")
    role: Role = Field(description="Who is speaking.")
    text: str = Field(description="The new text.")


class TurnCompleted(_Event):
    """A turn is complete; the store commits it at once."""

    type: Literal["turn_completed"] = "turn_completed"
    turn: Turn = Field(description="The completed turn.")


class TestRequested(_Event):
    """The doctor asked the examiner for tests."""

    __test__ = False  # not a pytest class
    type: Literal["test_requested"] = "test_requested"
    tests: list[str] = Field(description="Test names parsed from the request.")
    doctor_turn: int = Field(description="Doctor-turn number of the request.")


class ConsultationFinished(_Event):
    """The consultation ended normally (diagnosis or budget)."""

    type: Literal["finished"] = "finished"
    end_reason: EndReason = Field(description="Why it ended.")
    diagnosis: str | None = Field(None, description="The doctor's diagnosis, if any.")
    verdicts: list[Verdict] = Field(default_factory=list, description="Moderator verdicts.")
    report: FinalReport | None = Field(None, description="Structured report, if any.")
    doctor_turns: int = Field(0, description="Doctor turns used.")
    meta: dict[str, Any] = Field(default_factory=dict, description="What the solver adds "
                                 "about how it went (its mode; a collaboration's rounds, "
                                 "consensus and linked consultations), stored with it.")


class ConsultationFailed(_Event):
    """The consultation ended with an error or was cancelled."""

    type: Literal["failed"] = "failed"
    end_reason: EndReason = Field(description="'error' or 'cancelled'.")
    reason: str = Field(description="One-line reason.")
    doctor_turns: int = Field(0, description="Doctor turns used before it stopped.")


Event = Annotated[
    ConsultationStarted | TurnStarted | TokenDelta | TurnCompleted | TestRequested
    | ConsultationFinished | ConsultationFailed,
    Field(discriminator="type"),
]


class EventSink(Protocol):
    """Anything that receives events."""

    def emit(self, event: Event) -> None:
        """Receive one event. Must not raise for ordinary events; must not block long."""
        ...


class ListSink:
    """Collects events in a list (tests, demos)."""

    def __init__(self) -> None:
        self.events: list[Any] = []

    def emit(self, event: Event) -> None:
        """Append the event."""
        self.events.append(event)


class FanOut:
    """Sends every event to several sinks, in order."""

    def __init__(self, *sinks: EventSink) -> None:
        self.sinks = list(sinks)

    def emit(self, event: Event) -> None:
        """Emit to each sink."""
        for sink in self.sinks:
            sink.emit(event)
