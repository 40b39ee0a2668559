"""Scorer registry: name → how to make the scorer. A new scorer is one module and one line
in `SCORERS`.

Kinds: 'verdict' (a moderator; the engine records its verdicts with the consultation),
'offline' (no model), 'model' (one model call per consultation: give it a model spec).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from core.config import AgentSpec
from core.errors import InputError
from core.llm import LLMClient
from core.scorers.base import Scorer, TaskScorer
from core.scorers.llm import PatientReported, ReportGrade
from core.scorers.offline import OfflineMetrics
from core.scorers.rjua import RjuaQa, RjuaReasoning
from core.scorers.tasks import AgentHospitalTasks
from core.scorers.verdict import VerdictScorer

ScorerKind = Literal["verdict", "offline", "model"]
Make = Callable[[AgentSpec | None, LLMClient | None], Scorer]


@dataclass(frozen=True)
class ScorerEntry:
    """One registered scorer."""

    name: str
    kind: ScorerKind
    summary: str  # one line for help texts
    make: Make  # (model spec or None, model client or None) → scorer


def _needs(spec: AgentSpec | None, name: str) -> AgentSpec:
    if spec is None:
        raise InputError(f"the scorer '{name}' needs a model", field="scorer")
    return spec


SCORERS: dict[str, ScorerEntry] = {e.name: e for e in (
    ScorerEntry("exact", "verdict", "the deterministic matcher's verdict of the diagnosis",
                lambda spec, llm: VerdictScorer(AgentSpec(kind="exact"))),
    ScorerEntry("moderator", "verdict", "a model's yes/no verdict of the diagnosis",
                lambda spec, llm: VerdictScorer(_needs(spec, "moderator"), llm)),
    ScorerEntry("offline", "offline", "accuracy, entity F1 and the clinical-pathway metrics",
                lambda spec, llm: OfflineMetrics()),
    ScorerEntry("report_score", "model", "a judge grades the five-part final report (0-100)",
                lambda spec, llm: ReportGrade.from_spec(_needs(spec, "report_score"), llm)),
    ScorerEntry("patient_reported", "model", "the patient rates the doctor 1-10 (three items)",
                lambda spec, llm: PatientReported.from_spec(_needs(spec, "patient_reported"),
                                                            llm)),
    ScorerEntry("agenthospital_tasks", "offline", "Agent Hospital: each task's verdict and "
                "the seconds it took", lambda spec, llm: AgentHospitalTasks()),
    ScorerEntry("rjua_reasoning", "offline", "RJUA diagnostic reasoning: precision and recall "
                "of the tests ordered", lambda spec, llm: RjuaReasoning()),
    ScorerEntry("rjua_qa", "offline", "RJUA single-turn QA: the diagnosis and the treatment "
                "covered", lambda spec, llm: RjuaQa()),
)}
#: The scorer of each task other than the interactive consultation (its verdicts per task,
#: stored with the offline metrics): a task's one line besides its solver's.
TASK_SCORERS: dict[str, Callable[[], TaskScorer]] = {
    "agenthospital": AgentHospitalTasks,
    "rjua-reasoning": RjuaReasoning,
    "rjua-qa": RjuaQa,
}


def task_metric_names() -> tuple[str, ...]:
    """Every value name the task scorers give (what the task rows read)."""
    return tuple(dict.fromkeys(n for make in TASK_SCORERS.values() for n in make().names))


def task_scorer(task: str) -> TaskScorer | None:
    """The offline scorer of a task's verdicts (None for the interactive consultation)."""
    make = TASK_SCORERS.get(task)
    return make() if make is not None else None


def make_scorer(name: str, spec: AgentSpec | None = None,
                llm: LLMClient | None = None) -> Scorer:
    """The scorer registered as `name` (with `spec`'s model if it calls one); InputError
    naming the known ones if there is none."""
    entry = SCORERS.get(name)
    if entry is None:
        raise InputError(f"unknown scorer '{name}' (known: {', '.join(sorted(SCORERS))})",
                         field="scorer")
    return entry.make(spec, llm)
