"""Selecting a study's transcripts and assigning them to raters (balanced k-overlap).

Every transcript goes to `overlap` raters; each rater gets within one transcript of every
other rater; each rater sees their transcripts in their own seeded random order, with the
calibration transcripts (rated by everyone) first. Same seed, same plan.

`create_study` is the use case behind `bedside study create` and the app's new-study form;
it reads and writes through the `StudyStore` port.
"""

from __future__ import annotations

import random
from fnmatch import fnmatchcase

from annotation.study import Selection, StudyDefinition
from core.errors import InputError
from core.ports.studies import StudyStore
from core.records.studies import Plan, StudyRecord


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


def select_consultations(store: StudyStore, sel: Selection, seed: int = 0) -> list[str]:
    """Ids of finished consultations matching the selection (a seeded sample if asked)."""
    chosen = [c.id for c in store.finished_transcripts()
              if any(_matches(n, sel.sources) for n in source_names(c.case_source, c.origin))
              and _matches(c.doctor, sel.models)
              and _matches(c.case_id, sel.cases) and _matches(c.end_reason, sel.end_reasons)
              and _matches(c.run_id, sel.runs) and _matches(c.id, sel.consultations)]
    if not chosen:
        raise InputError("matches no finished transcript in the database", field="select")
    if sel.sample is not None and sel.sample > len(chosen):
        # Never silently fewer than asked: the study would not be the one described.
        raise InputError(f"sample {sel.sample} is more than the {len(chosen)} finished "
                         "transcripts the selection matches; lower it or widen the selection",
                         field="select.sample")
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


def create_study(store: StudyStore, definition: StudyDefinition) -> StudyRecord:
    """Select transcripts, plan assignments and store the study; returns it.

    The stored definition has the rubric spelled out, so later changes to the default
    rubric never change a study that exists.
    """
    ids = select_consultations(store, definition.select, definition.seed)
    plan = plan_assignments(ids, definition.raters, definition.overlap, definition.seed,
                            definition.calibration)
    stored = definition.model_copy(update={"rubric": definition.effective_rubric()})
    return store.create_study(definition.name, stored.model_dump(mode="json"), plan)


def load_definition(study: StudyRecord) -> StudyDefinition:
    """The StudyDefinition of a stored study."""
    return StudyDefinition.model_validate(study.definition)
