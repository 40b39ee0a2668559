"""Solver registry: name → solver class. A new doctor strategy is one module and one line
in `SOLVERS`.

A consultation's solver comes from its configuration (`ConsultationConfig.solver`, with
`solver_options`), so it is recorded with the run and a resumed run plays it again. A
batch job's mode picks between playing the configuration as given ('interactive') and its
upper bound ('one_step': the same configuration's model doctor, given the whole case).

Tasks: an entry names the task it plays (`task`), what a run's `task` factor chooses
(`bedside run --task NAME`). The entry named like its task is the task's own solver; other
entries of the same task are strategies for it (MedAgent-Zero for 'agenthospital'). A new
task is one line here, e.g. `SolverEntry("rjua-qa", "…", _lazy("core.solvers.rjua_qa",
"RjuaQaSolver"), task="rjua-qa")`.

Entries import their module when a solver is made, not with this module, so the command
line (which lists tasks in its help) does not load every agent to build its parser.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.collaboration import COLLABORATE
from core.config import ConsultationConfig
from core.errors import InputError
from core.solvers.base import Solver

INTERACTIVE, ONE_STEP = "interactive", "one_step"
AGENTHOSPITAL, MEDAGENT_ZERO = "agenthospital", "medagent_zero"
TOOLS_SOLVER = "tools"  # core.solvers.tools: the interactive consultation with doctor tools


@dataclass(frozen=True)
class SolverEntry:
    """One registered doctor strategy."""

    name: str
    summary: str  # one line for help texts
    make: Callable[[dict[str, Any]], Solver]  # options (validated by the solver) → solver
    task: str | None = None  # the task it plays (None: a mode, such as the one-step bound)
    doctors: tuple[str, ...] = ()  # the doctor kinds that can play it (empty: any)


def _lazy(module: str, cls: str) -> Callable[[dict[str, Any]], Solver]:
    def make(options: dict[str, Any]) -> Solver:
        solver: Solver = getattr(importlib.import_module(module), cls)(options)
        return solver
    return make


SOLVERS: dict[str, SolverEntry] = {e.name: e for e in (
    SolverEntry(INTERACTIVE, "the doctor asks, orders tests and diagnoses (AgentClinic)",
                _lazy("core.solvers.interactive", "InteractiveSolver"), task=INTERACTIVE),
    SolverEntry(ONE_STEP, "the whole case at once, answered in one turn (the upper bound)",
                _lazy("core.solvers.one_step", "OneStepSolver")),
    SolverEntry(TOOLS_SOLVER, "the interactive consultation with doctor tools (chain of "
                "thought, reflection, notebook, searches)",
                _lazy("core.solvers.tools", "make_tool_solver"), task=INTERACTIVE),
    SolverEntry(COLLABORATE, "several doctors, each after its own consultation, revise "
                "their reports round by round under a host (AI Hospital)",
                _lazy("core.solvers.collaborate", "CollaborateSolver"), task=INTERACTIVE),
    SolverEntry(AGENTHOSPITAL, "Agent Hospital's three chained tasks: examination, diagnosis, "
                "treatment level", _lazy("core.solvers.agenthospital", "AgentHospitalSolver"),
                task=AGENTHOSPITAL),
    SolverEntry(MEDAGENT_ZERO, "Agent Hospital's tasks by a doctor that learns over the run "
                "(MedAgent-Zero: record library and experience base)",
                _lazy("core.solvers.agenthospital", "MedAgentZeroSolver"), task=AGENTHOSPITAL),
    SolverEntry("rjua-reasoning", "RJUA's diagnostic reasoning: from the patient's first "
                "words, the tests to order", _lazy("core.solvers.rjua", "RjuaReasoningSolver"),
                task="rjua-reasoning", doctors=("llm", "scripted")),
    SolverEntry("rjua-qa", "RJUA's single-turn QA: the whole record, then the diagnosis and "
                "treatment", _lazy("core.solvers.rjua", "RjuaQaSolver"), task="rjua-qa",
                doctors=("llm", "scripted")),
)}


def task_names() -> list[str]:
    """The tasks a run can play, in registry order."""
    return [e.name for e in SOLVERS.values() if e.task == e.name]


def task_of(solver: str | None) -> str:
    """The task a solver plays ('interactive' for an unknown or missing one)."""
    entry = SOLVERS.get(solver or INTERACTIVE)
    return entry.task if entry is not None and entry.task else INTERACTIVE


def make_solver(name: str, options: dict[str, Any] | None = None) -> Solver:
    """The solver registered as `name`; InputError naming the known ones if there is none
    (or if its options are wrong)."""
    entry = SOLVERS.get(name)
    if entry is None:
        raise InputError(f"unknown solver '{name}' (known: {', '.join(sorted(SOLVERS))})",
                         field="solver")
    return entry.make(dict(options or {}))


def solver_for(config: ConsultationConfig, mode: str = INTERACTIVE) -> Solver:
    """The solver of a job: the configuration's own (mode 'interactive') or the upper
    bound of the configuration (mode 'one_step')."""
    if mode == ONE_STEP:
        return make_solver(ONE_STEP)
    return make_solver(config.solver, config.solver_options)
