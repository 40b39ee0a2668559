"""Selecting a study's transcripts and assigning them to raters (balanced k-overlap).

Every transcript goes to `overlap` raters; each rater gets within one transcript of every
other rater; each rater sees their transcripts in their own seeded random order, with the
calibration transcripts (rated by everyone) first. Same seed, same plan.

Must not import: tui, textual, rich, litellm.
"""

from __future__ import annotations

import random
from fnmatch import fnmatchcase
from typing import Any

from sqlite_utils import Database

from annotation.study import Selection, StudyDefinition
from core.errors import InputError
from db import studies

Plan = dict[str, list[tuple[str, bool]]]  # rater name → [(consultation id, calibration)]


def _matches(value: str | None, patterns: list[str]) -> bool:
    if not patterns:
        return True
    low = (value or "").lower()
    return any(fnmatchcase(low, p.lower()) for p in patterns)


def source_names(case_source: str | None, origin: str | None) -> list[str]:
    """Every name a transcript's source can be selected by.

    The case's source ('bedside', 'agentclinic', ... or 'imported' for the stand-in case
    of an imported dialogue) and, for imports, the format the transcript came in
    ('import:aihospital-dialog' → 'aihospital-dialog') and its family ('aihospital'), so
    that `sources: [aihospital]` also finds AI Hospital dialogue histories.
    """
    names = [case_source or ""]
    if origin and origin.startswith("import:"):
        fmt = origin.removeprefix("import:")
        names += [origin, fmt, fmt.split("-")[0]]
    return names


def select_consultations(db: Database, sel: Selection, seed: int = 0) -> list[str]:
    """Ids of finished consultations matching the selection (a seeded sample if asked)."""
    rows = db.query(
        "SELECT c.id, c.case_id, c.doctor, c.end_reason, c.run_id, c.origin, k.source"
        " FROM consultations c LEFT JOIN cases k ON k.id = c.case_id"
        " WHERE c.status = 'finished' ORDER BY c.id")
    chosen = [r["id"] for r in rows
              if any(_matches(n, sel.sources) for n in source_names(r["source"], r["origin"]))
              and _matches(r["doctor"], sel.models)
              and _matches(r["case_id"], sel.cases) and _matches(r["end_reason"], sel.end_reasons)
              and _matches(r["run_id"], sel.runs) and _matches(r["id"], sel.consultations)]
    if not chosen:
        raise InputError("matches no finished transcript in the database", field="select")
    if sel.sample is not None and sel.sample < len(chosen):
        chosen = sorted(random.Random(f"sample:{seed}").sample(chosen, sel.sample))
    return chosen


def plan_assignments(ids: list[str], raters: list[str], overlap: int, seed: int = 0,
                     calibration: int = 0) -> Plan:
    """Balanced k-overlap plan; the first `calibration` of a seeded shuffle go to everyone."""
    if overlap > len(raters):
        raise InputError(f"overlap {overlap} needs at least {overlap} raters", field="overlap")
    if calibration > len(ids):
        raise InputError(f"{calibration} calibration transcripts but only {len(ids)} selected",
                         field="calibration")
    rng = random.Random(f"assign:{seed}")
    pool = sorted(ids)
    rng.shuffle(pool)
    calib, rest = pool[:calibration], pool[calibration:]
    load = {r: 0 for r in raters}
    given: dict[str, list[str]] = {r: [] for r in raters}
    for cid in rest:
        # Least-loaded raters first; a fresh random tie-break per transcript varies the pairs.
        for rater in sorted(raters, key=lambda r: (load[r], rng.random()))[:overlap]:
            load[rater] += 1
            given[rater].append(cid)
    plan: Plan = {}
    for rater in raters:
        own = random.Random(f"order:{seed}:{rater}")
        first, then = list(calib), given[rater]
        own.shuffle(first)
        own.shuffle(then)
        plan[rater] = [(c, True) for c in first] + [(c, False) for c in then]
    return plan


def create_study(db: Database, definition: StudyDefinition) -> str:
    """Select transcripts, plan assignments and store the study; returns its id.

    The stored definition has the rubric spelled out, so later changes to the default
    rubric never change a study that exists.
    """
    ids = select_consultations(db, definition.select, definition.seed)
    plan = plan_assignments(ids, definition.raters, definition.overlap, definition.seed,
                            definition.calibration)
    stored = definition.model_copy(update={"rubric": definition.effective_rubric()})
    return studies.create_study(db, definition.name, stored.model_dump(mode="json"), plan)


def load_definition(row: dict[str, Any]) -> StudyDefinition:
    """The StudyDefinition of a stored study row (from `db.studies.get_study`)."""
    return StudyDefinition.model_validate(row["definition"])
