"""One consultation's state from its events: the one reducer.

`apply(state, event)` is pure: the state after an event, from the state before it (None
before the start). It decides the status (queued → running → finished | failed |
cancelled) and keeps the running totals (doctor turns, completed turns, tests ordered,
tokens, cost) exactly as the store's columns hold them. The database recorder, the app's
live registry and the in-memory batch store all fold events through it, so a consultation
has the same status and totals wherever it is looked at.

Two rules that concern several consultations are pure functions here too:
- supersession: when a run redoes a (case, config key) pair, the new consultation's start
  supersedes every earlier consultation of that pair in that run (`supersede_key`,
  `supersedes`); nothing is deleted and each pair keeps one consultation not superseded;
- what a resumed run must not redo (`is_done`): finished consultations, and failed ones
  unless failed ones are retried.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.events import (ConsultationFailed, ConsultationFinished, ConsultationStarted, Event,
                         TestRequested, TurnCompleted)
from core.transcript import EndReason, verdict_correct

Status = Literal["queued", "running", "finished", "failed", "cancelled", "abandoned",
                 "superseded"]
SUPERSEDED: Status = "superseded"
PairKey = tuple[str, str, str | None]  # (run, case, config key)


def agent_label(spec: Any) -> str | None:
    """A short label for an agent spec from a config dict: its label, model or kind."""
    if spec is None or isinstance(spec, str):
        return spec
    if isinstance(spec, dict):
        return spec.get("label") or spec.get("model") or spec.get("kind")
    return str(spec)


def failure_status(end_reason: EndReason | str) -> Status:
    """The status of a consultation that ended without finishing: cancelled or failed."""
    return "cancelled" if str(end_reason) == EndReason.CANCELLED else "failed"


class ConsultationState(BaseModel):
    """Where one consultation stands: what its events so far say."""

    model_config = ConfigDict(frozen=True)

    consultation_id: str = Field(description="The consultation.")
    case_id: str = Field(description="The case it plays.")
    run_id: str | None = Field(None, description="The run it belongs to, if any.")
    config_key: str | None = Field(None, description="Its configuration's (or job's) key.")
    origin: str = Field("engine", description="'engine', 'one_step', 'imported', ...")
    doctor: str | None = Field(None, description="Who plays the doctor (label, model, kind).")
    status: Status = Field("queued", description="queued, running, finished, failed, "
                           "cancelled, abandoned or superseded.")
    end_reason: str | None = Field(None, description="Why it ended, once it has.")
    diagnosis: str | None = Field(None, description="The doctor's diagnosis, if any.")
    correct: bool | None = Field(None, description="The verdict (`verdict_correct`).")
    error: str | None = Field(None, description="Why it failed or was cancelled.")
    doctor_turns: int = Field(0, description="Doctor turns used (the budget's count).")
    turns: int = Field(0, description="Completed turns of every role.")
    tests_ordered: int = Field(0, description="Tests named in the doctor's requests.")
    prompt_tokens: int = Field(0, description="Tokens sent, over every model call.")
    completion_tokens: int = Field(0, description="Tokens received.")
    cost_usd: float = Field(0.0, description="Cost as litellm prices it; 0 when unknown.")
    started_at: str | None = Field(None, description="ISO UTC time it started.")
    ended_at: str | None = Field(None, description="ISO UTC time it ended.")

    @property
    def tokens(self) -> int:
        """Tokens sent and received."""
        return self.prompt_tokens + self.completion_tokens

    @property
    def active(self) -> bool:
        """Queued or running."""
        return self.status in ("queued", "running")


def started(event: ConsultationStarted) -> ConsultationState:
    """The state a start makes: running, with nothing counted yet."""
    cfg = event.config
    return ConsultationState(
        consultation_id=event.consultation_id, case_id=event.case_id, run_id=event.run_id,
        config_key=cfg.get("config_key"), origin=event.origin,
        doctor=agent_label(cfg.get("doctor")), status="running", started_at=event.at)


def apply(state: ConsultationState | None, event: Event) -> ConsultationState | None:
    """The state after `event` (pure; the same object when the event changes nothing).
    An event other than a start for a consultation not yet known leaves it unknown."""
    if isinstance(event, ConsultationStarted):
        return started(event)
    if state is None:
        return None
    if isinstance(event, TurnCompleted):
        turn = event.turn
        return state.model_copy(update={
            "turns": state.turns + 1,
            "doctor_turns": max(state.doctor_turns, turn.doctor_turn or 0),
            "prompt_tokens": state.prompt_tokens + turn.usage.prompt_tokens,
            "completion_tokens": state.completion_tokens + turn.usage.completion_tokens,
            "cost_usd": state.cost_usd + turn.usage.cost_usd})
    if isinstance(event, TestRequested):
        return state.model_copy(update={"tests_ordered": state.tests_ordered
                                        + len(event.tests)})
    if isinstance(event, ConsultationFinished):
        return state.model_copy(update={
            "status": "finished", "end_reason": str(event.end_reason),
            "diagnosis": event.diagnosis, "correct": verdict_correct(event.verdicts),
            "doctor_turns": event.doctor_turns, "ended_at": event.at})
    if isinstance(event, ConsultationFailed):
        return state.model_copy(update={
            "status": failure_status(event.end_reason), "end_reason": str(event.end_reason),
            "error": event.reason, "doctor_turns": event.doctor_turns, "ended_at": event.at})
    return state  # turn started, token delta: nothing the state keeps


def supersede_key(event: ConsultationStarted) -> PairKey | None:
    """The (run, case, config key) pair whose earlier consultations this start supersedes;
    None outside a run (nothing to resume, nothing superseded)."""
    if event.run_id is None:
        return None
    return event.run_id, event.case_id, event.config.get("config_key")


def supersedes(event: ConsultationStarted, other: ConsultationState) -> bool:
    """Whether starting `event` supersedes the consultation `other`."""
    key = supersede_key(event)
    return (key is not None and other.consultation_id != event.consultation_id
            and other.status != SUPERSEDED
            and (other.run_id, other.case_id, other.config_key) == key)


def is_done(status: str, *, retry_failed: bool = False) -> bool:
    """Whether a resumed run leaves a consultation with this status alone: finished ones,
    and failed ones unless they are retried."""
    return status == "finished" or (status == "failed" and not retry_failed)
