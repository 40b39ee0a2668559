"""The agreement report of a reader study: each rubric item analysed at its own level.

Scale items are ordinal over their full scale (min..max), choice items nominal over their
options; free-text items are not analysed. The doctor of each transcript is passed as the
`system`, so judge-vs-human correlations are also reported per doctor model. Analysts (not
raters) see this, so unblinding the doctor here is intended.

Must not import: tui, textual, rich, litellm.
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from annotation.analysis.report import agreement_report
from annotation.assignment import load_definition
from annotation.exchange import export_rows
from core.errors import InputError
from db import studies


def _judge_name(db: Database, study_id: str, judge: str | None) -> str | None:
    if judge is not None:
        return judge
    judges = [r["name"] for r in studies.study_raters(db, study_id) if r["kind"] == "judge"]
    return judges[0] if len(judges) == 1 else None


def study_report(db: Database, study: str, *, judge: str | None = None, n_boot: int = 1000,
                 seed: int = 0, epsilon: float = 0.2) -> dict[str, Any]:
    """{"study", "judge", "reports": [one agreement report per level]} for a study."""
    row = studies.get_study(db, study)
    rubric = load_definition(row).effective_rubric()
    judge = _judge_name(db, row["id"], judge)
    doctors = dict(db.execute("SELECT id, doctor FROM consultations").fetchall())
    rows = [r for r in export_rows(db, study) if r["value"] is not None]
    if not rows:
        raise InputError(f"study '{row['name']}' has no ratings yet", field="study")
    if judge is not None and judge not in {r["rater"] for r in rows}:
        raise InputError(f"the judge '{judge}' has no ratings in this study", field="--judge")
    reports = []
    for level, kind in (("ordinal", "scale"), ("nominal", "choice")):
        items = {i.id: i for i in rubric.items if i.kind == kind}
        mine = [{"unit": f"{r['consultation']}/{r['unit']}", "rater": r["rater"],
                 "value": r["value"], "item": r["item"],
                 "system": doctors.get(r["consultation"]) or "?"}
                for r in rows if r["item"] in items]
        if not mine:
            continue
        for item_id in dict.fromkeys(r["item"] for r in mine):
            spec = items[item_id]
            scale = list(range(spec.min, spec.max + 1)) if kind == "scale" else spec.options
            part = agreement_report([r for r in mine if r["item"] == item_id], judge=judge
                                    if any(r["rater"] == judge for r in mine
                                           if r["item"] == item_id) else None,
                                    level=level, scale=scale, n_boot=n_boot, seed=seed,
                                    epsilon=epsilon)
            reports.append(part)
    return {"study": row["name"], "judge": judge, "reports": reports}
