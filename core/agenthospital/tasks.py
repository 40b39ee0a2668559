"""The three chained tasks: examination, diagnosis, treatment level.

An `Encounter` is what a doctor may know of a patient — who they are, their own account
and the findings of each examination (handed out only for the examination the doctor
chose) — cut from the patient's and the examiner's views of a case, or straight from a
generated patient (the fast path of a long training stream). A `Key` is the right answers,
read from the case's ground truth: the disease, the severity level and the suitable
examinations. Doctors never see a key; graders and the learner's feedback do.

A `Question` is one task as a doctor meets it: the context so far and the options
(sixteen examinations, eight diseases, three levels with the diagnosed disease's plans).
`pick` reads an answer out of free text (an `ANSWER:` line, else the one option named);
`grade` says which answers are right: the examination if it is suitable for this patient,
the diagnosis if it is the disease, the level only if the diagnosis is right too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from core.agenthospital.kb import LEVELS, KnowledgeBase, Level
from core.case import Case
from core.views import examiner_view, patient_view

Task = Literal["examination", "diagnosis", "treatment"]
TASKS: tuple[Task, ...] = ("examination", "diagnosis", "treatment")
_ANSWER = re.compile(r"^\s*(?:\**\s*)?answer\s*(?:\**\s*)?[:：]\s*(.+?)\s*\**\s*$",
                     re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class Encounter:
    """What a doctor may learn about one patient (see the module docstring)."""

    case_id: str
    who: str  # "54-year-old man"
    account: str  # the patient's own words
    findings: Mapping[str, str]  # examination name → finding (given for the chosen one only)


@dataclass(frozen=True)
class Key:
    """The right answers for one patient."""

    disease: str  # the disease's name, as in the options
    level: Level
    suitable: tuple[str, ...]  # names of the suitable examinations, the preferred first


def who(age: str | int | None, sex: str | None) -> str:
    """'54-year-old man', '14-year-old girl', or 'patient' parts when unknown."""
    years = int(str(age)) if str(age or "").isdigit() else None
    adult = years is None or years >= 18
    noun = {"male": "man" if adult else "boy", "female": "woman" if adult else "girl"}.get(
        (sex or "").lower(), "patient")
    return f"{age}-year-old {noun}" if age else noun


def _who(case: Case) -> str:
    d = case.patient.demographics
    return who(d.age, d.sex)


def encounter_of(case: Case) -> Encounter:
    """A case's encounter, cut from the patient's and the examiner's views only."""
    pv, ev = patient_view(case), examiner_view(case)
    said = pv.profile.opening or pv.profile.history_of_present_illness or ""
    findings = {i.name: i.value or "" for i in [*ev.physical_exam, *ev.tests]}
    return Encounter(case_id=case.id, who=_who(case), account=said, findings=findings)


def key_of(case: Case) -> Key | None:
    """The right answers of a generated case; None when it is not one (no severity)."""
    extra = case.truth.extra
    level = extra.get("severity")
    if level not in LEVELS:
        return None
    suitable = tuple(s.strip() for s in extra.get("suitable_examinations", "").split(";")
                     if s.strip())
    return Key(disease=case.truth.correct_option or case.truth.diagnosis, level=level,
               suitable=suitable)


@dataclass(frozen=True)
class Question:
    """One task as the doctor meets it."""

    task: Task
    encounter: Encounter
    options: tuple[str, ...]
    examination: str | None = None  # the examination chosen (diagnosis, treatment)
    finding: str | None = None  # what the examiner reported of it
    diagnosis: str | None = None  # the diagnosis given (treatment)
    plans: Mapping[str, str] = field(default_factory=dict)  # level → plan (treatment)

    def context(self) -> str:
        """What the doctor knows at this task, as text (also what memory is searched by)."""
        lines = [f"Patient: {self.encounter.who}.", f"The patient says: {self.encounter.account}"]
        if self.examination is not None:
            finding = self.finding or "no result"
            # The engine's examiner names the examination itself ("Chest CT: …"): once is enough.
            if not finding.startswith(f"{self.examination}:"):
                finding = f"{self.examination}: {finding}"
            lines.append(f"Examination: {finding}")
        if self.diagnosis is not None:
            lines.append(f"Diagnosis: {self.diagnosis}")
        return "\n".join(lines)

    def option_lines(self) -> str:
        """The options, one a line (treatment levels with their plans)."""
        if self.task == "treatment" and self.plans:
            return "\n".join(f"- {lv}: {self.plans.get(lv, '')}" for lv in self.options)
        return "\n".join(f"- {o}" for o in self.options)


def examination_question(kb: KnowledgeBase, enc: Encounter) -> Question:
    """Task 1: which one of the sixteen examinations."""
    return Question("examination", enc, tuple(kb.exam_names))


def diagnosis_question(kb: KnowledgeBase, enc: Encounter, examination: str,
                       finding: str) -> Question:
    """Task 2: which one of the eight diseases, given the chosen examination's finding."""
    return Question("diagnosis", enc, tuple(kb.disease_names), examination=examination,
                    finding=finding)


def treatment_question(kb: KnowledgeBase, enc: Encounter, examination: str, finding: str,
                       diagnosis: str) -> Question:
    """Task 3: which treatment level for the diagnosed disease (its three plans shown)."""
    plans: dict[str, str] = {}
    for d in kb.diseases:
        if d.name == diagnosis:
            plans = {lv: d.level(lv).treatment for lv in LEVELS}
    return Question("treatment", enc, LEVELS, examination=examination, finding=finding,
                    diagnosis=diagnosis, plans=plans)


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.casefold()).strip()


def pick(text: str, options: tuple[str, ...] | list[str]) -> str | None:
    """The option an answer names: the `ANSWER:` line if there is one (else the whole
    text), matched exactly, else as the only option it contains; None when it names none
    or several."""
    found = _ANSWER.findall(text or "")
    said = _norm(found[-1] if found else text or "")
    norms = {_norm(o): o for o in options}
    if said in norms:
        return norms[said]
    inside = [o for n, o in norms.items() if n and re.search(rf"\b{re.escape(n)}\b", said)]
    # An option inside another ("Chest X-ray" in "Chest X-ray and CT") is dropped only when
    # the longer one is named too.
    inside = [o for o in inside if not any(o != p and _norm(o) in _norm(p) for p in inside)]
    return inside[0] if len(inside) == 1 else None


@dataclass
class Answers:
    """A doctor's answers to the three tasks (None: not answered, or unreadable)."""

    examination: str | None = None
    diagnosis: str | None = None
    treatment: str | None = None

    def get(self, task: Task) -> str | None:
        """The answer to one task."""
        return getattr(self, task)


def right_answer(task: Task, key: Key) -> str:
    """The right answer of a task (the examination task: the preferred suitable one)."""
    if task == "examination":
        return key.suitable[0]
    return key.disease if task == "diagnosis" else key.level


def right_in_words(task: Task, key: Key) -> str:
    """The right answer as a reflecting doctor is told it (every suitable examination)."""
    if task == "examination":
        return "any of: " + "; ".join(key.suitable)
    return right_answer(task, key)


def correct(task: Task, answers: Answers, key: Key) -> bool:
    """Whether one task's answer is right (treatment: only with the right diagnosis)."""
    if task == "examination":
        return answers.examination in key.suitable
    if task == "diagnosis":
        return answers.diagnosis == key.disease
    return answers.diagnosis == key.disease and answers.treatment == key.level


def grade(answers: Answers, key: Key) -> dict[Task, bool]:
    """Each task's verdict."""
    return {t: correct(t, answers, key) for t in TASKS}
