"""The Agent Hospital disease knowledge base as models: sixteen examinations and eight
respiratory diseases, each with three severity levels (`core.agenthospital.kb` reads and
checks the files).

Files (the bundled ones are `cases/agenthospital/`, written for bedside):
- `examinations.yaml`: `examinations:` a list of sixteen examinations, each with an id, a
  name, a kind (exam or test), synonyms and its `normal` finding;
- `symptoms.yaml`: `symptoms:` the symptoms several diseases share, each with an id, a
  name and the ways a patient says it (a fever is told the same way whatever causes it);
- `diseases/*.yaml`: one disease per file: names, ICD-10 codes, the share of men, the
  suitable examinations, symptoms (`{id: fever, frequency: …}` for a shared one, or a
  name and its phrasings for one of its own) and history items with how often they occur
  (a number, or one per severity level), findings that hold at every level, and per level
  (`mild`, `moderate`, `severe`) the age and duration ranges, vital-sign ranges, extra
  suitable examinations, findings of that level and the one treatment plan.

A finding is looked up level first, then disease, then the examination's normal text.
Finding texts may use the vital-sign placeholders `{temp} {hr} {rr} {sbp} {dbp} {spo2}`
and `{rhythm}`.
"""

from __future__ import annotations

import string
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from core.case import HistoryKind
from core.caseio import bundled_cases_dir

Level = Literal["mild", "moderate", "severe"]
LEVELS: tuple[Level, ...] = ("mild", "moderate", "severe")
PLACEHOLDERS = frozenset({"temp", "hr", "rr", "sbp", "dbp", "spo2", "rhythm"})
N_EXAMINATIONS, N_DISEASES = 16, 8  # the paper's task sizes
_ID = r"^[a-z][a-z0-9_]*$"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def placeholders(text: str) -> list[str]:
    """The `{name}` fields of a finding text."""
    return [f for _, f, _, _ in string.Formatter().parse(text) if f is not None]


class Examination(_Model):
    """One of the sixteen examinations."""

    id: str = Field(pattern=_ID, description="Short id, e.g. 'cxr'.")
    name: str = Field(min_length=1, description="The name doctors choose, e.g. 'Chest X-ray'.")
    kind: Literal["exam", "test"] = Field(description="A bedside examination or a test.")
    synonyms: list[str] = Field(default_factory=list, description="Other names for it.")
    normal: str = Field(min_length=1, description="What it shows when the disease leaves it "
                        "unchanged (vital-sign placeholders allowed).")


Frequency = float | dict[Level, float]


def _check_frequency(value: Frequency) -> Frequency:
    values = value.values() if isinstance(value, dict) else [value]
    if any(not 0 <= v <= 1 for v in values):
        raise ValueError("a frequency is a share from 0 to 1")
    return value


class SharedSymptom(_Model):
    """A symptom several diseases share (`symptoms.yaml`)."""

    id: str = Field(pattern=_ID, description="Short id a disease file names it by.")
    name: str = Field(min_length=1, description="Short name, e.g. 'fever'.")
    says: list[str] = Field(min_length=1, description="Ways the patient puts it.")


class SymptomSpec(_Model):
    """A symptom of a disease and how often it occurs."""

    name: str = Field(min_length=1, description="Short name, e.g. 'dry cough'.")
    says: list[str] = Field(min_length=1, description="Ways the patient puts it (first person).")
    frequency: Frequency = Field(description="Share of patients who have it: one number, or "
                                 "one per level (a level left out: never).")

    _frequency = field_validator("frequency")(_check_frequency)

    def share(self, level: Level) -> float:
        """How often it occurs at `level`."""
        f = self.frequency
        return f.get(level, 0.0) if isinstance(f, dict) else f


class HistorySpec(_Model):
    """A piece of history (risk factor, exposure, past illness) and how often it occurs."""

    kind: HistoryKind = Field(description="Which kind of history.")
    says: str = Field(min_length=1, description="How the patient tells it (first person).")
    frequency: Frequency = Field(description="As a symptom's frequency.")

    _frequency = field_validator("frequency")(_check_frequency)

    def share(self, level: Level) -> float:
        """How often it occurs at `level`."""
        f = self.frequency
        return f.get(level, 0.0) if isinstance(f, dict) else f


Range = tuple[float, float]


class Vitals(_Model):
    """Ranges the vital signs are drawn from at one severity level."""

    temp: Range = Field(description="Temperature, °C.")
    hr: Range = Field(description="Heart rate per minute.")
    rr: Range = Field(description="Respiratory rate per minute.")
    sbp: Range = Field(description="Systolic blood pressure, mmHg.")
    dbp: Range = Field(description="Diastolic blood pressure, mmHg.")
    spo2: Range = Field(description="Oxygen saturation on room air, %.")

    @field_validator("*")
    @classmethod
    def _ordered(cls, value: Range) -> Range:
        if value[0] > value[1]:
            raise ValueError("a range is [low, high] with low not above high")
        return value


class SeverityLevel(_Model):
    """One severity level of a disease."""

    age: tuple[int, int] = Field(description="Age range in years.")
    duration_days: tuple[int, int] = Field(description="How long the illness has lasted, days.")
    vitals: Vitals = Field(description="Vital-sign ranges.")
    also_suitable: list[str] = Field(default_factory=list, description="Examination ids "
                                     "also suitable at this level.")
    findings: dict[str, str] = Field(default_factory=dict, description="Examination id → "
                                     "finding at this level.")
    treatment: str = Field(min_length=1, description="The treatment plan for this level.")


class Disease(_Model):
    """One of the eight diseases."""

    id: str = Field(pattern=_ID, description="Short id, e.g. 'covid19'.")
    name: str = Field(min_length=1, description="The name doctors choose.")
    synonyms: list[str] = Field(default_factory=list, description="Other accepted names.")
    icd10: list[str] = Field(default_factory=list, description="ICD-10 codes.")
    male_share: float = Field(0.5, ge=0, le=1, description="Share of patients who are men.")
    suitable: list[str] = Field(min_length=1, description="Examination ids suitable at "
                                "every level.")
    symptoms: list[SymptomSpec] = Field(min_length=2, description="Symptoms.")
    history: list[HistorySpec] = Field(default_factory=list, description="History items.")
    findings: dict[str, str] = Field(default_factory=dict, description="Examination id → "
                                     "finding at every level (a level's own wins).")
    severities: dict[Level, SeverityLevel] = Field(description="mild, moderate and severe.")

    def level(self, level: Level) -> SeverityLevel:
        """One severity level."""
        return self.severities[level]

    def suitable_at(self, level: Level) -> list[str]:
        """The examination ids suitable for a patient at `level`, in file order."""
        return list(dict.fromkeys([*self.suitable, *self.severities[level].also_suitable]))

    def finding(self, exam: Examination, level: Level) -> str:
        """The finding template of `exam` at `level` (level, then disease, then normal)."""
        return self.severities[level].findings.get(exam.id) or self.findings.get(exam.id) \
            or exam.normal


class KnowledgeBase(_Model):
    """The examinations and diseases, in file order, and where they were read from."""

    examinations: list[Examination] = Field(description="The sixteen examinations.")
    diseases: list[Disease] = Field(description="The eight diseases.")
    digest: str = Field(description="sha256 of the files' content, recorded with each case.")
    source: str = Field(description="The folder it was read from.")

    def exam(self, exam_id: str) -> Examination:
        """An examination by id."""
        return next(e for e in self.examinations if e.id == exam_id)

    def disease(self, disease_id: str) -> Disease:
        """A disease by id."""
        return next(d for d in self.diseases if d.id == disease_id)

    @property
    def exam_names(self) -> list[str]:
        """The examination names, the options of the examination task."""
        return [e.name for e in self.examinations]

    @property
    def disease_names(self) -> list[str]:
        """The disease names, the options of the diagnosis task."""
        return [d.name for d in self.diseases]


def bundled_kb_dir() -> Path:
    """The bundled knowledge base folder."""
    return bundled_cases_dir() / "agenthospital"
