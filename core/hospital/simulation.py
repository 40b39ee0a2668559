"""The whole hospital, day by day: onset, triage, registration, consultation (examination,
diagnosis, treatment level), dispensary, convalescence, follow-up, and back again when the
treatment did not fit. Headless: it emits typed events (`core.records.hospital`) to a sink
and plays each consultation through a `Consultant` it is given (the use case's plays a
recorded consultation through the engine; a test's can answer from memory).

A day, in order:
1. the `hospital` day event;
2. follow-ups due today (in resident order): a patient whose treatment fitted — the right
   diagnosis and the level equal to the severity — has improved and recovers (`follow-up`
   improved, `discharge` recovered, with the days since they fell ill); anyone else has
   worsened: the severity moves up one level (severe stays severe), and they come back
   today as a revisit;
3. onsets (`core.hospital.onset`), in resident order;
4. triage of today's arrivals, revisits first: the nurse sends each to a department
   (`triage` sent, with the right department and whether it was chosen), who joins the
   end of its queue (`registration` queued);
5. consultations, department by department in the fixed order of `DEPARTMENTS`: each
   sees at most its capacity from the head of its queue, one patient at a time
   (`consultation` seen, then `examination`, `diagnosis` and `treatment` answered, each
   graded, then `dispensary` prescribed — the plan of the diagnosed disease at the level
   chosen, or nothing without both — and `convalescence` home until the follow-up, K days
   later);
6. whoever is still queued waits for tomorrow (`registration` waits).
Patients whose follow-up falls after the last day are still convalescing at the end;
those still queued are still waiting. Every event has the next `seq`; nothing in the
order depends on timing, so the same seed and doctors give the same events (`pace` only
slows the simulation down, for watching it).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from core.agenthospital.generator import Patient, account
from core.agenthospital.kb import LEVELS, KnowledgeBase, Level
from core.agenthospital.tasks import TASKS, Answers, Key, correct
from core.agenthospital.tasks import who as person
from core.errors import BedsideError
from core.hospital.departments import IDS, right_department
from core.hospital.onset import Onset, changed, onsets, resident_label
from core.hospital.triage import FALLBACK, Arrival, Decision, Nurse
from core.ids import new_id
from core.records.hospital import HOSPITAL, HospitalEvent


class Stopped(Exception):
    """The simulation was asked to stop (a cancel event): it closes as cancelled."""


@dataclass(frozen=True)
class Plan:
    """What is simulated (checked by the use case's settings)."""

    residents: int
    days: int
    seed: int
    onset: float  # a well resident's chance of falling ill on a given day
    followup_days: int  # days from the dispensary to the follow-up
    capacities: Mapping[str, int]  # department → patients seen a day


@dataclass(frozen=True)
class Visit:
    """One patient's visit to one department's doctor."""

    patient: str  # 'r0012'
    resident: int
    visit: int  # 1, then 2 for the first revisit, …
    day: int
    department: str
    person: Patient  # the presentation at this visit (the generator's draw)
    case_id: str  # the visit's case (see `visit_case_id`)


def visit_case_id(kb: KnowledgeBase, seed: int, resident: int, visit: int,
                  person: Patient) -> str:
    """The case of a visit, e.g. 'hosp7-r0012-v2-3fa9c1d2': the seed, the resident, the
    visit and a hash of the presentation and the knowledge base, so the same seed gives the
    same ids (a learner's reproducible guesses are drawn from them) and a different
    presentation never reuses one."""
    digest = hashlib.sha256(f"{person.signature()}:{kb.digest}".encode()).hexdigest()[:8]
    return f"hosp{seed}-{resident_label(resident)}-v{visit}-{digest}"


@dataclass
class Consulted:
    """What a consultation gave: the three answers (None: not given)."""

    answers: Answers
    failed: str | None = None  # why the consultation failed, if it did


class Consultant(Protocol):
    """Plays the consultations of each department."""

    def doctor(self, department: str) -> str:
        """The department's doctor, as events name it."""
        ...

    async def consult(self, visit: Visit, consultation_id: str) -> Consulted:
        """One consultation (raises `Stopped` to stop the simulation)."""
        ...


class HospitalSink(Protocol):
    """Receives the hospital's events (the store, a live screen, a test)."""

    def emit(self, event: HospitalEvent) -> None:
        """One event, in order."""
        ...


@dataclass
class _InCare:
    """A patient while the hospital knows them."""

    onset: Onset
    person: Patient
    visit: int = 1
    department: str = FALLBACK
    queued_day: int = 0
    fits: bool = False  # whether the last treatment fitted

    @property
    def label(self) -> str:
        return self.onset.label


def key_of_patient(kb: KnowledgeBase, person: Patient) -> Key:
    """The right answers for a patient as drawn."""
    d = kb.disease(person.disease)
    return Key(disease=d.name, level=person.level,
               suitable=tuple(kb.exam(e).name for e in d.suitable_at(person.level)))


def worse(level: Level) -> Level:
    """One level up (severe stays severe)."""
    return LEVELS[min(LEVELS.index(level) + 1, len(LEVELS) - 1)]


class Hospital:
    """One simulation (see the module docstring)."""

    def __init__(self, kb: KnowledgeBase, plan: Plan, nurse: Nurse, consultant: Consultant,
                 sink: HospitalSink, opened: dict[str, Any] | None = None,
                 pace: float = 0.0) -> None:
        self.kb, self.plan, self.nurse, self.consultant = kb, plan, nurse, consultant
        self.sink, self.opened = sink, dict(opened or {})
        self.pace = pace  # seconds before each consultation (to watch it live)
        self.seq = 0
        self.queues: dict[str, deque[_InCare]] = {d: deque() for d in IDS}
        self.home: dict[int, list[_InCare]] = {}  # follow-up day → patients

    def _emit(self, day: int, station: str, what: str, care: _InCare | None = None,
              department: str | None = None, consultation_id: str | None = None,
              **detail: Any) -> None:
        self.seq += 1
        self.sink.emit(HospitalEvent(
            seq=self.seq, day=day, patient=care.label if care else None,
            visit=care.visit if care else 0, station=station, what=what,
            department=department, consultation_id=consultation_id, detail=detail))

    async def run(self) -> str:
        """Simulate every day; the closing status (finished, cancelled, interrupted or
        failed) is the last event, however it ends. Returns it."""
        status = "failed"
        day = 0
        self._emit(0, HOSPITAL, "open", **self.opened)
        try:
            by_day: dict[int, list[Onset]] = {}
            for o in onsets(self.kb, self.plan.seed, self.plan.residents, self.plan.days,
                            self.plan.onset):
                by_day.setdefault(o.day, []).append(o)
            for day in range(1, self.plan.days + 1):
                await self._day(day, by_day.get(day, []))
            status = "finished"
        except Stopped:
            status = "cancelled"
        except asyncio.CancelledError:
            status = "interrupted"
            raise
        finally:
            self._emit(day, HOSPITAL, "closed", status=status)
        return status

    async def _day(self, day: int, ill: list[Onset]) -> None:
        self._emit(day, HOSPITAL, "day")
        arrivals = self._follow_ups(day)
        for o in ill:
            care = _InCare(o, o.patient)
            d = self.kb.disease(o.patient.disease)
            self._emit(day, "onset", "ill", care, disease=d.name, level=o.patient.level,
                       who=person(o.patient.age, o.patient.sex))
            arrivals.append(care)
        for care in arrivals:
            await self._triage(day, care)
        for dept in IDS:
            await self._consult(day, dept)
        for dept in IDS:
            for care in self.queues[dept]:
                self._emit(day, "registration", "waits", care, dept,
                           days_waited=day - care.queued_day + 1)

    def _follow_ups(self, day: int) -> list[_InCare]:
        back = []
        for care in sorted(self.home.pop(day, []), key=lambda c: c.onset.resident):
            level = care.person.level
            if care.fits:
                self._emit(day, "follow-up", "improved", care, level=level)
                self._emit(day, "discharge", "recovered", care, days=day - care.onset.day)
                continue
            after = worse(level)
            self._emit(day, "follow-up", "worsened", care, level=level, now=after)
            care.visit += 1
            care.person = changed(self.kb, self.plan.seed, care.onset.resident, care.visit,
                                  care.person, after, day - care.onset.day)
            back.append(care)
        return back

    async def _triage(self, day: int, care: _InCare) -> None:
        p = care.person
        arrival = Arrival(care.label, care.visit, person(p.age, p.sex), account(self.kb, p),
                          dict(p.vitals))
        try:
            decision = await self.nurse.triage(arrival)
        except BedsideError as err:  # a failed model call: the patient is not turned away
            decision = Decision(FALLBACK, f"triage failed: {err}", fallback=True)
        right = right_department(p.disease, p.level)
        extra: dict[str, Any] = {"fallback": True} if decision.fallback else {}
        self._emit(day, "triage", "sent", care, decision.department, right=right,
                   correct=decision.department == right, nurse=self.nurse.label,
                   reason=decision.reason, **extra)
        care.department, care.queued_day = decision.department, day
        queue = self.queues[decision.department]
        queue.append(care)
        self._emit(day, "registration", "queued", care, decision.department,
                   position=len(queue))

    async def _consult(self, day: int, dept: str) -> None:
        queue = self.queues[dept]
        for _ in range(self.plan.capacities.get(dept, 0)):
            if not queue:
                return
            care = queue.popleft()
            cid = new_id("c-")
            self._emit(day, "consultation", "seen", care, dept, consultation_id=cid,
                       doctor=self.consultant.doctor(dept), days_waited=day - care.queued_day)
            # The offline doctors never wait: give the loop its turn (a live screen, a
            # Ctrl+C) at each consultation, and the watcher the pace asked for.
            await asyncio.sleep(self.pace)
            case_id = visit_case_id(self.kb, self.plan.seed, care.onset.resident, care.visit,
                                  care.person)
            got = await self.consultant.consult(
                Visit(care.label, care.onset.resident, care.visit, day, dept, care.person,
                      case_id), cid)
            self._after(day, dept, care, got)

    def _after(self, day: int, dept: str, care: _InCare, got: Consulted) -> None:
        key = key_of_patient(self.kb, care.person)
        failed: dict[str, Any] = {"failed": got.failed} if got.failed else {}
        for task in TASKS:
            self._emit(day, task, "answered", care, dept, answer=got.answers.get(task),
                       correct=correct(task, got.answers, key), **failed)
        plan = self._plan(got.answers)
        if plan is None:
            self._emit(day, "dispensary", "nothing", care, dept,
                       reason="no diagnosis or level to prescribe for")
        else:
            self._emit(day, "dispensary", "prescribed", care, dept,
                       disease=got.answers.diagnosis, level=got.answers.treatment, plan=plan)
        care.fits = correct("treatment", got.answers, key)
        back = day + self.plan.followup_days
        self._emit(day, "convalescence", "home", care, until=back)
        self.home.setdefault(back, []).append(care)

    def _plan(self, answers: Answers) -> str | None:
        """The plan of the diagnosed disease at the level chosen (None without both)."""
        for d in self.kb.diseases:
            if d.name == answers.diagnosis and answers.treatment in LEVELS:
                return d.level(answers.treatment).treatment
        return None

