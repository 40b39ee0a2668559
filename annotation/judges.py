"""Judges side by side: how far the LLM judges of `bedside score` agree on the report grades.

AI Hospital compared its report judges (Qwen, Deepseek, GPT-4) part by part. Here every
report judge that graded a consultation (`judge:MODEL#H`, stored per judge) is a rater, each
of the five report parts an item (its grades A–D as 4–1, an ordinal scale), and the
consultation the unit: `annotation.analysis.report.agreement_report` gives per part the
percent agreement (exact and within one grade), Krippendorff's α, Fleiss' κ, ICC and Cohen's
κ for every pair of judges, unweighted and weighted (no statistic is computed here).
Beside it, each judge's mean report score (0–100) and mean grade per part, so a judge that
grades everything one step higher shows as such even where the order agrees.

`judges_report` is the use case behind `bedside analyze-judges`; it reads through the
`RunsStore` port. Only defined grades count: a consultation without a report, or whose
judge call failed, is no unit for that judge.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from annotation.analysis.options import DEFAULT_BOOTSTRAP
from annotation.analysis.render import Section, fmt, interval
from core.errors import InputError
from core.metrics.report_score import GRADE_VALUES, PARTS
from core.ports.runs import RunsStore

GRADES = sorted(GRADE_VALUES.values())  # 1 (D) … 4 (A)
LETTERS = {v: k for k, v in GRADE_VALUES.items()}


def grade_rows(store: RunsStore, ids: list[str], judges: list[str] | None = None
               ) -> tuple[list[dict[str, Any]], dict[str, list[float]]]:
    """(one row per consultation × report part × judge with a defined grade, each judge's
    report scores)."""
    values = store.judged_values(ids, ["report_score"], judges)["report_score"]
    rows: list[dict[str, Any]] = []
    scores: dict[str, list[float]] = {}
    for cid in ids:
        for judge, (value, detail) in sorted(values.get(cid, {}).items()):
            grades = detail.get("grades") or {}
            if value is None or not all(p in grades for p in PARTS):
                continue  # no report, a failed call: no unit for this judge
            scores.setdefault(judge, []).append(float(value))
            rows += [{"unit": cid, "rater": judge, "item": p, "value": int(grades[p]),
                      "cluster": cid} for p in PARTS]
    return rows, scores


def _consultations(store: RunsStore, run_id: str | None) -> list[str]:
    return [c.id for c in store.list_consultations(run_id=run_id, status="finished")]


def judges_report(store: RunsStore, *, run_id: str | None = None,
                  judges: Iterable[str] = (), n_boot: int = DEFAULT_BOOTSTRAP,
                  seed: int = 0) -> dict[str, Any]:
    """The report judges' agreement on the report grades of a run (every run when None):
    `agreement_report` over the five parts, with `judges` (each judge's mean score, mean
    grade per part and units) and `run`. InputError when fewer than two judges graded."""
    from annotation.analysis.report import agreement_report
    from core.usecases.judges import resolve, summaries

    ids = _consultations(store, run_id)
    known = [j for j in summaries(store, ids) if j.kind == "judge"]
    named = [resolve(g, known).name for g in judges] or None
    rows, scores = grade_rows(store, ids, named)
    graded = sorted(scores)
    if len(graded) < 2:
        have = ", ".join(graded) or "none"
        raise InputError(f"agreement needs two report judges with grades on the same "
                         f"consultations; graded here: {have} (bedside score --judge MODEL "
                         "adds one)", field="--judge" if named else "--run")
    report = agreement_report(rows, level="ordinal", scales=dict.fromkeys(PARTS, GRADES),
                              n_boot=n_boot, seed=seed)
    report.update(raters="judges", run=run_id, judges=[
        {"name": j, "units": len(scores[j]), "mean_score": sum(scores[j]) / len(scores[j]),
         "mean_grades": {p: _mean(r["value"] for r in rows if r["rater"] == j
                                  and r["item"] == p) for p in PARTS}}
        for j in graded])
    report["overall_reason"] = None  # no judge is the reference: each is one of the raters
    return report


def _mean(values: Iterable[float]) -> float | None:
    data = list(values)
    return sum(data) / len(data) if data else None


def summary_sections(report: dict[str, Any]) -> list[Section]:
    """The judges (units, mean score, mean grade per part) and, per part, the headline
    agreement: percent exact and within one grade, α, and κ (linear weights) of each pair."""
    judges = Section("Report judges", ["judge", "graded", "mean score",
                                       *(p.replace("_", " ") for p in PARTS)])
    for j in report["judges"]:
        judges.rows.append([j["name"], str(j["units"]), fmt(j["mean_score"], 1),
                            *(fmt(j["mean_grades"][p], 2) for p in PARTS)])
    judges.notes.append("grades A-D as 4-1; score = (mean grade - 1) / 3 x 100")
    parts = Section("Agreement per report part", ["part", "units", "exact", "within 1",
                                                  "alpha (ordinal)", "95% interval"])
    pairs = Section("Cohen's kappa per pair of judges", ["part", "pair", "n", "unweighted",
                                                         "linear", "quadratic"])
    for item in report["items"]:
        ag = item["agreement"]
        parts.rows.append([item["item"], str(item["n_units"]),
                           fmt(ag["percent_exact"]["value"]),
                           fmt(ag["percent_within_1"]["value"]),
                           fmt(ag["alpha"]["value"]), interval(ag["alpha"])])
        for p in ag["cohen"]:
            pairs.rows.append([item["item"], f"{_short(p['rater_a'])} / {_short(p['rater_b'])}",
                               fmt(p["none"]["n"]), fmt(p["none"]["value"]),
                               fmt(p["linear"]["value"]), fmt(p["quadratic"]["value"])])
            for w in ("none", "linear", "quadratic"):
                if p[w]["reason"]:
                    pairs.reasons.setdefault(p[w]["reason"], []).append(item["item"])
    parts.notes.append("exact / within 1: share of pairs of judges giving the same grade / "
                       "grades at most one step apart, over the consultations they share")
    return [judges, parts, pairs]


def _short(judge: str) -> str:
    """A judge's name without its kind (the pair column is long enough)."""
    return judge.removeprefix("judge:")


def render_judges(report: dict[str, Any], markdown: bool = False, full: bool = False) -> str:
    """The summary (judges, agreement per part, kappa per pair), and with `full` the
    whole agreement report of every part (text or Markdown)."""
    from annotation.analysis.render import render_markdown, render_text, text_table

    out: list[str] = []
    for s in summary_sections(report):
        if markdown:
            out += [f"## {s.title}", "", "| " + " | ".join(s.headers) + " |",
                    "|" + "|".join(["---"] + ["---:"] * (len(s.headers) - 1)) + "|",
                    *("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |"
                      for r in s.rows), "", *(f"- {n}" for n in s.all_notes()), ""]
        else:
            out += [s.title, "-" * len(s.title), *text_table(s.headers, s.rows),
                    *(f"  * {n}" for n in s.all_notes()), ""]
    if not full:
        return "\n".join(out)
    render = render_markdown if markdown else render_text
    return "\n".join(out) + "\n" + render(report)
