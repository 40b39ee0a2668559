"""In-app live runs: a registry of consultations started from the app, fed as an event sink.

The engine calls `emit` on the app's event loop; the live screen polls `version` with
`set_interval` and re-renders only when it changed (so fast token streams are batched).

Must not import: textual, db, core.engine, litellm.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from core.events import (ConsultationFailed, ConsultationFinished, ConsultationStarted, Event,
                         TestRequested, TokenDelta, TurnCompleted, TurnStarted)
from core.transcript import Turn


@dataclass
class LiveItem:
    """One consultation started in this app."""

    consultation_id: str
    case_id: str
    doctor: str
    run_id: str | None = None
    status: str = "queued"
    doctor_turn: int = 0
    tokens: int = 0
    cost: float = 0.0
    turns: list[Turn] = field(default_factory=list)
    stream_role: str | None = None
    stream_text: str = ""
    cancel_event: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None


class LiveRegistry:
    """All consultations started in the app, keyed by id; an EventSink."""

    def __init__(self) -> None:
        self.items: dict[str, LiveItem] = {}
        self.version = 0  # bumped on every change; screens compare it to re-render

    def register(self, item: LiveItem) -> LiveItem:
        """Add a queued consultation."""
        self.items[item.consultation_id] = item
        self.version += 1
        return item

    def emit(self, event: Event) -> None:
        """Update the item the event belongs to (unknown ids are ignored)."""
        item = self.items.get(event.consultation_id)
        if item is None:
            return
        self.version += 1
        if isinstance(event, ConsultationStarted):
            item.status = "running"
        elif isinstance(event, TurnStarted):
            item.stream_role, item.stream_text = str(event.role), ""
        elif isinstance(event, TokenDelta):
            item.stream_role = str(event.role)
            item.stream_text += event.text
        elif isinstance(event, TurnCompleted):
            self._completed(item, event.turn)
        elif isinstance(event, TestRequested):
            pass
        elif isinstance(event, ConsultationFinished):
            item.status = "finished"
        elif isinstance(event, ConsultationFailed):
            item.status = "cancelled" if str(event.end_reason) == "cancelled" else "failed"

    @staticmethod
    def _completed(item: LiveItem, turn: Turn) -> None:
        item.turns.append(turn)
        item.stream_role, item.stream_text = None, ""
        item.doctor_turn = max(item.doctor_turn, turn.doctor_turn or 0)
        item.tokens += turn.usage.prompt_tokens + turn.usage.completion_tokens
        item.cost += turn.usage.cost_usd

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
