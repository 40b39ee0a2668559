"""Which judge's values a results table shows.

The report score and the patient's ratings are stored per judge (`core.metrics.identity`):
several judges may have graded the same consultations. A table shows one judge per kind —
one report judge (`judge:…`) and one rating patient (`patient:…`) — never a mix: the one
named (`bedside results --judge NAME`), else the only one, else the one with a value for
the most of the table's consultations (ties: the most recent), and says which and why.
`bedside analyze-judges` (`annotation.judges`) compares them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field

from core.errors import InputError
from core.metrics.base import Metrics
from core.metrics.identity import JUDGED_NAMES, PATIENT_KIND, REPORT_KIND, kind_of, model_of
from core.ports.runs import RunsStore

KINDS = (REPORT_KIND, PATIENT_KIND)
_NAMES = {REPORT_KIND: tuple(n for n in JUDGED_NAMES if kind_of(n) == REPORT_KIND),
          PATIENT_KIND: tuple(n for n in JUDGED_NAMES if kind_of(n) == PATIENT_KIND)}
_WHAT = {REPORT_KIND: "report_score", PATIENT_KIND: "patient ratings"}


class JudgeSummary(BaseModel):
    """One judge's values among a table's consultations."""

    name: str = Field(description="`judge:MODEL#H` or `patient:MODEL#H`.")
    kind: str = Field(description="'judge' (report score) or 'patient' (patient ratings).")
    consultations: int = Field(description="Consultations it has a value for.")
    defined: int = Field(description="Of which a defined value (not 'no report', failed…).")
    latest: str = Field(description="When it last computed one (ISO UTC).")


class JudgeChoice(BaseModel):
    """The judge of each kind a table shows, and the others it could show."""

    chosen: dict[str, str | None] = Field(description="kind → the judge shown (None: none "
                                          "has graded these consultations).")
    why: dict[str, str] = Field(description="kind → 'named', 'only', 'most' (the most "
                                "consultations graded) or 'latest' (as many as another, "
                                "computed last).")
    judges: list[JudgeSummary] = Field(description="Every judge with values here.")

    def of(self, kind: str) -> list[JudgeSummary]:
        """The judges of one kind."""
        return [j for j in self.judges if j.kind == kind]

    def notes(self) -> list[str]:
        """One line per kind with judges: which is shown, why, and the others."""
        out = []
        for kind in KINDS:
            name, mine = self.chosen.get(kind), self.of(kind)
            if name is None:
                continue
            how = {"named": "named with --judge", "only": "the only one",
                   "most": "the most consultations graded",
                   "latest": "as many graded as another, the most recent"}[self.why[kind]]
            line = f"{_WHAT[kind]} by {name} ({how})"
            others = [j.name for j in mine if j.name != name]
            if others:
                line += (f"; also stored: {', '.join(others)} (--judge NAME shows another; "
                         "bedside analyze-judges compares them)")
            out.append(line)
        return out


def summaries(store: RunsStore, ids: Iterable[str]) -> list[JudgeSummary]:
    """Every judge with a value for one of these consultations, by kind then name."""
    wanted = list(ids)
    out = []
    for kind in KINDS:
        for name, (some, defined, latest) in store.judge_activity(wanted, _NAMES[kind]).items():
            if kind_of_judge(name) == kind:
                out.append(JudgeSummary(name=name, kind=kind, consultations=some,
                                        defined=defined, latest=latest))
    return sorted(out, key=lambda j: (KINDS.index(j.kind), j.name))


def kind_of_judge(name: str) -> str:
    """'judge' or 'patient', from a judge's name."""
    return PATIENT_KIND if name.startswith(PATIENT_KIND + ":") else REPORT_KIND


def matches(given: str, name: str) -> bool:
    """Whether `--judge GIVEN` names the judge `name`: its whole name, KIND:MODEL, or the
    model alone."""
    given = given.strip()
    if given == name:
        return True
    kind, rest = name.split(":", 1)
    return given in (model_of(name), f"{kind}:{model_of(name)}", rest)


def resolve(given: str, judges: list[JudgeSummary]) -> JudgeSummary:
    """The one judge `given` names; InputError naming the judges otherwise."""
    found = [j for j in judges if matches(given, j.name)]
    if len(found) == 1:
        return found[0]
    known = ", ".join(j.name for j in judges) or "none: run bedside score first"
    if not found:
        raise InputError(f"no judge '{given}' has graded these consultations (judges: "
                         f"{known})", field="--judge")
    raise InputError(f"'{given}' names {len(found)} judges ({', '.join(j.name for j in found)})"
                     ": give the whole name", field="--judge")


def choose(store: RunsStore, ids: Iterable[str], given: Iterable[str] = ()) -> JudgeChoice:
    """The judge of each kind to show for these consultations (see the module doc)."""
    judges = summaries(store, ids)
    chosen: dict[str, str | None] = dict.fromkeys(KINDS)
    why: dict[str, str] = {}
    for text in given:
        judge = resolve(text, judges)
        if chosen[judge.kind] not in (None, judge.name):
            raise InputError(f"two {_WHAT[judge.kind]} judges named ({chosen[judge.kind]}, "
                             f"{judge.name}): name one of each kind", field="--judge")
        chosen[judge.kind], why[judge.kind] = judge.name, "named"
    for kind in KINDS:
        mine = [j for j in judges if j.kind == kind]
        if chosen[kind] is None and mine:
            best = max(mine, key=lambda j: (j.defined, j.consultations, j.latest))
            tied = sum((j.defined, j.consultations) == (best.defined, best.consultations)
                       for j in mine) > 1
            chosen[kind] = best.name
            why[kind] = "only" if len(mine) == 1 else "latest" if tied else "most"
    return JudgeChoice(chosen=chosen, why=why, judges=judges)


def chosen_values(store: RunsStore, ids: list[str], choice: JudgeChoice) -> dict[str, Metrics]:
    """consultation → the chosen judges' values (`{name: (value, detail)}`)."""
    out: dict[str, Metrics] = {}
    for kind in KINDS:
        judge = choice.chosen.get(kind)
        if judge is None:
            continue
        for name, per in store.judged_values(ids, _NAMES[kind], [judge]).items():
            for cid, values in per.items():
                out.setdefault(cid, {})[name] = values[judge]
    return out


def with_judged(metrics: dict[str, Metrics], judged: dict[str, Metrics]) -> dict[str, Metrics]:
    """The offline metrics with the chosen judges' values added (the input is not changed;
    a consultation without judged values shares its metrics' dict with it)."""
    out = dict(metrics)
    for cid, values in judged.items():
        out[cid] = {**metrics.get(cid, {}), **values}
    return out


def label_rows(rows: list[dict[str, Any]], choice: JudgeChoice) -> list[dict[str, Any]]:
    """Each row with the judges its values come from (`report_judge`, `rating_patient`)."""
    for r in rows:
        r["report_judge"] = choice.chosen.get(REPORT_KIND)
        r["rating_patient"] = choice.chosen.get(PATIENT_KIND)
    return rows
