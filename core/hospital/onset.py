"""Who falls ill on which day, with which disease at which severity: the hospital's seeded
onset process, and the same patient better or worse at a revisit.

Each resident falls ill at most once: on each day of the simulation a resident still well
falls ill with probability `rate`; the disease and level are then drawn uniformly from the
knowledge base with the rest of the patient (`core.agenthospital.generator.draw_patient`).
Resident `i` draws from its own `random.Random("hospital:<seed>:resident:<i>")`, so who
falls ill when, and with what, does not depend on how many residents there are, and a
longer simulation keeps the same early days. A revisit redraws what depends on the new
level (`generator.at_level`) from `…:resident:<i>:visit:<v>`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from core.agenthospital.generator import Patient, at_level, draw_patient
from core.agenthospital.kb import KnowledgeBase, Level


@dataclass(frozen=True)
class Onset:
    """A resident falling ill."""

    resident: int  # 1 … residents
    day: int  # 1 … days
    patient: Patient

    @property
    def label(self) -> str:
        """The resident as events name them, e.g. 'r0012'."""
        return resident_label(self.resident)


def resident_label(resident: int) -> str:
    """'r0012' for resident 12."""
    return f"r{resident:04d}"


def onsets(kb: KnowledgeBase, seed: int, residents: int, days: int,
           rate: float) -> list[Onset]:
    """Everyone who falls ill during the simulation, by day then resident."""
    out = []
    for i in range(1, residents + 1):
        rng = random.Random(f"hospital:{seed}:resident:{i}")
        day = next((d for d in range(1, days + 1) if rng.random() < rate), None)
        if day is not None:
            out.append(Onset(i, day, draw_patient(kb, rng)))
    return sorted(out, key=lambda o: (o.day, o.resident))


def changed(kb: KnowledgeBase, seed: int, resident: int, visit: int, patient: Patient,
            level: Level, days_later: int) -> Patient:
    """The patient at visit `visit`, now at `level`, `days_later` days after they first
    told their story."""
    rng = random.Random(f"hospital:{seed}:resident:{resident}:visit:{visit}")
    return at_level(kb, patient, level, rng, days_later=days_later)
