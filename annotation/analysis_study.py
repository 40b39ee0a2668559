"""The agreement report of a reader study: each rubric item analysed at its own level.

Scale items are ordinal over their full scale (min..max), choice items nominal over their
options; free-text items are not analysed. One report per level holds its items and, when a
judge rated two or more of them, the judge against the humans over those items pooled
(scale items rescaled to 0–1 by their scales; see `annotation.analysis.pooled`). The units
of a transcript (its per-turn ratings, its items) form one cluster, so bootstraps and the
alternative annotator test treat a transcript as one piece of evidence. The doctor of each
transcript is passed as the `system`, so judge-vs-human correlations are also reported per
doctor model. Analysts (not raters) see this, so unblinding the doctor here is intended.

The judge compared with the humans is one of the study's LLM raters (`bedside judge`) or,
for a study whose rubric grades the report's parts (`aihospital-report`), a report judge
of `bedside score` named by `--judge` (its grades of the same reports are its ratings):
AI Hospital's check of its GPT-4 judge against clinicians.

`study_report` is the use case behind `bedside analyze` and the app's analysis screen; it
reads the ratings through the `ReaderStudyStore` port and hands plain rows to the statistics
(`annotation.analysis`, which never touches a store).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from annotation.analysis.options import DEFAULT_BOOTSTRAP, DEFAULT_EPSILON
from annotation.analysis.report import agreement_report
from annotation.assignment import load_definition
from annotation.exchange import ExchangeRow, export_rows
from annotation.rubric import Rubric
from core.errors import InputError
from core.ports.studies import ReaderStudyStore, StudyStore


class StudyReport(BaseModel):
    """A study's agreement report: one `agreement_report` per measurement level."""

    study: str = Field(description="The study's name.")
    judge: str | None = Field(description="The judge compared with the humans, if any.")
    judge_reason: str | None = Field(description="Why there is no judge part, if there is none.")
    n_boot: int = Field(description="Bootstrap resamples behind the 95 % intervals.")
    epsilon: float = Field(description="The alternative annotator test's margin.")
    reports: list[dict[str, Any]] = Field(
        description="One agreement report (see `annotation.analysis.report`) per level: "
        "scale items (ordinal), then choice items (nominal), each when it has ratings.")


def choose_judge(store: StudyStore, study_id: str, judge: str | None,
                 rated: set[str], extra: set[str] | None = None
                 ) -> tuple[str | None, str | None]:
    """(judge, reason when there is none): the named judge, else the study's only LLM judge.
    Only an LLM judge can be named: a human rater is one of the humans it is compared with.
    `extra` are judges from outside the study (a report judge of `bedside score`)."""
    judges = [r.name for r in store.study_raters(study_id) if r.kind == "judge"]
    judges = list(dict.fromkeys(j for j in [*judges, *(extra or ())] if j in rated))
    if judge is not None:
        if judge not in rated:
            raise InputError(f"the judge '{judge}' has no ratings in this study",
                             field="--judge")
        if judge not in judges:
            which = (f"this study's: {', '.join(judges)}" if judges
                     else "this study has none yet: bedside judge makes one")
            raise InputError(f"'{judge}' is a human rater; --judge names an LLM judge "
                             f"({which})", field="--judge")
        return judge, None
    if len(judges) == 1:
        return judges[0], None
    if not judges:
        return None, "no LLM judge has rated this study, so there is no judge-versus-human part"
    return None, (f"the study has {len(judges)} LLM judges ({', '.join(judges)}); name one "
                  "(--judge NAME, or the judge field in the app) to compare it with the humans")


def report_judge_rows(store: StudyStore, study_id: str, study: str, rubric: Rubric,
                      judge: str) -> list[ExchangeRow]:
    """The grades a report judge of `bedside score` gave the study's reports, as ratings of
    the rubric's report-part items (`aihospital-report`: the items are the judge's parts),
    when `judge` names one judge that graded them; [] otherwise."""
    from core.metrics.report_score import PARTS
    from core.transcript import utc_now
    from core.usecases.judges import matches

    parts = [p for p in PARTS if rubric.item(p) is not None]
    grades = store.report_grades(study_id)
    named = {j for per in grades.values() for j in per if matches(judge, j)}
    if not parts or len(named) != 1:
        return []
    (name,), now = named, utc_now()
    return [ExchangeRow(study=study, consultation=cid, item=p, unit="transcript", rater=name,
                        rater_kind="judge", value=str(per[name][p]), created_at=now,
                        updated_at=now)
            for cid, per in sorted(grades.items()) if name in per for p in parts
            if p in per[name]]


def study_report(store: ReaderStudyStore, study: str, *, judge: str | None = None,
                 n_boot: int = DEFAULT_BOOTSTRAP, seed: int = 0,
                 epsilon: float = DEFAULT_EPSILON) -> StudyReport:
    """The agreement report of a study, one part per level (InputError when unrated)."""
    record = store.get_study(study)
    rubric = load_definition(record).effective_rubric()
    doctors = store.consultation_doctors(record.id)
    rows = [r for r in export_rows(store, study) if r.value is not None]
    if not rows:
        raise InputError(f"study '{record.name}' has no ratings yet", field="study")
    rated = {r.rater for r in rows}
    if judge is not None and judge not in rated:
        # A report judge of `bedside score` graded the same reports the clinicians did.
        graded = report_judge_rows(store, record.id, record.name, rubric, judge)
        judge = graded[0].rater if graded else judge
        rows += graded
        rated |= {judge}
    judge, judge_reason = choose_judge(store, record.id, judge, rated,
                                       extra={r.rater for r in rows if r.rater_kind == "judge"})
    # The humans are the human raters: another LLM judge is never counted among them.
    rows = [r for r in rows if r.rater_kind == "human" or r.rater == judge]
    reports = []
    for level, kind in (("ordinal", "scale"), ("nominal", "choice")):
        items = {i.id: i for i in rubric.items if i.kind == kind}
        mine = [{"unit": f"{r.consultation}/{r.unit}", "rater": r.rater, "value": r.value,
                 "item": r.item, "cluster": r.consultation,
                 "system": doctors.get(r.consultation) or "?"}
                for r in rows if r.item in items]
        if not mine:
            continue
        scales = {i: (list(range(s.min, s.max + 1)) if kind == "scale" else s.options)
                  for i, s in items.items()}
        part = agreement_report(mine, judge=judge, level=level, scales=scales, n_boot=n_boot,
                                seed=seed, epsilon=epsilon, judge_required=False)
        part["judge_reason"] = judge_reason
        reports.append(part)
    return StudyReport(study=record.name, judge=judge, judge_reason=judge_reason,
                       n_boot=n_boot, epsilon=epsilon, reports=reports)
