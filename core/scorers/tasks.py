"""Per-task verdicts of the Agent Hospital tasks, as a scorer: one value per task (1 right,
0 wrong, None when the consultation did not reach that task) and the seconds the doctor
took on it (a physician's form time; None when not recorded).

Read from the doctor's answer turns (each one's meta names its `task`, the option read
from it, `answer`, and the `seconds` it took; `core.solvers.agenthospital`) and the case's
right answers
(`core.agenthospital.tasks.key_of`): the examination is right if it is suitable for this
patient, the diagnosis if it is the disease, the treatment level only with the right
diagnosis. A case that is not a generated Agent Hospital case gives every value as None.
"""

from __future__ import annotations

from core.agenthospital.tasks import TASKS, Answers, correct, key_of
from core.case import Case
from core.metrics.base import undefined
from core.scorers.base import Finished, Scores, TaskRow

TASK_METRICS = tuple(f"task_{t}" for t in TASKS)
SECONDS_METRICS = tuple(f"task_{t}_seconds" for t in TASKS)
TASK_NAMES = (*TASK_METRICS, *SECONDS_METRICS)


class AgentHospitalTasks:
    """The three tasks' verdicts and times."""

    name = "agenthospital_tasks"
    names: tuple[str, ...] = TASK_NAMES
    title = "Agent Hospital tasks"
    legend = ("task: examination (right when suitable for the patient), diagnosis (one of "
              "eight), treatment (the level, right only with the right diagnosis); n: "
              "finished consultations; not_reached: the doctor gave no answer to the task "
              "(counted wrong); seconds: mean time on the task where recorded")
    rows = tuple(TaskRow(t, f"task_{t}") for t in TASKS)

    def key(self, case: Case) -> str | None:
        """None: the values depend on the case content only."""
        return None

    def compute(self, case: Case, done: Finished) -> Scores:
        """The values (no model call)."""
        key = key_of(case)
        if key is None:
            return {n: undefined("not a generated Agent Hospital case") for n in self.names}
        given: dict[str, str | None] = {}
        seconds: dict[str, float] = {}
        for turn in done.transcript.turns:
            meta = turn.meta or {}
            task = meta.get("task")
            if meta.get("step") != "answer" or task not in TASKS:
                continue
            answer = meta.get("answer")
            given[task] = answer if isinstance(answer, str) else None
            if isinstance(meta.get("seconds"), int | float):
                seconds[task] = float(meta["seconds"])
        answers = Answers(**{t: given.get(t) for t in TASKS})
        out: Scores = {}
        for t in TASKS:
            if t not in given:
                out[f"task_{t}"] = undefined("the task was not reached")
            else:
                out[f"task_{t}"] = (1.0 if correct(t, answers, key) else 0.0,
                                    {"answer": given[t], "right": _right(t, key)})
            out[f"task_{t}_seconds"] = (seconds[t], {}) if t in seconds \
                else undefined("no time recorded")
        return out

    async def score(self, case: Case, done: Finished) -> Scores:
        """The values (`compute`)."""
        return self.compute(case, done)


def _right(task: str, key: object) -> str:
    from core.agenthospital.tasks import Key

    assert isinstance(key, Key)
    if task == "examination":
        return "; ".join(key.suitable)
    return key.disease if task == "diagnosis" else f"{key.disease}, {key.level}"
