"""The doctors of the Agent Hospital tasks: each answers a `Question` (with what memory
recalled for it) and, when it can, reflects on a wrong answer to write a principle.

- `ScriptedDoctor`: a fixed keyword baseline, written for bedside; no model, no memory.
- `NearestDoctor`: the offline learner. It answers from memory alone: the options of the
  recalled records and principles vote, each with its similarity; with nothing recalled it
  guesses (an option drawn from the case id and the task, so the guess is reproducible).
  Its reflection is mechanical: the principle names the case's words and the right answer.
- `ModelDoctor`: a model through `core.llm` with the prompts of
  `core.prompts.agenthospital_texts`; recalled records and principles go into the prompt.
- `HumanDoctor`: a physician; each question goes to the app (`HumanInput`), which answers
  with the option chosen.

A doctor returns a `core.agents.base.Reply` (its text, usage, raw request); the caller
reads the option out of it (`core.agenthospital.tasks.pick`).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from core.agenthospital.memory import Recalled
from core.agenthospital.retrieval import tokens
from core.agenthospital.tasks import Question
from core.agents.base import DeltaFn, Reply
from core.config import AgentSpec
from core.errors import BedsideError
from core.llm import LLMClient
from core.prompts import AH_MEMORY, AH_REFLECT, AH_TASKS
from core.prompts.agenthospital_texts import INSTRUCTIONS

HumanInput = Callable[..., Awaitable[Any]]
#: How close (retrieval similarity, 1 = the question itself) a recalled item must be for
#: the nearest-record doctor to follow it; below, it guesses, which is how it meets the
#: answers it has not been right about yet.
CLOSE = 0.3
_PRINCIPLE = re.compile(r"principle\s*[:：]\s*(.+)", re.IGNORECASE | re.DOTALL)


class TaskDoctor(Protocol):
    """Takes the three tasks."""

    label: str

    async def answer(self, question: Question, recalled: Recalled, on_delta: DeltaFn) -> Reply:
        """The answer to one task (the option somewhere in the reply's text)."""
        ...

    async def reflect(self, question: Question, wrong: str, right: str, recalled: Recalled,
                      on_delta: DeltaFn) -> Reply | None:
        """A principle drawn from a wrong answer (its text), or None if this doctor cannot
        reflect."""
        ...


def principle_text(reply_text: str) -> str | None:
    """The principle in a reflection's reply (the `PRINCIPLE:` line, else the whole text),
    or None when there is none."""
    found = _PRINCIPLE.search(reply_text or "")
    text = (found.group(1) if found else reply_text or "").strip().strip("*").strip()
    return " ".join(text.split())[:600] or None


# -- the scripted baseline ------------------------------------------------------------------

# (words any of which must appear, the answer); first match wins. Written for bedside.
_EXAM_RULES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("smell", "taste", "coronavirus"), "SARS-CoV-2 PCR"),
    (("sweat", "hostel", "south asia"), "Sputum acid-fast smear and Xpert MTB/RIF"),
    (("stone", "pack a day", "asbestos", "hoarse"), "Chest CT"),
    (("vaccinations", "suddenly", "all at once", "half of my family"), "Influenza A/B PCR"),
    (("preventer", "hay fever", "since i was a child", "cat"), "Peak expiratory flow"),
    (("green", "yellow", "rusty", "stabs", "rigor"), "Chest X-ray"),
)
_DIAGNOSIS_CUES: tuple[tuple[str, str], ...] = (
    ("sars-cov-2 rna detected", "COVID-19"), ("smell", "COVID-19"), ("taste", "COVID-19"),
    ("influenza a rna detected", "Influenza"), ("vaccinations", "Influenza"),
    ("acid-fast bacilli seen", "Pulmonary tuberculosis"),
    ("tuberculosis detected", "Pulmonary tuberculosis"), ("sweat", "Pulmonary tuberculosis"),
    ("carcinoma", "Non-small cell lung cancer"), ("mass", "Non-small cell lung cancer"),
    ("stone", "Non-small cell lung cancer"), ("consolidation", "Community-acquired pneumonia"),
    ("rusty", "Community-acquired pneumonia"), ("emphysema", "COPD exacerbation"),
    ("forty years", "COPD exacerbation"), ("blue inhaler", "COPD exacerbation"),
    ("preventer", "Asthma exacerbation"), ("since i was a child", "Asthma exacerbation"),
    ("peak flow", "Asthma exacerbation"),
)
_SEVERE = ("at rest", "sitting", "confus", "muddled", "few words", "a few words", "metasta",
           "cupful", "drowsy", "dozing")


def _scripted_answer(q: Question) -> str:
    text = q.context().casefold()
    if q.task == "examination":
        return next((a for words, a in _EXAM_RULES if any(w in text for w in words)),
                    "Chest X-ray")
    if q.task == "diagnosis":
        votes: dict[str, int] = {}
        for cue, disease in _DIAGNOSIS_CUES:
            if cue in text:
                votes[disease] = votes.get(disease, 0) + 1
        return max(votes, key=lambda d: votes[d]) if votes else "Acute bronchitis"
    spo2 = re.search(r"spo2 (\d+)%", text)
    if any(w in text for w in _SEVERE) or (spo2 and int(spo2.group(1)) < 92):
        return "severe"
    return "mild" if spo2 and int(spo2.group(1)) >= 96 else "moderate"


class ScriptedDoctor:
    """A fixed keyword baseline (see the module docstring)."""

    label = "scripted"

    async def answer(self, question: Question, recalled: Recalled, on_delta: DeltaFn) -> Reply:
        """The rule's answer."""
        return Reply(text=f"ANSWER: {_scripted_answer(question)}", model="scripted")

    async def reflect(self, question: Question, wrong: str, right: str, recalled: Recalled,
                      on_delta: DeltaFn) -> Reply | None:
        """The baseline does not learn."""
        return None


# -- the offline learner --------------------------------------------------------------------

def guess(question: Question) -> str:
    """A reproducible guess: an option drawn from the case id and the task."""
    seed = zlib.crc32(f"{question.encounter.case_id}:{question.task}".encode())
    return question.options[seed % len(question.options)]


def vote(question: Question, recalled: Recalled, close: float = 0.0) -> str | None:
    """The option the recalled items at least `close` to the question favour (similarity-
    weighted), ties to the earlier option; None when none of them names an option."""
    weights: dict[str, float] = {}
    for record, score in recalled.records:
        if score >= close:
            weights[record.answer] = weights.get(record.answer, 0.0) + score
    for principle, score in recalled.principles:
        if principle.answer is not None and score >= close:
            weights[principle.answer] = weights.get(principle.answer, 0.0) + score
    ranked = [o for o in question.options if weights.get(o, 0) > 0]
    return max(ranked, key=lambda o: weights[o]) if ranked else None


class NearestDoctor:
    """The offline learner (see the module docstring)."""

    label = "nearest"

    def __init__(self, close: float = CLOSE) -> None:
        self.close = close

    async def answer(self, question: Question, recalled: Recalled, on_delta: DeltaFn) -> Reply:
        """The vote of what memory recalled close enough, else a guess."""
        chosen = vote(question, recalled, self.close)
        how = "memory" if chosen is not None else "guess"
        return Reply(text=f"ANSWER: {chosen or guess(question)}", model="nearest",
                     meta={"answered_from": how})

    async def reflect(self, question: Question, wrong: str, right: str, recalled: Recalled,
                      on_delta: DeltaFn) -> Reply | None:
        """A principle naming the case's words and the right answer (for an examination,
        the first of those suitable)."""
        answer = right.removeprefix("any of: ").split("; ")[0]
        words = list(dict.fromkeys(tokens(question.context())))
        text = (f"PRINCIPLE: {question.task}: with {' '.join(words)}, answer {answer}, "
                f"not {wrong}.")
        return Reply(text=text, model="nearest", meta={"answer": answer})


# -- a model --------------------------------------------------------------------------------

def memory_text(recalled: Recalled) -> str:
    """The recalled records and principles as the prompt shows them ('' when none)."""
    parts = []
    if recalled.records:
        records = "\n".join(f"{i}. {r.render()}" for i, (r, _) in
                            enumerate(recalled.records, 1))
        parts.append(AH_MEMORY[0].format(records=records))
    if recalled.principles:
        principles = "\n".join(f"- {p.render()}" for p, _ in recalled.principles)
        parts.append(AH_MEMORY[1].format(principles=principles))
    return "\n" + "\n".join(parts) if parts else ""


def task_messages(question: Question, recalled: Recalled) -> list[dict[str, str]]:
    """The one user message of a task."""
    text = AH_TASKS[question.task].format(context=question.context(),
                                          memory=memory_text(recalled),
                                          options=question.option_lines())
    return [{"role": "user", "content": text}]


def reflect_messages(question: Question, wrong: str, right: str) -> list[dict[str, str]]:
    """The one user message of a reflection."""
    text = AH_REFLECT.format(context=question.context(), instruction=INSTRUCTIONS[
        question.task], wrong=wrong, right=right)
    return [{"role": "user", "content": text}]


class ModelDoctor:
    """A model takes the tasks (see the module docstring)."""

    def __init__(self, spec: AgentSpec, llm: LLMClient) -> None:
        if spec.kind != "llm":
            raise BedsideError(f"'{spec.kind}' is not a model")
        self.spec, self.llm, self.label = spec, llm, spec.display()

    async def answer(self, question: Question, recalled: Recalled, on_delta: DeltaFn) -> Reply:
        """One model call with the task prompt."""
        reply = await self.llm.complete(self.spec, task_messages(question, recalled), on_delta)
        prompt = AH_TASKS[question.task]
        reply.meta.update(prompt_id=prompt.id, prompt_hash=prompt.sha256)
        return reply

    async def reflect(self, question: Question, wrong: str, right: str, recalled: Recalled,
                      on_delta: DeltaFn) -> Reply | None:
        """One model call with the reflection prompt."""
        reply = await self.llm.complete(self.spec, reflect_messages(question, wrong, right),
                                        on_delta)
        reply.meta.update(prompt_id=AH_REFLECT.id, prompt_hash=AH_REFLECT.sha256)
        return reply


# -- a physician ----------------------------------------------------------------------------

class HumanDoctor:
    """A physician at the keyboard: `next_answer(question)` returns the option chosen
    (text, or anything with a `choice` attribute)."""

    def __init__(self, next_answer: HumanInput, label: str = "human") -> None:
        self.next_answer, self.label = next_answer, label

    async def answer(self, question: Question, recalled: Recalled, on_delta: DeltaFn) -> Reply:
        """Wait for the physician's choice."""
        got = await self.next_answer(question)
        choice = getattr(got, "choice", got)
        if not isinstance(choice, str):
            raise BedsideError("the user interface returned no choice")
        return Reply(text=f"ANSWER: {choice}", model=self.label)

    async def reflect(self, question: Question, wrong: str, right: str, recalled: Recalled,
                      on_delta: DeltaFn) -> Reply | None:
        """A physician's own learning is not recorded."""
        return None

