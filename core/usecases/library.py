"""The case library a user sees: the bundled cases, then the cases stored in the project
(imported ones), one per id, by id. The bundled files win over a stored copy of the same
id: they are the current version."""

from __future__ import annotations

from collections.abc import Iterable

from core.case import Case
from core.ports.runs import CaseStore


def library(store: CaseStore | None, bundled: Iterable[Case]) -> list[Case]:
    """Bundled cases, then stored ones whose id is not bundled, sorted by id (`store` None:
    the bundled cases alone, e.g. when no project database exists yet)."""
    cases = {c.id: c for c in bundled}
    for case in store.list_cases() if store is not None else []:
        cases.setdefault(case.id, case)
    return sorted(cases.values(), key=lambda c: c.id)
