"""The agreement report of a reader study: each rubric item analysed at its own level.

Scale items are ordinal over their full scale (min..max), choice items nominal over their
options; free-text items are not analysed. One report per level holds its items and, when a
judge rated two or more of them, the judge against the humans over those items pooled
(scale items rescaled to 0–1 by their scales; see `annotation.analysis.pooled`). The units
of a transcript (its per-turn ratings, its items) form one cluster, so bootstraps and the
alternative annotator test treat a transcript as one piece of evidence. The doctor of each
transcript is passed as the `system`, so judge-vs-human correlations are also reported per
doctor model. Analysts (not raters) see this, so unblinding the doctor here is intended.

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
from annotation.exchange import export_rows
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
                 rated: set[str]) -> tuple[str | None, str | None]:
    """(judge, reason when there is none): the named judge, else the study's only LLM judge.
    Only an LLM judge can be named: a human rater is one of the humans it is compared with."""
    judges = [r.name for r in store.study_raters(study_id) if r.kind == "judge"]
    judges = [j for j in judges if j in rated]
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
    judge, judge_reason = choose_judge(store, record.id, judge, {r.rater for r in rows})
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
