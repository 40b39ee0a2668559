"""The one reducer of a hospital's events: where every patient is, the queues, who is in
consultation, and the running counts — what the live screen shows and what the metrics
and the day-by-day accounting are computed from (`core.hospital.metrics`).

Pure: events in, state out. The live screen feeds it events as the simulation emits them
(a simulation started in the app) or as it reads them from the database (one started by
`bedside hospital` in another terminal); the command line feeds it the stored events of a
finished run. Every place a patient can be is a `PLACES` entry.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from core.records.hospital import HOSPITAL, HospitalEvent

TASKS = ("examination", "diagnosis", "treatment")
#: Where a patient can be: ill on the way in, at triage, queued at a department, in
#: consultation (tasks, dispensary), convalescing at home, recovered.
PLACES = ("arriving", "triage", "queue", "consultation", "home", "recovered")
LOG = 400  # events kept for the live screen's log


@dataclass
class DayFlow:
    """What happened on one day, counted from its events, and where everyone was at its
    end (`census`, place → patients; set when the next day starts or the hospital
    closes)."""

    day: int
    ill: int = 0
    triaged: int = 0
    revisits: int = 0  # triaged on a visit after the first
    registered: int = 0
    seen: int = 0
    answered: dict[str, int] = field(default_factory=lambda: {t: 0 for t in TASKS})
    dispensed: int = 0
    home: int = 0
    followed_up: int = 0
    improved: int = 0
    worsened: int = 0
    recovered: int = 0
    waiting: int = 0  # still queued when the day ended
    census: dict[str, int] | None = None


@dataclass
class Tally:
    """Running counts over the whole simulation (or one department)."""

    triaged: int = 0
    triage_right: int = 0
    belong: int = 0  # triaged patients whose right department this is (per department)
    seen: int = 0
    answered: dict[str, int] = field(default_factory=lambda: {t: 0 for t in TASKS})
    right: dict[str, int] = field(default_factory=lambda: {t: 0 for t in TASKS})
    failed: int = 0  # consultations that failed
    fallbacks: int = 0  # triage replies that named no department (or failed)


class HospitalState:
    """The reducer (see the module docstring)."""

    def __init__(self) -> None:
        self.opened: dict[str, Any] = {}
        self.status = "running"
        self.day = 0
        self.seq = 0
        self.version = 0  # bumped by every event (the live screen re-renders on a change)
        self.place: dict[str, str] = {}
        self.department: dict[str, str] = {}
        self.visit: dict[str, int] = {}
        self.level: dict[str, str] = {}  # the true severity (onset, follow-up)
        self.queues: dict[str, list[str]] = {}
        self.current: dict[str, tuple[str, str]] = {}  # department → (patient, stage)
        self.total = Tally()
        self.by_department: dict[str, Tally] = {}
        self.flows: dict[int, DayFlow] = {}
        self.recovery_days: list[int] = []
        self.days_waited: list[int] = []
        self.log: deque[HospitalEvent] = deque(maxlen=LOG)

    # -- reading ---------------------------------------------------------------------------
    @property
    def departments(self) -> list[dict[str, Any]]:
        """The departments as the opening event gave them (id, name, capacity, doctor)."""
        found = self.opened.get("departments")
        return [d for d in found if isinstance(d, dict)] if isinstance(found, list) else []

    def census(self) -> dict[str, int]:
        """Patients in each place now."""
        counts = Counter(self.place.values())
        return {p: counts.get(p, 0) for p in PLACES}

    def tally(self, department: str) -> Tally:
        """One department's counts."""
        return self.by_department.setdefault(department, Tally())

    # -- the reducer -----------------------------------------------------------------------
    def apply(self, e: HospitalEvent) -> None:
        """Take one event into account (events arrive in `seq` order)."""
        if e.seq <= self.seq:
            return  # already applied (a poller may read an event twice)
        self.seq, self.version = e.seq, self.version + 1
        self.log.append(e)
        if e.station == HOSPITAL:
            self._hospital(e)
            return
        flow = self.flows.setdefault(e.day, DayFlow(e.day))
        handler = _HANDLERS.get((e.station, e.what))
        if handler is not None and e.patient is not None:
            handler(self, e, flow, e.patient)

    def _hospital(self, e: HospitalEvent) -> None:
        if e.what == "open":
            self.opened = dict(e.detail)
            self.queues = {d["id"]: [] for d in self.departments if "id" in d}
        elif e.what == "day":
            self._end_of(self.day)
            self.day = e.day
            self.flows.setdefault(e.day, DayFlow(e.day))
        elif e.what == "closed":
            self._end_of(self.day)
            self.status = str(e.detail.get("status", "finished"))

    def _end_of(self, day: int) -> None:
        if day in self.flows and self.flows[day].census is None:
            self.flows[day].census = self.census()

    def _ill(self, e: HospitalEvent, flow: DayFlow, p: str) -> None:
        flow.ill += 1
        self.place[p], self.visit[p] = "arriving", e.visit
        self.level[p] = str(e.detail.get("level"))

    def _sent(self, e: HospitalEvent, flow: DayFlow, p: str) -> None:
        dept = e.department or "?"
        flow.triaged += 1
        flow.revisits += e.visit > 1
        self.place[p], self.department[p], self.visit[p] = "triage", dept, e.visit
        right = bool(e.detail.get("correct"))
        for t in (self.total, self.tally(dept)):
            t.triaged += 1
            t.triage_right += right
            t.fallbacks += bool(e.detail.get("fallback"))
        self.tally(str(e.detail.get("right"))).belong += 1

    def _queued(self, e: HospitalEvent, flow: DayFlow, p: str) -> None:
        flow.registered += 1
        self.place[p] = "queue"
        self.queues.setdefault(e.department or "?", []).append(p)

    def _waits(self, e: HospitalEvent, flow: DayFlow, p: str) -> None:
        flow.waiting += 1

    def _seen(self, e: HospitalEvent, flow: DayFlow, p: str) -> None:
        dept = e.department or "?"
        flow.seen += 1
        queue = self.queues.get(dept, [])
        if p in queue:
            queue.remove(p)
        self.place[p] = "consultation"
        self.current[dept] = (p, TASKS[0])
        self.days_waited.append(int(e.detail.get("days_waited", 0)))
        for t in (self.total, self.tally(dept)):
            t.seen += 1

    def _answered(self, e: HospitalEvent, flow: DayFlow, p: str) -> None:
        dept, task = e.department or "?", e.station
        flow.answered[task] += 1
        later = TASKS.index(task) + 1
        self.current[dept] = (p, TASKS[later] if later < len(TASKS) else "dispensary")
        for t in (self.total, self.tally(dept)):
            t.answered[task] += 1
            t.right[task] += bool(e.detail.get("correct"))
            t.failed += task == TASKS[0] and bool(e.detail.get("failed"))

    def _dispensed(self, e: HospitalEvent, flow: DayFlow, p: str) -> None:
        flow.dispensed += 1
        self.current.pop(e.department or "?", None)

    def _home(self, e: HospitalEvent, flow: DayFlow, p: str) -> None:
        flow.home += 1
        self.place[p] = "home"

    def _followed(self, e: HospitalEvent, flow: DayFlow, p: str) -> None:
        flow.followed_up += 1
        if e.what == "improved":
            flow.improved += 1
        else:
            flow.worsened += 1
            self.level[p] = str(e.detail.get("now"))
            self.place[p] = "arriving"

    def _recovered(self, e: HospitalEvent, flow: DayFlow, p: str) -> None:
        flow.recovered += 1
        self.place[p] = "recovered"
        self.recovery_days.append(int(e.detail.get("days", 0)))


_HANDLERS = {
    ("onset", "ill"): HospitalState._ill,
    ("triage", "sent"): HospitalState._sent,
    ("registration", "queued"): HospitalState._queued,
    ("registration", "waits"): HospitalState._waits,
    ("consultation", "seen"): HospitalState._seen,
    **{(t, "answered"): HospitalState._answered for t in TASKS},
    ("dispensary", "prescribed"): HospitalState._dispensed,
    ("dispensary", "nothing"): HospitalState._dispensed,
    ("convalescence", "home"): HospitalState._home,
    ("follow-up", "improved"): HospitalState._followed,
    ("follow-up", "worsened"): HospitalState._followed,
    ("discharge", "recovered"): HospitalState._recovered,
}


def replay(events: list[HospitalEvent]) -> HospitalState:
    """The state after `events`."""
    state = HospitalState()
    for e in events:
        state.apply(e)
    return state
