"""Solver registry: name → solver class. A new doctor strategy is one module and one line
in `SOLVERS`.

A consultation's solver comes from its configuration (`ConsultationConfig.solver`, with
`solver_options`), so it is recorded with the run and a resumed run plays it again. A
batch job's mode picks between playing the configuration as given ('interactive') and its
upper bound ('one_step': the same configuration's model doctor, given the whole case).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.config import ConsultationConfig
from core.errors import InputError
from core.solvers.base import Solver
from core.solvers.collaborate import COLLABORATE, CollaborateSolver
from core.solvers.interactive import INTERACTIVE, InteractiveSolver
from core.solvers.one_step import ONE_STEP, OneStepSolver


@dataclass(frozen=True)
class SolverEntry:
    """One registered doctor strategy."""

    name: str
    summary: str  # one line for help texts
    make: Callable[[dict[str, Any]], Solver]  # options (validated by the solver) → solver


SOLVERS: dict[str, SolverEntry] = {e.name: e for e in (
    SolverEntry(INTERACTIVE, "the doctor asks, orders tests and diagnoses (AgentClinic)",
                InteractiveSolver),
    SolverEntry(ONE_STEP, "the whole case at once, answered in one turn (the upper bound)",
                OneStepSolver),
    SolverEntry(COLLABORATE, "several doctors, each after its own consultation, revise "
                "their reports round by round under a host (AI Hospital)", CollaborateSolver),
)}


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
