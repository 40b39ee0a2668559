"""The Agent Hospital disease knowledge base: sixteen examinations and eight respiratory
diseases, each with three severity levels, read from data files and checked.

Files (the bundled ones are `cases/agenthospital/`, written for bedside):
- `examinations.yaml`: `examinations:` a list of sixteen examinations, each with an id, a
  name, a kind (exam or test), synonyms and its `normal` finding;
- `symptoms.yaml`: `symptoms:` the symptoms several diseases share, each with an id, a
  name and the ways a patient says it (a fever is told the same way whatever causes it);
- `diseases/*.yaml`: one disease per file: names, ICD-10 codes, the share of men, the
  suitable examinations, symptoms (`{id: fever, frequency: …}` for a shared one, or a
  name and its phrasings for one of its own) and history items with how often they occur
  (a number, or one per severity level), findings that hold at every level, and per level (`mild`,
  `moderate`, `severe`) the age and duration ranges, vital-sign ranges, extra suitable
  examinations, findings of that level and the one treatment plan.

A finding is looked up level first, then disease, then the examination's normal text.
Finding texts may use the vital-sign placeholders `{temp} {hr} {rr} {sbp} {dbp} {spo2}`
and `{rhythm}`. Every problem is an `InputError` naming file, line and field; `check_kb`
lists them all, `load_kb` raises the first.
"""

from __future__ import annotations

import hashlib
import json
import string
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from core.case import HistoryKind
from core.caseio import bundled_cases_dir, case_document, node_line
from core.errors import InputError

Level = Literal["mild", "moderate", "severe"]
LEVELS: tuple[Level, ...] = ("mild", "moderate", "severe")
PLACEHOLDERS = frozenset({"temp", "hr", "rr", "sbp", "dbp", "spo2", "rhythm"})
N_EXAMINATIONS, N_DISEASES = 16, 8  # the paper's task sizes
_ID = r"^[a-z][a-z0-9_]*$"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _placeholders(text: str) -> list[str]:
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


# -- reading --------------------------------------------------------------------------------

class _File:
    """One parsed file: its path, node tree (for lines) and data."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise InputError(f"cannot read ({type(err).__name__})", path=str(path)) from None
        try:
            self.node, self.data = case_document(text)
        except yaml.MarkedYAMLError as err:
            mark = err.problem_mark
            raise InputError(f"not valid YAML ({err.problem})", path=str(path),
                             line=mark.line + 1 if mark else None) from None
        except yaml.YAMLError as err:
            raise InputError(f"not valid YAML ({err})", path=str(path)) from None
        self.text = text

    def error(self, loc: tuple[Any, ...], message: str) -> InputError:
        """A problem at `loc` of this file, with its line."""
        return InputError(message, path=str(self.path), line=node_line(self.node, loc),
                          field=".".join(str(p) for p in loc) or None)

    def problems(self, err: ValidationError, prefix: tuple[Any, ...] = ()) -> list[InputError]:
        """Pydantic errors as problems with line and field."""
        return [self.error((*prefix, *(p for p in e["loc"] if not str(p).startswith(
            "function-"))), e["msg"]) for e in err.errors()]


def _read_exams(file: _File) -> tuple[list[Examination], list[InputError]]:
    items = file.data.get("examinations") if isinstance(file.data, dict) else None
    if not isinstance(items, list):
        return [], [file.error((), "expected a mapping with an 'examinations' list")]
    exams, problems = [], []
    for i, item in enumerate(items):
        try:
            exams.append(Examination.model_validate(item))
        except ValidationError as err:
            problems.extend(file.problems(err, ("examinations", i)))
            continue
        problems.extend(_check_template(file, ("examinations", i, "normal"), exams[-1].normal))
    return exams, problems


def _check_template(file: _File, loc: tuple[Any, ...], text: str) -> list[InputError]:
    try:
        names = _placeholders(text)
    except ValueError as err:
        return [file.error(loc, f"bad placeholder ({err})")]
    bad = sorted(set(names) - PLACEHOLDERS)
    if bad:
        return [file.error(loc, f"unknown placeholder {{{bad[0]}}} (known: "
                           f"{', '.join(sorted(PLACEHOLDERS))})")]
    return []


def _check_disease(file: _File, disease: Disease, exam_ids: set[str]) -> list[InputError]:
    """References to examinations, finding placeholders and levels of one disease."""
    out: list[InputError] = []

    def ref(loc: tuple[Any, ...], exam_id: str) -> None:
        if exam_id not in exam_ids:
            out.append(file.error(loc, f"'{exam_id}' is not an examination id (known: "
                                  f"{', '.join(sorted(exam_ids))})"))

    for i, exam_id in enumerate(disease.suitable):
        ref(("suitable", i), exam_id)
    for exam_id, text in disease.findings.items():
        ref(("findings", exam_id), exam_id)
        out.extend(_check_template(file, ("findings", exam_id), text))
    missing = [lv for lv in LEVELS if lv not in disease.severities]
    if missing:
        out.append(file.error(("severities",), f"missing level(s): {', '.join(missing)}"))
    for lv, level in disease.severities.items():
        for i, exam_id in enumerate(level.also_suitable):
            ref(("severities", lv, "also_suitable", i), exam_id)
        for exam_id, text in level.findings.items():
            ref(("severities", lv, "findings", exam_id), exam_id)
            out.extend(_check_template(file, ("severities", lv, "findings", exam_id), text))
        if not any(s.share(lv) > 0 for s in disease.symptoms):
            out.append(file.error(("symptoms",), f"no symptom ever occurs at level '{lv}'"))
    return out


def _read_shared(file: _File) -> tuple[dict[str, SharedSymptom], list[InputError]]:
    items = file.data.get("symptoms") if isinstance(file.data, dict) else None
    if not isinstance(items, list):
        return {}, [file.error((), "expected a mapping with a 'symptoms' list")]
    shared: dict[str, SharedSymptom] = {}
    problems = []
    for i, item in enumerate(items):
        try:
            symptom = SharedSymptom.model_validate(item)
        except ValidationError as err:
            problems.extend(file.problems(err, ("symptoms", i)))
            continue
        if symptom.id in shared:
            problems.append(file.error(("symptoms", i, "id"), f"'{symptom.id}' is listed "
                                       "twice"))
        shared[symptom.id] = symptom
    return shared, problems


def _resolve_symptoms(file: _File, data: dict[str, Any],
                      shared: dict[str, SharedSymptom]) -> list[InputError]:
    """Replace `{id: …, frequency: …}` entries by the shared symptom's name and phrasings
    (in place); one problem per unknown id or entry with both an id and its own text."""
    out = []
    found = data.get("symptoms")
    entries: list[Any] = found if isinstance(found, list) else []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or "id" not in entry:
            continue
        ref = shared.get(str(entry["id"]))
        if ref is None:
            out.append(file.error(("symptoms", i, "id"), f"'{entry['id']}' is not a shared "
                                  f"symptom (known: {', '.join(sorted(shared))})"))
        elif {"name", "says"} & set(entry):
            out.append(file.error(("symptoms", i), "give either a shared symptom's id or a "
                                  "name and its phrasings, not both"))
        else:
            entries[i] = {"name": ref.name, "says": list(ref.says),
                          **{k: v for k, v in entry.items() if k != "id"}}
    return out


def _read_diseases(folder: Path, exam_ids: set[str],
                   shared: dict[str, SharedSymptom]) -> tuple[list[Disease], list[InputError]]:
    diseases: list[Disease] = []
    problems: list[InputError] = []
    files = sorted(p for p in folder.glob("*.y*ml") if p.is_file())
    seen: dict[tuple[str, str], str] = {}
    for path in files:
        file = _File(path)
        if not isinstance(file.data, dict):
            problems.append(file.error((), "expected a mapping of disease fields"))
            continue
        unresolved = _resolve_symptoms(file, file.data, shared)
        if unresolved:
            problems.extend(unresolved)
            continue
        try:
            disease = Disease.model_validate(file.data)
        except ValidationError as err:
            problems.extend(file.problems(err))
            continue
        problems.extend(_check_disease(file, disease, exam_ids))
        for field, key in (("id", disease.id), ("name", disease.name.casefold())):
            if (field, key) in seen:
                problems.append(file.error((field,), f"'{key}' is also the {field} in "
                                           f"{seen[field, key]}"))
            seen[field, key] = path.name
        diseases.append(disease)
    return diseases, problems


def _digest(paths: list[Path]) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def check_kb(folder: str | Path | None = None) -> tuple[KnowledgeBase | None, list[InputError]]:
    """Read a knowledge base folder: (the base, or None if it cannot be built, and every
    problem found)."""
    root = Path(folder) if folder is not None else bundled_kb_dir()
    exams_path, diseases_dir = root / "examinations.yaml", root / "diseases"
    shared_path = root / "symptoms.yaml"
    if not exams_path.is_file() or not diseases_dir.is_dir() or not shared_path.is_file():
        return None, [InputError("a knowledge base folder holds examinations.yaml, "
                                 "symptoms.yaml and a diseases/ folder", path=str(root))]
    try:
        exams_file = _File(exams_path)
        exams, problems = _read_exams(exams_file)
        shared, more = _read_shared(_File(shared_path))
        problems += more
        diseases, more = _read_diseases(diseases_dir, {e.id for e in exams}, shared)
    except InputError as err:
        return None, [err]
    problems += more
    problems += _check_counts(exams_file, exams, diseases, diseases_dir)
    if problems:
        return None, problems
    paths = [exams_path, shared_path, *sorted(diseases_dir.glob("*.y*ml"))]
    return KnowledgeBase(examinations=exams, diseases=diseases, digest=_digest(paths),
                         source=str(root)), []


def _check_counts(exams_file: _File, exams: list[Examination], diseases: list[Disease],
                  diseases_dir: Path) -> list[InputError]:
    out = []
    if len(exams) != N_EXAMINATIONS:
        out.append(exams_file.error(("examinations",), f"expected {N_EXAMINATIONS} "
                                    f"examinations, found {len(exams)}"))
    names = [e.name.casefold() for e in exams]
    ids = [e.id for e in exams]
    for i, (exam_id, name) in enumerate(zip(ids, names, strict=True)):
        if ids.index(exam_id) != i or names.index(name) != i:
            out.append(exams_file.error(("examinations", i), f"'{exams[i].name}' "
                                        "(or its id) is listed twice"))
    if len(diseases) != N_DISEASES:
        out.append(InputError(f"expected {N_DISEASES} disease files, found {len(diseases)}",
                              path=str(diseases_dir)))
    return out


def load_kb(folder: str | Path | None = None) -> KnowledgeBase:
    """The knowledge base of `folder` (default: the bundled one); InputError naming the
    file, line and field of the first problem (and how many more there are)."""
    kb, problems = check_kb(folder)
    if kb is None:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InputError(first.reason + more, path=first.path, line=first.line,
                         field=first.field)
    return kb


@lru_cache(maxsize=4)
def _cached(folder: str) -> KnowledgeBase:
    return load_kb(folder)


def bundled_kb() -> KnowledgeBase:
    """The bundled knowledge base (read once per process)."""
    return _cached(str(bundled_kb_dir()))


def kb_json(kb: KnowledgeBase) -> str:
    """The knowledge base as JSON (for `bedside agenthospital kb --json`)."""
    return json.dumps(kb.model_dump(mode="json"), ensure_ascii=False, indent=2)
