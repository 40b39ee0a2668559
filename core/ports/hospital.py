"""The store protocol of the whole hospital (`db` implements it): its events, one row
each, read back in order; the runs and consultations it records are `RunsStore`'s."""

from __future__ import annotations

from typing import Protocol

from core.ports.runs import RunsStore
from core.records.hospital import HospitalEvent


class HospitalEventStore(Protocol):
    """A hospital run's events."""

    def add_hospital_event(self, run_id: str, event: HospitalEvent) -> None:
        """Store one event (committed at once: another process may be watching)."""
        ...

    def hospital_events(self, run_id: str, after: int = 0) -> list[HospitalEvent]:
        """The run's events with `seq` above `after`, in order."""
        ...


class HospitalStore(RunsStore, HospitalEventStore, Protocol):
    """What `bedside hospital` records into: runs, cases, consultations, metrics and the
    hospital's events."""
