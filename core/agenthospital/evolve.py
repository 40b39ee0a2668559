"""The evolution experiment: a doctor learns over a training stream and is tested on a
separate test set every K cases, once per arm of the ablation (Agent Hospital's learning
curves and ablation).

For each arm a fresh `Learner` (or one started from a frozen library) treats the training
patients one after another, learning from each (`Learner.treat(learn=True)`). At every
checkpoint — before training (seen 0), every `test_every` cases, and at the end — it
answers the whole test set with what it knows then, learning nothing, and one `Point` per
task is made: cumulative training accuracy so far (None at seen 0), test accuracy, how
many principles the experience base keeps, how many records the library keeps, and how
many training answers were wrong so far. `on_checkpoint` receives the points and the
memory items added since the previous checkpoint, so the caller can store both at once
(the library at a step is every item added at or before it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field

from core.agenthospital.learner import Learner
from core.agenthospital.memory import Arm, Item
from core.agenthospital.tasks import TASKS, Encounter, Key, Task
from core.records.agenthospital import Point

Patients = Sequence[tuple[Encounter, Key]]


Checkpoint = Callable[[list[Point], list[Item]], Awaitable[None] | None]


@dataclass
class _Tally:
    right: dict[Task, int] = field(default_factory=lambda: {t: 0 for t in TASKS})
    seen: int = 0


def checkpoints(train: int, every: int) -> list[int]:
    """0, every, 2·every, …, and train itself."""
    marks = list(range(0, train + 1, every)) if every > 0 else [0]
    return marks if marks[-1] == train else [*marks, train]


async def test_accuracy(learner: Learner, patients: Patients,
                        concurrency: int = 1) -> dict[Task, float | None]:
    """Each task's share of right answers on `patients`, learning nothing."""
    if not patients:
        return {t: None for t in TASKS}
    right = {t: 0 for t in TASKS}
    gate = asyncio.Semaphore(max(1, concurrency))

    async def one(enc: Encounter, key: Key) -> None:
        async with gate:
            outcome = await learner.treat(enc, key)
        for t in TASKS:
            right[t] += bool(outcome.verdicts and outcome.verdicts[t])

    if concurrency <= 1:
        for enc, key in patients:
            await one(enc, key)
            await asyncio.sleep(0)  # as in the training loop
    else:
        await asyncio.gather(*(one(e, k) for e, k in patients))
    return {t: right[t] / len(patients) for t in TASKS}


def _points(arm: Arm, tally: _Tally, learner: Learner, tested: dict[Task, float | None],
            test_n: int) -> list[Point]:
    out = []
    for t in TASKS:
        records, principles = learner.memory.counts(t)
        seen = tally.seen
        out.append(Point(arm=arm, task=t, seen=seen,
                         train_accuracy=tally.right[t] / seen if seen else None,
                         test_accuracy=tested[t], principles=principles, records=records,
                         wrong=seen - tally.right[t], test_n=test_n))
    return out


async def evolve_arm(arm: Arm, learner: Learner, train: Iterable[tuple[Encounter, Key]],
                     test: Patients, *, train_n: int, test_every: int,
                     on_checkpoint: Checkpoint | None = None, concurrency: int = 1,
                     start: int = 0, right: dict[Task, int] | None = None) -> list[Point]:
    """One arm's curve (see the module docstring). `start` and `right` resume after a
    checkpoint: the patients already seen and how many of each task were right."""
    tally = _Tally(right=dict(right or {t: 0 for t in TASKS}), seen=start)
    marks = [m for m in checkpoints(train_n, test_every) if m >= start]
    out: list[Point] = []

    async def checkpoint() -> None:
        tested = await test_accuracy(learner, test, concurrency)
        points = _points(arm, tally, learner, tested, len(test))
        out.extend(points)
        if on_checkpoint is not None:
            done = on_checkpoint(points, learner.memory.take_added())
            if done is not None:
                await done

    if marks and marks[0] == start:
        await checkpoint()
    for enc, key in train:
        if tally.seen >= train_n:
            break
        # The offline doctor never waits: give the loop its turn (a Ctrl+C reaches the
        # run through it) once a patient.
        await asyncio.sleep(0)
        tally.seen += 1
        outcome = await learner.treat(enc, key, learn=True, step=tally.seen)
        for t in TASKS:
            tally.right[t] += bool(outcome.verdicts and outcome.verdicts[t])
        if tally.seen in marks:
            await checkpoint()
    return out
