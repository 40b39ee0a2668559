"""Selecting cases for a run: `--cases` filters and `--limit`.

A filter is a comma-separated list of terms; a case is kept when every *kind* of term
given matches it (terms of the same kind are alternatives). A term matches a case id
(shell-style wildcards allowed), a source, a specialty or a language tag, so
`--cases cardiology,neurology,es` means (cardiology or neurology) and Spanish.

Placeholder cases (stand-ins for imported transcripts whose record was not imported) are
never selected: they have no real ground truth. A spec that matches nothing but
placeholders is an error that says so.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from core.case import Case
from core.errors import InputError

FIELDS = ("id", "source", "specialty", "language")
_PLACEHOLDER_NOTE = ("placeholder cases (stand-ins for imported transcripts whose case "
                     "record was not imported), which are never run")


def _kind_of(term: str, cases: list[Case]) -> str | None:
    """The kind of a term (source, specialty, language or id), or None if nothing matches."""
    low = term.lower()
    for field in ("source", "specialty", "language"):
        if any(getattr(c, field).lower() == low for c in cases):
            return field
    if any(fnmatchcase(c.id.lower(), low) for c in cases):
        return "id"
    return None


def _term_kinds(terms: list[str], runnable: list[Case],
                everything: list[Case]) -> dict[str, list[str]]:
    """Group terms by kind; a term matching no runnable case is an error naming why."""
    by_kind: dict[str, list[str]] = {}
    for term in terms:
        kind = _kind_of(term, runnable)
        if kind is None:
            if _kind_of(term, everything) is not None:
                raise InputError(f"'{term}' matches only {_PLACEHOLDER_NOTE}", field="--cases")
            raise InputError(f"'{term}' matches no case id, source, specialty or language",
                             field="--cases")
        by_kind.setdefault(kind, []).append(term.lower())
    return by_kind


def select_cases(cases: list[Case], spec: str | None = None,
                 limit: int | None = None) -> list[Case]:
    """Filter cases by a `--cases` spec, keep their order, then apply `limit`.

    Placeholder cases are always left out.
    """
    if limit is not None and limit < 1:
        raise InputError("must be at least 1", field="--limit")
    runnable = [c for c in cases if not c.placeholder]
    chosen = runnable
    if spec:
        terms = [t.strip() for t in spec.split(",") if t.strip()]
        by_kind = _term_kinds(terms, runnable, cases)
        chosen = [c for c in runnable
                  if all(_matches(c, kind, ts) for kind, ts in by_kind.items())]
        if not chosen:
            kinds = " and ".join(f"{kind} {' or '.join(ts)}" for kind, ts in by_kind.items())
            raise InputError(f"no case matches {kinds} (terms of one kind are alternatives; "
                             "different kinds must all match)", field="--cases")
    if not chosen and cases:
        raise InputError(f"all {len(cases)} cases are {_PLACEHOLDER_NOTE}", field="--cases")
    return chosen[:limit] if limit else chosen


def _matches(case: Case, kind: str, terms: list[str]) -> bool:
    if kind == "id":
        return any(fnmatchcase(case.id.lower(), t) for t in terms)
    return getattr(case, kind).lower() in terms
