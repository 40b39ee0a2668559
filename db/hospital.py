"""The whole hospital's events (`core.records.hospital`): one row per event, keyed by run
and sequence number, each committed as it is added (a live screen in another process
reads them as they come)."""

from __future__ import annotations

from sqlite_utils import Database

from core.records.hospital import HospitalEvent
from db.jsoncol import dumps, loads

TABLE = "hospital_events"


def add_event(db: Database, run_id: str, event: HospitalEvent) -> None:
    """Insert one event (its own transaction)."""
    row = event.model_dump(exclude={"detail"})
    row.update(run_id=run_id, detail=dumps(event.detail))
    db.table(TABLE).insert(row)


def events(db: Database, run_id: str, after: int = 0) -> list[HospitalEvent]:
    """A run's events after `after`, by sequence number."""
    out = []
    for row in db.query(f"SELECT * FROM {TABLE} WHERE run_id = ? AND seq > ? ORDER BY seq",
                        [run_id, after]):
        detail = loads(row.pop("detail"), {})
        row.pop("run_id")
        out.append(HospitalEvent(**row, detail=detail if isinstance(detail, dict) else {}))
    return out


class HospitalRepository:
    """`core.ports.hospital.HospitalEventStore` on a connection (`db.store.SqliteStore`
    inherits it)."""

    db: Database

    def add_hospital_event(self, run_id: str, event: HospitalEvent) -> None:
        """Store one event."""
        add_event(self.db, run_id, event)

    def hospital_events(self, run_id: str, after: int = 0) -> list[HospitalEvent]:
        """The run's events after `after`."""
        return events(self.db, run_id, after)
