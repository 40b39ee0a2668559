"""A consultant that plays each consultation with part 1's task doctors directly: the
patient's encounter straight from the generator, the learner's own stage (no engine, no
store, no transcript). What the simulation's own tests use, and the baseline of the
hospital benchmark (the same hospital without recording anything).

Each department's doctor is a `core.agenthospital.learner.Learner` — the scripted
baseline, or the nearest-record learner that learns from each patient it sees (the
simulation's feedback: the patient's right answers, after it has answered).
"""

from __future__ import annotations

from collections.abc import Mapping

from core.agenthospital.doctors import NearestDoctor, ScriptedDoctor
from core.agenthospital.generator import patient_encounter
from core.agenthospital.kb import KnowledgeBase
from core.agenthospital.learner import Learner
from core.hospital.simulation import Consulted, Visit, key_of_patient


class DirectConsultant:
    """Department → doctor: 'scripted' or 'nearest' (see the module docstring)."""

    def __init__(self, kb: KnowledgeBase, doctors: Mapping[str, str]) -> None:
        self.kb, self.labels = kb, dict(doctors)
        self.learners = {
            dept: Learner(kb, NearestDoctor(), arm="both", explore=0.2) if kind == "nearest"
            else Learner(kb, ScriptedDoctor()) for dept, kind in self.labels.items()}

    def doctor(self, department: str) -> str:
        """The department's doctor."""
        return self.labels.get(department, "scripted")

    async def consult(self, visit: Visit, consultation_id: str) -> Consulted:
        """The three tasks (learning, for the nearest-record learner)."""
        learner = self.learners.get(visit.department) or Learner(self.kb, ScriptedDoctor())
        enc, _ = patient_encounter(self.kb, visit.person, visit.case_id)
        learning = learner.arm != "none"
        key = key_of_patient(self.kb, visit.person) if learning else None
        outcome = await learner.treat(enc, key, learn=learning)
        return Consulted(answers=outcome.answers)
