"""The triage nurse: sends each arriving patient to a department, from what the patient
says (the chief complaint and the rest of their account) and the vital signs the nurse
measures — never the diagnosis or the severity.

- `RulesNurse` (offline, written for bedside): tuberculosis clues (night sweats, evening
  fevers, a hostel contact, HIV) go to infectious diseases whatever the vital signs
  (isolation first); then red flags (oxygen saturation under 92 %, breathing 28 a minute
  or faster, systolic pressure under 90, breathless at rest, a few words at a time,
  confusion, drowsiness, exhaustion) go to the emergency department; then cancer clues
  (decades of smoking, asbestos, a hoarse voice, weight loss, bone pain, a chest infection
  that did not clear) to thoracic oncology; then chest clues (coloured phlegm, wheeze, an
  inhaler, a smoker's cough, lifelong asthma) to respiratory medicine; then infection
  clues (lost smell or taste, a positive swab, a sudden start, others ill around them, a
  temperature of 38 °C or more) to infectious diseases; anything else to respiratory
  medicine. Simple rules make mistakes (a COPD patient who lives at 90 % goes to the
  emergency department): triage accuracy measures them.
- `ModelNurse`: a model through `core.llm` with the prompt `ah-triage/v1`; the reply's
  `DEPARTMENT:` line is read (an id or a name). A reply that names no department sends the
  patient to respiratory medicine and says so (`Decision.fallback`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.agenthospital.tasks import pick
from core.config import AgentSpec
from core.errors import BedsideError
from core.hospital.departments import DEPARTMENTS
from core.llm import LLMClient
from core.prompts import AH_TRIAGE

FALLBACK = "respiratory"  # where a patient goes when the nurse's reply names no department
_DEPARTMENT = re.compile(r"department\s*[:：]\s*(.+)", re.IGNORECASE)


@dataclass(frozen=True)
class Arrival:
    """A patient at the triage desk: who they are, what they say, their vital signs."""

    patient: str
    visit: int
    who: str  # "54-year-old man"
    account: str  # the patient's own words
    vitals: Mapping[str, float]  # temp, hr, rr, sbp, dbp, spo2

    def vitals_text(self) -> str:
        """The vital signs as the nurse writes them down."""
        v = self.vitals
        return (f"temperature {v['temp']:.1f} °C, heart rate {v['hr']:.0f}/min, respiratory "
                f"rate {v['rr']:.0f}/min, blood pressure {v['sbp']:.0f}/{v['dbp']:.0f} mmHg, "
                f"SpO2 {v['spo2']:.0f} % on air")


@dataclass
class Decision:
    """Where the nurse sends a patient, and how it was decided."""

    department: str
    reason: str  # the rule that fired, or the model's reply
    fallback: bool = False  # the reply named no department: sent to FALLBACK
    meta: dict[str, Any] = field(default_factory=dict)  # model, prompt hash, tokens


class Nurse(Protocol):
    """Sends an arriving patient to a department."""

    label: str

    async def triage(self, arrival: Arrival) -> Decision:
        """The department for this patient."""
        ...


# (words any of which appear in the account, department, the reason in words). Written for
# bedside, from the knowledge base's ways of saying each symptom and history item.
_TB = (("drenched in sweat", "soaking the sheets", "feverish in the evenings",
        "shivery most evenings", "hostel", "south asia", "hiv", "methotrexate"),
       "infectious", "tuberculosis clues: isolation")
_RED_WORDS = ("even sitting still", "even lying in bed", "finish a sentence", "few words",
              "muddled", "losing track", "dozing off", "drowsy", "effort of breathing",
              "too tired to keep breathing", "cupful of blood", "lot of bright red blood")
_LATER = (
    (("pack a day", "asbestos", "hoarse", "croaky", "lost weight", "hanging off me",
      "bones", "hips ache", "didn't clear", "still there", "father died"), "oncology",
     "cancer clues"),
    (("yellow-green", "green sputum", "rust", "wheezy", "whistling", "inhaler", "smoker's "
      "cough", "since i was a child", "twenty a day", "coal mine"), "respiratory",
     "chest clues"),
    (("smell", "taste", "tested positive", "off sick", "very suddenly", "all at once",
      "half of my family", "vaccinations", "head to toe", "ache all over"), "infectious",
     "infection clues"),
)


def rules_decision(arrival: Arrival) -> Decision:
    """The offline nurse's decision (see the module docstring)."""
    said = arrival.account.casefold()
    v = arrival.vitals
    if any(w in said for w in _TB[0]):
        return Decision(_TB[1], _TB[2])
    if v["spo2"] < 92 or v["rr"] >= 28 or v["sbp"] < 90:
        return Decision("emergency", "red flag in the vital signs")
    if any(w in said for w in _RED_WORDS):
        return Decision("emergency", "red flag in what the patient says")
    for words, dept, why in _LATER:
        if any(w in said for w in words):
            return Decision(dept, why)
    if v["temp"] >= 38.0:
        return Decision("infectious", "fever of 38 °C or more")
    return Decision("respiratory", "no clue: a chest problem")


class RulesNurse:
    """The offline triage rules."""

    label = "rules"

    async def triage(self, arrival: Arrival) -> Decision:
        """The rules' department."""
        return rules_decision(arrival)


def triage_messages(arrival: Arrival) -> list[dict[str, str]]:
    """The one user message of a triage call."""
    departments = "\n".join(f"- {d.name}: {d.remit}" for d in DEPARTMENTS)
    text = AH_TRIAGE.format(departments=departments, who=arrival.who, account=arrival.account,
                            vitals=arrival.vitals_text())
    return [{"role": "user", "content": text}]


def read_department(text: str) -> str | None:
    """The department a triage reply names (its `DEPARTMENT:` line, else the whole reply):
    by its name or its id, the only department mentioned; None otherwise."""
    found = _DEPARTMENT.findall(text or "")
    said = found[-1] if found else text or ""
    named = {d.id for d in DEPARTMENTS
             if pick(said, [d.name]) is not None or pick(said, [d.id]) is not None}
    return named.pop() if len(named) == 1 else None


class ModelNurse:
    """A model triages (see the module docstring)."""

    def __init__(self, spec: AgentSpec, llm: LLMClient) -> None:
        if spec.kind != "llm":
            raise BedsideError(f"'{spec.kind}' is not a model")
        self.spec, self.llm, self.label = spec, llm, spec.display()

    async def triage(self, arrival: Arrival) -> Decision:
        """One model call; the reply's department (or the fallback, said so)."""
        reply = await self.llm.complete(self.spec, triage_messages(arrival))
        meta = {"model": reply.model, "prompt_id": AH_TRIAGE.id,
                "prompt_hash": AH_TRIAGE.sha256,
                "tokens": reply.usage.prompt_tokens + reply.usage.completion_tokens}
        said = " ".join(reply.text.split())[:300]
        chosen = read_department(reply.text)
        if chosen is None:
            return Decision(FALLBACK, f"the reply named no department: {said}", fallback=True,
                            meta=meta)
        return Decision(chosen, said, meta=meta)
