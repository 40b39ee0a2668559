"""The case library a user sees: the bundled cases, then the cases stored in the project
(imported ones), one per id, by id. The bundled files win over a stored copy of the same
id: they are the current version.

Generated cases (the Agent Hospital patients, thousands of them) are left out unless
asked for (`generated=True`), and are never even read from the store otherwise."""

from __future__ import annotations

from collections.abc import Iterable

from core.case import Case
from core.ports.runs import CaseStore

#: Sources of generated cases (`core.agenthospital.generator.SOURCE`).
GENERATED_SOURCES = ("agenthospital",)


def library(store: CaseStore | None, bundled: Iterable[Case], *,
            generated: bool = False) -> list[Case]:
    """Bundled cases, then stored ones whose id is not bundled, sorted by id (`store` None:
    the bundled cases alone, e.g. when no project database exists yet); generated cases
    only with `generated`."""
    cases = {c.id: c for c in bundled}
    stored = store.list_cases(exclude=() if generated else GENERATED_SOURCES) \
        if store is not None else []
    for case in stored:
        cases.setdefault(case.id, case)
    return sorted(cases.values(), key=lambda c: c.id)
