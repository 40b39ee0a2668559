"""One patient through the three chained tasks, and MedAgent-Zero's learning from it.

`treat` asks the doctor the examination question, has the examination reported (by the
`Stage`: the consultation's examiner in a recorded consultation, the encounter's own
finding in a training stream), then the diagnosis question with that finding, then the
treatment question for the diagnosis given. Before each question memory is searched
(top-k records and principles, as the arm allows) and what it recalls goes to the doctor.

Learning (given the key, i.e. the simulation's feedback, and an arm other than 'none'):
- a task answered right becomes a record of the library (arms 'records' and 'both');
- a task answered wrong makes the doctor reflect on the case, its answer and the right
  answer and write a principle; the doctor then answers the same task again with the
  principle added to what memory recalled, and the principle is kept in the experience
  base only if that retry is right (arms 'experience' and 'both'). A wrong treatment level
  that follows a wrong diagnosis is not reflected on: the level was asked about another
  disease.
The first answer is the one graded; the retry only decides the principle.
"""

from __future__ import annotations

import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.agenthospital.doctors import TaskDoctor, principle_text
from core.agenthospital.kb import KnowledgeBase
from core.agenthospital.memory import Arm, Item, Memory, Principle, Recalled, Record
from core.agenthospital.tasks import (TASKS, Answers, Encounter, Key, Question, Task, correct,
                                      diagnosis_question, examination_question, pick,
                                      right_in_words, treatment_question)
from core.agents.base import DeltaFn, Reply, no_delta

Call = Callable[[DeltaFn], Awaitable[Reply]]


class Stage(Protocol):
    """Where the tasks are played: a recorded consultation, or nowhere (a stream)."""

    async def doctor(self, kind: str, q: Question, call: Call, meta: dict[str, Any]) -> Reply:
        """Make one doctor call ('answer', 'reflection' or 'retry') about question `q`."""
        ...

    async def examine(self, examination: str) -> str:
        """The finding of the chosen examination, as the examiner reports it."""
        ...

    async def learned(self, learned: Learned) -> None:
        """What one task taught (after its answer, reflection and retry)."""
        ...


class Silent:
    """The stage of a training stream: calls made as they are, findings from the
    encounter."""

    def __init__(self, encounter: Encounter) -> None:
        self.encounter = encounter

    async def doctor(self, kind: str, q: Question, call: Call, meta: dict[str, Any]) -> Reply:
        """The call, unrecorded."""
        return await call(no_delta)

    async def examine(self, examination: str) -> str:
        """The encounter's finding."""
        return self.encounter.findings.get(examination, "no such examination")

    async def learned(self, learned: Learned) -> None:
        """Nothing to record."""


@dataclass
class Learned:
    """What one task taught (for the record and the counts)."""

    task: Task
    record: bool = False
    principle: str | None = None  # the principle written, kept or not
    kept: bool | None = None  # None: no reflection
    items: list[Item] = field(default_factory=list)  # what memory kept from it


@dataclass
class Outcome:
    """One patient's answers, their verdicts (with a key) and what was learned."""

    answers: Answers
    verdicts: dict[Task, bool] | None = None
    learned: list[Learned] = field(default_factory=list)
    recalled: dict[Task, tuple[int, int]] = field(default_factory=dict)  # (records, principles)


class Learner:
    """A doctor with a memory and an arm of the ablation."""

    def __init__(self, kb: KnowledgeBase, doctor: TaskDoctor, memory: Memory | None = None,
                 *, arm: Arm = "none", k: int = 3, explore: float = 0.0) -> None:
        self.kb, self.doctor, self.arm, self.k = kb, doctor, arm, k
        self.explore = explore
        self.memory = memory if memory is not None else Memory()
        self.seen = 0  # patients learned from (the step of what they teach)

    def question(self, task: Task, enc: Encounter, answers: Answers,
                 finding: str | None) -> Question:
        """The question of a task, given the answers so far."""
        if task == "examination":
            return examination_question(self.kb, enc)
        exam = answers.examination or "no examination"
        if task == "diagnosis":
            return diagnosis_question(self.kb, enc, exam, finding or "")
        return treatment_question(self.kb, enc, exam, finding or "",
                                  answers.diagnosis or "no diagnosis")

    async def recall(self, q: Question, learn: bool = False) -> Recalled:
        """What memory gives for a question under this arm (nothing when exploring)."""
        if self.arm == "none" or (learn and self.explores(q)):
            return Recalled()
        return await self.memory.recall(q.task, q.context(), self.k, self.arm)

    def explores(self, q: Question) -> bool:
        """Whether this training question is answered without memory (a reproducible draw
        with probability `explore`): a learner that only ever repeats what memory says
        never meets the answers it has not yet been right about."""
        draw = zlib.crc32(f"explore:{q.encounter.case_id}:{q.task}".encode()) / 2**32
        return draw < self.explore

    async def treat(self, enc: Encounter, key: Key | None = None, *, learn: bool = False,
                    step: int | None = None, stage: Stage | None = None) -> Outcome:
        """The three tasks for one patient (see the module docstring); what it teaches is
        kept at `step` (default: the count of patients learned from, this one included)."""
        stage = stage or Silent(enc)
        if learn and key is not None:
            self.seen += 1
            step = self.seen if step is None else step
        step = step or 0
        out = Outcome(answers=Answers())
        finding: str | None = None
        for task in TASKS:
            q = self.question(task, enc, out.answers, finding)
            recalled = await self.recall(q, learn and key is not None)
            out.recalled[task] = (len(recalled.records), len(recalled.principles))
            meta = {"task": task, "step": "answer", "recalled_records": len(recalled.records),
                    "recalled_principles": len(recalled.principles)}
            reply = await stage.doctor("answer", q, self._asker(q, recalled), meta)
            setattr(out.answers, task, pick(reply.text, q.options))
            if task == "examination":
                finding = await stage.examine(out.answers.examination or "no examination")
            if key is not None and learn and self.arm != "none":
                learned = await self._learn(q, recalled, out.answers, key, step, stage)
                out.learned.append(learned)
                await stage.learned(learned)
        if key is not None:
            out.verdicts = {t: correct(t, out.answers, key) for t in TASKS}
        return out

    def _asker(self, q: Question, recalled: Recalled) -> Call:
        """The doctor's answer to `q` as a call the stage makes."""
        def call(on_delta: DeltaFn) -> Awaitable[Reply]:
            return self.doctor.answer(q, recalled, on_delta)
        return call

    async def _learn(self, q: Question, recalled: Recalled, answers: Answers, key: Key,
                     step: int, stage: Stage) -> Learned:
        task = q.task
        given = answers.get(task)
        learned = Learned(task)
        if correct(task, answers, key):
            if self.arm in ("records", "both") and given is not None:
                record = Record(task, q.encounter.case_id, q.context(), given, step)
                await self.memory.add(record)
                learned.record = True
                learned.items.append(record)
            return learned
        if self.arm not in ("experience", "both") or \
                (task == "treatment" and answers.diagnosis != key.disease):
            return learned
        wrong = given or "no answer"
        reply = await stage.doctor(
            "reflection", q, lambda d: self._reflect(q, wrong, key, recalled, d),
            {"task": task, "step": "reflection", "wrong": wrong,
             "right": right_in_words(task, key)})
        text = principle_text(reply.text) if reply.text else None
        if text is None:
            return learned
        learned.principle = text
        candidate = Principle(task, q.encounter.case_id, text, wrong=wrong,
                              right=right_in_words(task, key), context=q.context(),
                              answer=reply.meta.get("answer"), step=step,
                              meta={k: v for k, v in (("model", reply.model),
                                                      ("prompt_hash",
                                                       reply.meta.get("prompt_hash")))
                                    if v})
        best = max([s for _, s in [*recalled.records, *recalled.principles]], default=1.0)
        trial = Recalled(records=list(recalled.records),
                         principles=[(candidate, best), *recalled.principles][: self.k + 1])
        retry = await stage.doctor("retry", q, self._asker(q, trial),
                                   {"task": task, "step": "retry", "principle": text})
        again = Answers(**{t: answers.get(t) for t in TASKS})
        setattr(again, task, pick(retry.text, q.options))
        learned.kept = correct(task, again, key)
        if learned.kept:
            await self.memory.add(candidate)
            learned.items.append(candidate)
        return learned

    async def _reflect(self, q: Question, wrong: str, key: Key, recalled: Recalled,
                       on_delta: DeltaFn) -> Reply:
        reply = await self.doctor.reflect(q, wrong, right_in_words(q.task, key), recalled,
                                          on_delta)
        return reply if reply is not None else Reply(text="")
