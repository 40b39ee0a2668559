"""The whole hospital's simulation (core.hospital): routing, the triage rules, the follow-up
rules, queues that carry over, the day-by-day accounting — on small hospitals played by
part 1's task doctors directly (no engine, no store)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from core.agenthospital.kb import LEVELS, bundled_kb
from core.agenthospital.tasks import Answers
from core.hospital.departments import DEPARTMENTS, IDS, ROUTES, right_department
from core.hospital.direct import DirectConsultant
from core.hospital.metrics import ledger, metrics
from core.hospital.simulation import Consulted, Hospital, Plan, Visit, key_of_patient
from core.hospital.state import replay
from core.hospital.triage import Arrival, RulesNurse, read_department, rules_decision
from core.records.hospital import HospitalEvent

KB = bundled_kb()
CAPS = {d.id: d.capacity for d in DEPARTMENTS}


class Sink:
    def __init__(self) -> None:
        self.events: list[HospitalEvent] = []

    def emit(self, event: HospitalEvent) -> None:
        self.events.append(event)


class Oracle:
    """A doctor that answers every task right, or gets the level wrong (`wrong_level`)."""

    def __init__(self, wrong_level: bool = False) -> None:
        self.wrong_level = wrong_level
        self.visits: list[Visit] = []

    def doctor(self, department: str) -> str:
        return "oracle"

    async def consult(self, visit: Visit, consultation_id: str) -> Consulted:
        self.visits.append(visit)
        key = key_of_patient(KB, visit.person)
        level = LEVELS[(LEVELS.index(key.level) + 1) % 3] if self.wrong_level else key.level
        return Consulted(Answers(key.suitable[0], key.disease, level))


def simulate(consultant: Any, *, residents: int = 40, days: int = 6, seed: int = 3,
             caps: dict[str, int] | None = None, followup: int = 2) -> list[HospitalEvent]:
    sink = Sink()
    plan = Plan(residents=residents, days=days, seed=seed, onset=0.3, followup_days=followup,
                capacities=caps or CAPS)
    opened = {"departments": [{"id": d, "name": d, "capacity": (caps or CAPS)[d]} for d in IDS]}
    asyncio.run(Hospital(KB, plan, RulesNurse(), consultant, sink, opened).run())
    return sink.events


def test_every_disease_and_level_has_a_department() -> None:
    assert set(ROUTES) == {d.id for d in KB.diseases}
    assert {right_department(d, lv) for d in ROUTES for lv in LEVELS} == set(IDS)
    assert right_department("covid19", "severe") == "emergency"
    assert right_department("tuberculosis", "severe") == "infectious"
    assert right_department("lung_cancer", "mild") == "oncology"


@pytest.mark.parametrize("account, vitals, expected", [
    ("I wake up drenched in sweat. I coughed up a cupful of blood.", {"spo2": 85}, "infectious"),
    ("I've had a fever. I can't smell or taste anything.", {"spo2": 90}, "emergency"),
    ("I've had a fever. I can't smell or taste anything.", {}, "infectious"),
    ("My voice has gone hoarse. I smoked a pack a day.", {}, "oncology"),
    ("My chest is wheezy.", {"temp": 38.4}, "respiratory"),
    ("I've had a cough.", {"temp": 38.4}, "infectious"),
    ("I've had a cough.", {}, "respiratory"),
])
def test_the_rules_nurse_reads_the_complaint_and_the_vital_signs(
        account: str, vitals: dict[str, float], expected: str) -> None:
    signs = {"temp": 37.0, "hr": 80, "rr": 16, "sbp": 120, "dbp": 75, "spo2": 97, **vitals}
    assert rules_decision(Arrival("r0001", 1, "40-year-old woman", account, signs)) \
        .department == expected


@pytest.mark.parametrize("reply, expected", [
    ("DEPARTMENT: Emergency", "emergency"), ("department: thoracic oncology", "oncology"),
    ("She needs isolation.\nDEPARTMENT: infectious", "infectious"),
    ("Emergency or oncology?", None), ("I cannot say.", None)])
def test_a_triage_reply_names_one_department_or_none(reply: str, expected: str | None) -> None:
    assert read_department(reply) == expected


def test_a_fitting_treatment_recovers_at_the_follow_up() -> None:
    events = simulate(Oracle(), followup=3)
    state = replay(events)
    m = metrics(state)
    assert m["revisits"] == 0 and m["treatment_accuracy"] == 1.0
    recovered = [e for e in events if e.what == "recovered"]
    assert recovered and {e.detail["days"] for e in recovered} <= {3, 4, 5}  # plus the wait
    assert m["mean_days_to_recovery"] == sum(e.detail["days"] for e in recovered) / len(recovered)


def test_a_treatment_that_does_not_fit_brings_the_patient_back_worse() -> None:
    doctor = Oracle(wrong_level=True)
    events = simulate(doctor, days=8)
    worsened = [e for e in events if e.what == "worsened"]
    assert worsened and not any(e.what == "recovered" for e in events)
    for e in worsened:
        up = {"mild": "moderate", "moderate": "severe", "severe": "severe"}[e.detail["level"]]
        assert e.detail["now"] == up
        back = [t for t in events if t.station == "triage" and t.patient == e.patient
                and t.visit == e.visit + 1]
        assert [t.day for t in back] == [e.day]  # triaged again the same day
    # The revisit's presentation is the new level's (the patient told again, worse).
    seen = {(v.patient, v.visit): v.person.level for v in doctor.visits}
    for e in worsened:
        if (e.patient, e.visit + 1) in seen:
            assert seen[(e.patient, e.visit + 1)] == e.detail["now"]
    assert metrics(replay(events))["revisits"] == sum(
        1 for e in events if e.station == "triage" and e.visit > 1) == len(worsened)


def test_queues_carry_over_first_come_first_seen() -> None:
    events = simulate(Oracle(), caps={d: 1 for d in IDS}, days=4)
    assert any(e.what == "waits" for e in events)
    for dept in IDS:
        queued = [e.patient for e in events if e.what == "queued" and e.department == dept]
        seen = [e.patient for e in events if e.what == "seen" and e.department == dept]
        assert seen == queued[:len(seen)]  # nobody overtakes
        for day in range(1, 5):
            assert sum(1 for e in events if e.what == "seen" and e.department == dept
                       and e.day == day) <= 1
    assert metrics(replay(events))["balanced"]


def test_every_patient_is_accounted_for_and_a_lost_one_is_caught() -> None:
    events = simulate(DirectConsultant(KB, {"emergency": "nearest"}), caps={d: 3 for d in IDS})
    days = ledger(replay(events))
    assert len(days) == 6 and all(d["balanced"] for d in days)
    assert sum(d["fell_ill"] for d in days) == len({e.patient for e in events
                                                     if e.what == "ill"}) > 10
    # A patient who silently vanished from a queue (no waits event) breaks that day.
    lost = next(e for e in events if e.what == "waits")
    days = ledger(replay([e for e in events if e is not lost]))
    broken = [c["check"] for d in days if d["day"] == lost.day for c in d["checks"]
              if not c["holds"]]
    assert "in a queue tonight = still waiting" in broken
    # A consultation without its treatment task breaks it too.
    gone = next(e for e in events if e.station == "treatment")
    days = ledger(replay([e for e in events if e is not gone]))
    assert not next(d for d in days if d["day"] == gone.day)["balanced"]


def test_the_same_seed_gives_the_same_events() -> None:
    def run(seed: int) -> list[dict[str, Any]]:
        events = simulate(DirectConsultant(KB, {d: "nearest" for d in IDS}), seed=seed)
        return [e.same() for e in events]

    first = run(5)
    assert first == run(5)
    assert first != run(6)
