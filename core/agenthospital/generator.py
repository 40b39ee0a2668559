"""Seeded patients from the knowledge base, and the ordinary bedside cases made of them.

A `Patient` is the generator's draw: a disease at a severity level, age, sex, how long the
illness has lasted, which symptoms (and which of their phrasings) and history items, and
vital signs. `case_of` renders it as a `core.case.Case`: the patient's own account in the
first person (what the retrieval patient reads aloud), the findings of all sixteen
examinations (suitable ones flagged `relevant`), and the ground truth — the disease, its
options, the severity, the suitable examinations and the treatment plan.

Determinism: patient `index` of split `split` under `seed` is drawn from its own
`random.Random("agenthospital:<seed>:<split>:<index>")` (a string seed is reproducible
across processes), so a case never depends on how many others were drawn, and the same
seed gives byte-identical cases. Diseases and levels are uniform.

Train and test are disjoint by construction, not only by id: every presentation has a
signature (disease, level, age, sex, duration, symptoms with their phrasing, history,
vital signs) whose hash puts it in the test region (one in ten) or the training region,
and each split redraws a patient that falls in the other's region. The test set therefore
never holds a presentation the training stream can produce, whatever the sizes.

For the whole hospital (a patient who improves or worsens): `at_level` redraws what
depends on the level (vital signs, level-specific symptoms) and keeps who the patient is.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from core.agenthospital.kb import LEVELS, Disease, KnowledgeBase, Level
from core.agenthospital.tasks import Encounter, Key
from core.agenthospital.tasks import who as person
from core.case import Case

Split = Literal["train", "test"]
SOURCE = "agenthospital"  # the source of every generated case
TEST_REGION = 10  # one signature in ten belongs to the test set
_TRIES = 200  # redraws before giving up on a region (never reached in practice)


class Patient(BaseModel):
    """One drawn patient (see the module docstring)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    disease: str = Field(description="Disease id.")
    level: Level = Field(description="Severity level.")
    age: int = Field(description="Years.")
    sex: Literal["female", "male"] = Field(description="Sex.")
    days: int = Field(description="How long the illness has lasted, days.")
    symptoms: tuple[tuple[int, int], ...] = Field(description="(symptom index, phrasing "
                                                  "index) pairs, in the disease file's order.")
    history: tuple[int, ...] = Field(description="History item indices.")
    vitals: tuple[tuple[str, float], ...] = Field(description="(sign, value) pairs.")

    def signature(self) -> str:
        """A hash of the whole presentation (what decides train or test region)."""
        return hashlib.sha256(self.model_dump_json().encode()).hexdigest()

    def region(self) -> Split:
        """Which split a presentation belongs to."""
        return "test" if int(self.signature()[:8], 16) % TEST_REGION == 0 else "train"


def _draw_vitals(disease: Disease, level: Level,
                 rng: random.Random) -> tuple[tuple[str, float], ...]:
    v = disease.level(level).vitals
    out = [("temp", round(rng.uniform(*v.temp), 1))]
    out += [(k, float(rng.randint(int(lo), int(hi))))
            for k, (lo, hi) in (("hr", v.hr), ("rr", v.rr), ("sbp", v.sbp), ("dbp", v.dbp),
                                ("spo2", v.spo2))]
    return tuple(out)


def _draw_symptoms(disease: Disease, level: Level, rng: random.Random,
                   keep: dict[int, int] | None = None) -> tuple[tuple[int, int], ...]:
    """Each symptom with its level's frequency (at least two: the most frequent are added
    when the draw gives fewer); `keep` holds phrasings already chosen (a patient who
    changes level keeps saying things the same way)."""
    keep = keep or {}
    chosen: dict[int, int] = {}
    for i, s in enumerate(disease.symptoms):
        share = s.share(level)
        if share > 0 and (rng.random() < share):
            chosen[i] = keep[i] if i in keep else rng.randrange(len(s.says))
    by_share = sorted(range(len(disease.symptoms)), key=lambda i: -disease.symptoms[i].share(level))
    for i in by_share:
        if len(chosen) >= 2:
            break
        if i not in chosen and disease.symptoms[i].share(level) > 0:
            chosen[i] = keep[i] if i in keep else rng.randrange(len(disease.symptoms[i].says))
    return tuple(sorted(chosen.items()))


def draw_patient(kb: KnowledgeBase, rng: random.Random, *, disease: str | None = None,
                 level: Level | None = None) -> Patient:
    """One patient; disease and level uniform unless given."""
    d = kb.disease(disease) if disease else rng.choice(kb.diseases)
    lv: Level = level if level is not None else rng.choice(LEVELS)
    spec = d.level(lv)
    history = tuple(i for i, h in enumerate(d.history) if rng.random() < h.share(lv))
    return Patient(disease=d.id, level=lv, age=rng.randint(*spec.age),
                   sex="male" if rng.random() < d.male_share else "female",
                   days=rng.randint(*spec.duration_days),
                   symptoms=_draw_symptoms(d, lv, rng), history=history,
                   vitals=_draw_vitals(d, lv, rng))


def at_level(kb: KnowledgeBase, patient: Patient, level: Level, rng: random.Random,
             *, days_later: int = 0) -> Patient:
    """The same patient at another severity level (better or worse): vital signs and the
    symptoms of the new level are drawn again, phrasings already used are kept."""
    d = kb.disease(patient.disease)
    return patient.model_copy(update={
        "level": level, "days": patient.days + days_later,
        "symptoms": _draw_symptoms(d, level, rng, dict(patient.symptoms)),
        "vitals": _draw_vitals(d, level, rng)})


def patient_rng(seed: int, split: Split, index: int) -> random.Random:
    """The generator of patient `index` of `split` (see the module docstring)."""
    return random.Random(f"{SOURCE}:{seed}:{split}:{index}")


def split_patient(kb: KnowledgeBase, seed: int, split: Split, index: int) -> Patient:
    """Patient `index` of `split`: drawn until its presentation is in the split's region."""
    rng = patient_rng(seed, split, index)
    for _ in range(_TRIES):
        patient = draw_patient(kb, rng)
        if patient.region() == split:
            return patient
    raise RuntimeError(f"no {split} presentation in {_TRIES} draws")  # pragma: no cover


# -- rendering ------------------------------------------------------------------------------

def _duration(days: int) -> str:
    if days == 1:
        return "I've been unwell since yesterday."
    if days < 14:
        return f"I've been unwell for {days} days."
    if days < 60:
        return f"I've been unwell for about {round(days / 7)} weeks."
    return f"I've been unwell for about {round(days / 30)} months."


def vital_values(patient: Patient) -> dict[str, str]:
    """The placeholder values of a patient's finding texts."""
    v = dict(patient.vitals)
    values = {k: (f"{v[k]:.1f}" if k == "temp" else f"{v[k]:.0f}") for k in v}
    values["rhythm"] = "Sinus tachycardia" if v["hr"] > 100 else "Sinus rhythm"
    return values


def account(kb: KnowledgeBase, patient: Patient) -> str:
    """What the patient tells the doctor, in the first person."""
    d = kb.disease(patient.disease)
    phrases = [d.symptoms[i].says[j] for i, j in patient.symptoms]
    lines = [_duration(patient.days)] + [p[0].upper() + p[1:] + "." for p in phrases]
    lines += [d.history[i].says for i in patient.history]
    return " ".join(lines)


def _items(kb: KnowledgeBase, patient: Patient, kind: str) -> list[dict[str, object]]:
    d = kb.disease(patient.disease)
    suitable = set(d.suitable_at(patient.level))
    values = vital_values(patient)
    return [{"name": e.name, "value": d.finding(e, patient.level).format(**values),
             "synonyms": list(e.synonyms), "relevant": e.id in suitable}
            for e in kb.examinations if e.kind == kind]


def case_id(seed: int, split: Split, index: int) -> str:
    """The id of a generated case, e.g. 'ah7-train-00012'."""
    return f"ah{seed}-{split}-{index:05d}"


def case_of(kb: KnowledgeBase, patient: Patient, cid: str, *, tags: list[str] | None = None,
            notes: str | None = None) -> Case:
    """The bedside case of a patient (built as plain data and validated once: several
    times faster than building each part as a model)."""
    d = kb.disease(patient.disease)
    who = person(patient.age, patient.sex)
    said = account(kb, patient)
    symptoms = [{"name": d.symptoms[i].name, "description": d.symptoms[i].says[j],
                 "onset": f"{patient.days} days ago"} for i, j in patient.symptoms]
    profile = {
        "demographics": {"age": str(patient.age), "sex": patient.sex},
        "chief_complaint": symptoms[0]["description"], "history_of_present_illness": said,
        "primary_symptoms": symptoms[:2], "secondary_symptoms": symptoms[2:],
        "history": [{"kind": d.history[i].kind, "text": d.history[i].says}
                    for i in patient.history],
        "opening": said}
    suitable = [kb.exam(e).name for e in d.suitable_at(patient.level)]
    truth = {
        "diagnosis": d.name, "synonyms": list(d.synonyms), "icd10": list(d.icd10),
        "options": kb.disease_names, "correct_option": d.name,
        "rationale": f"{d.name}, {patient.level}", "treatment": d.level(patient.level).treatment,
        "extra": {"severity": patient.level, "suitable_examinations": "; ".join(suitable),
                  "disease_id": d.id, "knowledge_base": kb.digest[:16]}}
    return Case.model_validate({
        "id": cid, "title": f"Respiratory clinic: {who}", "specialty": "pulmonology",
        "source": SOURCE, "objective": f"A {who} attends the respiratory clinic.",
        "patient": profile, "physical_exam": _items(kb, patient, "exam"),
        "tests": _items(kb, patient, "test"), "truth": truth, "expected_rounds": 3,
        "tags": [SOURCE, *(tags or [])], "notes": notes})


def generate(kb: KnowledgeBase, seed: int, split: Split, count: int,
             start: int = 1) -> Iterator[Case]:
    """Cases `start` … `start + count - 1` of a split, in order."""
    for index in range(start, start + count):
        patient = split_patient(kb, seed, split, index)
        yield case_of(kb, patient, case_id(seed, split, index),
                      tags=[f"{SOURCE}:{split}", f"seed:{seed}"],
                      notes=f"Generated: seed {seed}, {split} patient {index}, knowledge base "
                      f"{kb.digest[:16]}.")


def patient_encounter(kb: KnowledgeBase, patient: Patient, cid: str) -> tuple[Encounter, Key]:
    """The encounter and key of a patient without building its case (the fast path of a
    long training stream: the same texts `case_of` stores)."""
    d = kb.disease(patient.disease)
    values = vital_values(patient)
    findings = {e.name: d.finding(e, patient.level).format(**values) for e in kb.examinations}
    who = person(patient.age, patient.sex)
    key = Key(disease=d.name, level=patient.level,
              suitable=tuple(kb.exam(e).name for e in d.suitable_at(patient.level)))
    return Encounter(case_id=cid, who=who, account=account(kb, patient), findings=findings), key


def stream(kb: KnowledgeBase, seed: int, split: Split, count: int,
           start: int = 1) -> Iterator[tuple[Encounter, Key]]:
    """Encounters and keys of a split, in order (the same patients as `generate`)."""
    for index in range(start, start + count):
        patient = split_patient(kb, seed, split, index)
        yield patient_encounter(kb, patient, case_id(seed, split, index))
