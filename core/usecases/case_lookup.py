"""Finding a consultation's case: the store's (imported, generated, translated), else the
bundled library's, loaded once on demand. Scoring, fidelity and the task results look cases
up this way."""

from __future__ import annotations

from collections.abc import Callable

from core.case import Case
from core.errors import NotFoundError
from core.ports.runs import CaseStore

Finder = Callable[[str], Case | None]


def case_finder(store: CaseStore) -> Finder:
    """Look cases up in the store, then in the bundled library (loaded once, on demand)."""
    bundled: dict[str, Case] = {}

    def find(case_id: str) -> Case | None:
        try:
            return store.get_case(case_id)
        except NotFoundError:
            pass
        if not bundled:
            from core.caseio import load_bundled_cases

            bundled.update({c.id: c for c in load_bundled_cases()})
        return bundled.get(case_id)

    return find
