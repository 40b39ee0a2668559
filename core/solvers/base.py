"""The Solver protocol: a doctor strategy over one consultation (inspect_ai's Solver idea).

A solver plays the doctor's side of a consultation through a `SolverContext` (the session:
the case's agents built from their views, the turn budget, turn recording, cancellation, the
model client and the run's shared memory) and returns a `Solution`: the diagnosis it
committed to, if any, and its report. The engine then lets the verdict scorers judge the
diagnosis and emits the finished event; a solver never knows how it will be scored.

Today's solvers: `interactive` (AgentClinic's consultation) and `one_step` (the upper
bound). A new doctor strategy is one module with a `BaseSolver` subclass and one line in
`core.solvers.registry`; what later strategies need is here already:
- extra turns of their own kinds (a tool call, a reflection, a host's critique) through
  `SolverContext.speak`/`add_turn`, numbered with the doctor turn they belong to, so they
  do not count as doctor turns (the count is `SolverContext.doctor_turns`);
- their own agents and model calls (`SolverContext.cast(doctor=spec)`, `llm`);
- memory that lasts across the consultations of a run (`RunState`, passed in by the batch),
  with `sequential` asking the batch to play a configuration's cases one after another, in
  case order (a notebook, a learning doctor);
- options recorded with the run (`ConsultationConfig.solver_options`, validated by the
  solver's own pydantic model).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from pydantic import BaseModel, ValidationError

from core.config import AgentSpec, ConsultationConfig
from core.errors import InputError
from core.solvers.solution import Solution

if TYPE_CHECKING:
    from core.solvers.context import SolverContext


class Solver(Protocol):
    """A doctor strategy. `BaseSolver` gives every member but `solve` a default."""

    @property
    def name(self) -> str:
        """Registry name, e.g. 'interactive'."""
        ...

    @property
    def origin(self) -> str:
        """Stored as the consultation's origin ('engine' for a configured one)."""
        ...

    @property
    def sequential(self) -> bool:
        """Whether a configuration's consultations in a run are played one after another,
        in case order (the solver learns from one case for the next)."""
        ...

    def key(self, config: ConsultationConfig) -> str:
        """The key stored as the consultation's config_key (a batch resumes on it)."""
        ...

    def describe(self, config: ConsultationConfig, described: dict[str, Any]) -> dict[str, Any]:
        """The stored description of the configuration, adjusted for this solver."""
        ...

    def judges(self, config: ConsultationConfig) -> list[AgentSpec]:
        """The moderators whose verdicts decide this solver's diagnosis."""
        ...

    async def solve(self, ctx: SolverContext) -> Solution:
        """Play the doctor's side of the consultation; record every turn through `ctx`."""
        ...


class BaseSolver:
    """Defaults for a solver played as its configuration says: the configuration's key,
    description and moderators. Subclasses set `name` and write `solve`; one with options
    sets `options_model` and reads `self.options`."""

    name: ClassVar[str] = "base"
    origin: ClassVar[str] = "engine"
    sequential: ClassVar[bool] = False
    options_model: ClassVar[type[BaseModel] | None] = None

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.options: BaseModel | None = None
        if self.options_model is not None:
            try:
                self.options = self.options_model.model_validate(options or {})
            except ValidationError as err:
                first = err.errors()[0]
                where = ".".join(str(x) for x in first.get("loc", ())) or "options"
                raise InputError(f"solver '{self.name}': {where}: {first.get('msg')}",
                                 field="solver_options") from None
        elif options:
            raise InputError(f"solver '{self.name}' takes no options (got "
                             f"{', '.join(sorted(options))})", field="solver_options")

    def key(self, config: ConsultationConfig) -> str:
        """The configuration's own key (it names the solver when not the default)."""
        return config.config_key()

    def describe(self, config: ConsultationConfig, described: dict[str, Any]) -> dict[str, Any]:
        """The configuration's description, unchanged."""
        return described

    def judges(self, config: ConsultationConfig) -> list[AgentSpec]:
        """The configuration's moderators."""
        return list(config.moderators)

    async def solve(self, ctx: SolverContext) -> Solution:
        """Subclasses play the consultation here."""
        raise NotImplementedError
