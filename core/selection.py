"""Selecting cases for a run: `--cases` filters and `--limit`.

A filter is a comma-separated list of terms; a case is kept when every *kind* of term
given matches it (terms of the same kind are alternatives). A term matches a case id
(shell-style wildcards allowed), a source, a specialty or a language tag, so
`--cases cardiology,neurology,es` means (cardiology or neurology) and Spanish.

Must not import: textual, rich, litellm, or any other bedside package.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from core.case import Case
from core.errors import InputError

FIELDS = ("id", "source", "specialty", "language")


def _kind_of(term: str, cases: list[Case]) -> str:
    low = term.lower()
    for field in ("source", "specialty", "language"):
        if any(getattr(c, field).lower() == low for c in cases):
            return field
    if any(fnmatchcase(c.id.lower(), low) for c in cases):
        return "id"
    raise InputError(f"'{term}' matches no case id, source, specialty or language",
                     field="--cases")


def select_cases(cases: list[Case], spec: str | None = None, limit: int | None = None) -> list[Case]:
    """Filter cases by a `--cases` spec, keep their order, then apply `limit`."""
    if limit is not None and limit < 1:
        raise InputError("must be at least 1", field="--limit")
    chosen = list(cases)
    if spec:
        terms = [t.strip() for t in spec.split(",") if t.strip()]
        by_kind: dict[str, list[str]] = {}
        for term in terms:
            by_kind.setdefault(_kind_of(term, cases), []).append(term.lower())
        chosen = [c for c in cases if all(_matches(c, kind, ts) for kind, ts in by_kind.items())]
        if not chosen:
            raise InputError(f"no case matches all of {terms}", field="--cases")
    return chosen[:limit] if limit else chosen


def _matches(case: Case, kind: str, terms: list[str]) -> bool:
    if kind == "id":
        return any(fnmatchcase(case.id.lower(), t) for t in terms)
    return getattr(case, kind).lower() in terms
