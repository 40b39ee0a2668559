"""In-app live runs: a registry of consultations started from the app, fed as an event sink.

The engine calls `emit` on the app's event loop; the live screen polls `version` with
`set_interval` and re-renders only when it changed (so fast token streams are batched).
Status and totals are the consultation's state (`core.consultation_state.apply`, the
reducer the store's recorder uses too); the registry adds what only a live view needs: the
completed turns and the text streaming in.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from typing import Any

from core.consultation_state import ConsultationState, apply
from core.events import Event, TokenDelta, TurnCompleted, TurnStarted
from core.transcript import Turn


@dataclass(init=False)
class LiveItem:
    """One consultation started in this app: its state, turns and streaming text."""

    consultation_id: str
    case_id: str
    doctor: str  # as the live table shows it (e.g. 'model [one-step]')
    state: ConsultationState
    turns: list[Turn]
    stream_role: str | None
    stream_text: str
    cancel_event: asyncio.Event
    task: asyncio.Task[None] | None

    def __init__(self, consultation_id: str, case_id: str, doctor: str,
                 run_id: str | None = None) -> None:
        self.consultation_id, self.case_id, self.doctor = consultation_id, case_id, doctor
        self.state = ConsultationState(consultation_id=consultation_id, case_id=case_id,
                                       run_id=run_id, doctor=doctor)  # queued
        self.turns = []
        self.stream_role, self.stream_text = None, ""
        self.cancel_event = asyncio.Event()
        self.task = None

    def _set(self, **values: Any) -> None:
        self.state = self.state.model_copy(update=values)

    @property
    def run_id(self) -> str | None:
        """The run it belongs to."""
        return self.state.run_id

    @property
    def status(self) -> str:
        """queued, running, finished, failed or cancelled."""
        return self.state.status

    @status.setter
    def status(self, value: str) -> None:
        self._set(status=value)

    @property
    def doctor_turn(self) -> int:
        """Doctor turns used so far."""
        return self.state.doctor_turns

    @doctor_turn.setter
    def doctor_turn(self, value: int) -> None:
        self._set(doctor_turns=value)

    @property
    def tokens(self) -> int:
        """Tokens sent and received so far."""
        return self.state.tokens

    @tokens.setter
    def tokens(self, value: int) -> None:
        self._set(prompt_tokens=value, completion_tokens=0)

    @property
    def cost(self) -> float:
        """Cost so far."""
        return self.state.cost_usd

    @cost.setter
    def cost(self, value: float) -> None:
        self._set(cost_usd=value)


class LiveRegistry:
    """All consultations started in the app, keyed by id; an EventSink."""

    def __init__(self) -> None:
        self.items: dict[str, LiveItem] = {}
        self.version = 0  # bumped on every change; screens compare it to re-render
        #: The run of the consultation registered last (a batch just started here).
        self.newest_run: str | None = None

    def register(self, item: LiveItem) -> LiveItem:
        """Add a queued consultation."""
        self.items[item.consultation_id] = item
        self.newest_run = item.run_id or self.newest_run
        self.version += 1
        return item

    def emit(self, event: Event) -> None:
        """Update the item the event belongs to (unknown ids are ignored)."""
        item = self.items.get(event.consultation_id)
        if item is None:
            return
        self.version += 1
        item.state = apply(item.state, event) or item.state
        if isinstance(event, TurnStarted):
            item.stream_role, item.stream_text = str(event.role), ""
        elif isinstance(event, TokenDelta):
            item.stream_role = str(event.role)
            item.stream_text += event.text
        elif isinstance(event, TurnCompleted):
            item.turns.append(event.turn)
            item.stream_role, item.stream_text = None, ""

    def active(self) -> list[LiveItem]:
        """Items queued or running that nobody has asked to stop yet."""
        return [i for i in self.items.values()
                if i.status in ("queued", "running") and not i.cancel_event.is_set()]

    def cancel(self, consultation_id: str) -> bool:
        """Ask one consultation to stop; True if it was active and not already asked to.

        A queued consultation keeps status 'queued' until its job sees the event, so the
        event (not the status) says whether it was already cancelled.
        """
        item = self.items.get(consultation_id)
        if item is None or item.status not in ("queued", "running") or item.cancel_event.is_set():
            return False
        item.cancel_event.set()
        # A queued one sees the event when its turn comes; a running one is interrupted now
        # (its task records the cancellation in the store).
        if item.task is not None and item.status == "running":
            item.task.cancel()
        self.version += 1
        return True

    def cancel_all(self) -> int:
        """Stop every active consultation; return how many."""
        return sum(self.cancel(i.consultation_id) for i in list(self.active()))
