"""The store protocol of the Agent Hospital evolution experiments (`db` implements it)."""

from __future__ import annotations

from typing import Any, Protocol

from core.records.agenthospital import Evolution, Library, Point


class EvolutionStore(Protocol):
    """Evolutions, their curves and memory, and frozen libraries."""

    def create_evolution(self, *, name: str | None, config: dict[str, Any]) -> str:
        """Record a new evolution (status 'running'); its id."""
        ...

    def set_evolution_status(self, evolution_id: str, status: str) -> None:
        """running / finished / interrupted / failed."""
        ...

    def get_evolution(self, ref: str) -> Evolution:
        """An evolution by id or name (the newest of that name); NotFoundError."""
        ...

    def list_evolutions(self) -> list[Evolution]:
        """Every evolution, newest first."""
        ...

    def save_checkpoint(self, evolution_id: str, arm: str, points: list[Point],
                        items: list[dict[str, Any]]) -> None:
        """One checkpoint of one arm, in one transaction: its points and the memory items
        added since the previous one (each with its step)."""
        ...

    def evolution_points(self, evolution_id: str) -> list[Point]:
        """Every point, by arm, task and seen."""
        ...

    def memory_items(self, evolution_id: str, arm: str,
                     step: int | None = None) -> list[dict[str, Any]]:
        """An arm's memory items in the order they were added, up to `step` (all: None)."""
        ...

    def freeze_library(self, name: str, evolution_id: str, arm: str, step: int) -> Library:
        """Name an arm's memory at a step; InputError if the name is taken."""
        ...

    def get_library(self, name: str) -> Library:
        """A frozen library by name; NotFoundError."""
        ...

    def list_libraries(self) -> list[Library]:
        """Every frozen library, newest first."""
        ...
