"""The departments of the simulated respiratory hospital and which one is right for each
disease at each severity level (the routing triage is graded against).

Four departments, as a hospital for the eight respiratory diseases of the knowledge base
would have them (written for bedside):
- Respiratory medicine: the chest problems that are not an emergency — acute bronchitis
  at every level; mild and moderate asthma and COPD exacerbations and community-acquired
  pneumonia.
- Infectious diseases: the infections that need isolation or antivirals — mild and
  moderate COVID-19 and influenza, and pulmonary tuberculosis at every level (severe
  tuberculosis is admitted to a negative-pressure isolation room, which this department
  runs).
- Emergency: life-threatening illness — the severe level of COVID-19, influenza,
  pneumonia, COPD and asthma (oxygen, intensive care).
- Thoracic oncology: non-small cell lung cancer at every stage.

Severe acute bronchitis (an older patient with other illnesses, oxygen saturation still
93 % or more) stays in respiratory medicine. Each department sees a fixed number of
patients a day (its capacity; the rest wait in its queue until the next day).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.agenthospital.kb import KnowledgeBase, Level
from core.errors import InputError


@dataclass(frozen=True)
class Department:
    """One department."""

    id: str
    name: str
    remit: str  # what the hospital says it takes (what a triage nurse knows)
    capacity: int  # patients seen a day by default


DEPARTMENTS: tuple[Department, ...] = (
    Department("respiratory", "Respiratory medicine", "breathing and chest problems that are "
               "not an emergency: asthma, COPD, bronchitis, chest infections", 10),
    Department("infectious", "Infectious diseases", "suspected COVID-19, influenza or "
               "tuberculosis, which need isolation or antiviral treatment", 8),
    Department("emergency", "Emergency", "life-threatening illness: struggling to breathe at "
               "rest, low oxygen, confusion, collapse", 12),
    Department("oncology", "Thoracic oncology", "suspected lung cancer", 4),
)
IDS = tuple(d.id for d in DEPARTMENTS)
BY_ID = {d.id: d for d in DEPARTMENTS}

_ALL = ("respiratory", "respiratory", "respiratory")
#: disease id → the right department at mild, moderate and severe.
ROUTES: dict[str, tuple[str, str, str]] = {
    "covid19": ("infectious", "infectious", "emergency"),
    "influenza": ("infectious", "infectious", "emergency"),
    "tuberculosis": ("infectious", "infectious", "infectious"),
    "pneumonia": ("respiratory", "respiratory", "emergency"),
    "bronchitis": _ALL,
    "copd": ("respiratory", "respiratory", "emergency"),
    "asthma": ("respiratory", "respiratory", "emergency"),
    "lung_cancer": ("oncology", "oncology", "oncology"),
}
_LEVEL_INDEX = {"mild": 0, "moderate": 1, "severe": 2}


def right_department(disease: str, level: Level) -> str:
    """The department a patient with `disease` (an id) at `level` belongs in."""
    return ROUTES[disease][_LEVEL_INDEX[level]]


def check_routes(kb: KnowledgeBase) -> None:
    """Every disease of the knowledge base has a route (InputError naming the first that
    has none: the hospital knows where to send the bundled eight)."""
    for d in kb.diseases:
        if d.id not in ROUTES:
            raise InputError(f"the hospital has no department for disease '{d.id}' (it "
                             f"routes {', '.join(ROUTES)})", field="--kb")


def department(text: str, option: str = "--doctor") -> str:
    """A department id from what a user typed (its id or name, any case); InputError
    naming the known ones otherwise."""
    said = text.strip().casefold()
    for d in DEPARTMENTS:
        if said in (d.id, d.name.casefold()):
            return d.id
    raise InputError(f"no department '{text.strip()}' (known: {', '.join(IDS)})",
                     field=option)
