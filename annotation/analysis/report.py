"""The agreement report: every statistic of the module for a long table of ratings.

`agreement_report` turns rows (unit, rater, value[, item][, system]) into a JSON-safe dict
(no NaN: an undefined number is None beside a reason); `render_text` and `render_markdown`
(in `render.py`, re-exported here) print it. The CLI and the app call these.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from annotation.analysis.alpha import krippendorff_alpha
from annotation.analysis.annotator_test import alt_test
from annotation.analysis.data import (LEVELS, NUMERIC_LEVELS, RatingMatrix, Row, as_rows,
                                      build_matrix, load_long_csv, shown, validate_level)
from annotation.analysis.icc import icc
from annotation.analysis.judge import judge_vs_humans
from annotation.analysis.kappa import fleiss_kappa, pairwise_cohen
from annotation.analysis.options import DEFAULT_BOOTSTRAP, DEFAULT_EPSILON
from annotation.analysis.percent import percent_agreement
from annotation.analysis.pooled import pooled_part
from annotation.analysis.render import render_markdown, render_text
from annotation.analysis.result import clean_json, undefined
from core.errors import InputError

__all__ = ["agreement_report", "load_long_csv", "render_markdown", "render_text"]


def agreement_report(ratings: Iterable[Any], *, judge: str | None = None,
                     level: str = "ordinal", scale: Sequence[Any] | None = None,
                     scales: Mapping[str, Sequence[Any]] | None = None,
                     n_boot: int = DEFAULT_BOOTSTRAP, seed: int | None = 0,
                     epsilon: float = DEFAULT_EPSILON, q: float = 0.05,
                     path: str | None = None, judge_required: bool = True) -> dict[str, Any]:
    """Agreement among the humans, and of the judge with them, per item and pooled.

    `ratings` are Row-like records (attributes or dict keys unit, rater, value, optional
    item, system and cluster). `scale` is the full scale (values or labels) of every item,
    `scales` per item (it wins); without either, integer data use every integer from the
    lowest to the highest value seen. `path` names the source file in errors. Raises
    InputError for an unknown level, a judge without ratings (unless `judge_required` is
    False: then every item says the judge did not rate it) or a bad value.
    """
    validate_level(level)
    rows = as_rows(ratings)
    if not rows:
        raise InputError("no ratings to analyse", path=path, field="value")
    judged = judge is not None and judge in {r.rater for r in rows}
    if judge is not None and not judged and judge_required:
        raise InputError(f"the judge {shown(judge)} has no ratings", path=path, field="rater")
    items = list(dict.fromkeys(r.item for r in rows))
    parts = [_item_report(name, [r for r in rows if r.item == name], judge=judge, level=level,
                          scale=(scales or {}).get(name, scale), n_boot=n_boot, seed=seed,
                          epsilon=epsilon, q=q, path=path) for name in items]
    report: dict[str, Any] = {
        "level": level, "judge": judge, "n_ratings": len(rows), "n_boot": n_boot,
        "epsilon": epsilon, "q": q, "items": parts, "overall": None, "overall_reason": None,
    }
    rated = [p["item_key"] for p in parts if p.get("judge")]
    if judge is None:
        report["overall_reason"] = "no judge named, so there is no judge-versus-human block"
    elif len(rated) < 2:
        report["overall_reason"] = (f"the judge rated {len(rated)} item(s); pooling needs two "
                                    "or more (an item's own section says the rest)")
    else:
        full = {p["item_key"]: p["full_scale"] for p in parts}
        report["overall"] = pooled_part(rows, rated, full, judge=judge, level=level,
                                        n_boot=n_boot, seed=seed, epsilon=epsilon, q=q,
                                        path=path)
    return clean_json(report)


def _full_scale(m: RatingMatrix, level: str, scale: Sequence[Any] | None) -> list[float]:
    if m.labels is not None:
        return [float(i) for i in range(len(m.labels))]
    seen = m.values[~np.isnan(m.values)]
    if scale:
        return sorted({float(s) for s in scale} | {float(x) for x in seen})
    if seen.size and np.all(seen == np.round(seen)) and seen.max() - seen.min() <= 100:
        return [float(x) for x in np.arange(seen.min(), seen.max() + 1)]
    return [float(x) for x in np.unique(seen)]


def _item_report(name: str, rows: list[Row], *, judge: str | None, level: str,
                 scale: Sequence[Any] | None, n_boot: int, seed: int | None, epsilon: float,
                 q: float, path: str | None) -> dict[str, Any]:
    m = build_matrix(rows, level=level, scale=scale, path=path)
    humans = m.without(judge) if judge is not None else m
    full = _full_scale(m, level, scale)
    out: dict[str, Any] = {
        "item": name or "(one item)", "item_key": name, "raters": m.raters,
        "humans": humans.raters, "n_units": len(m.units),
        "n_ratings": int((~np.isnan(m.values)).sum()), "labels": m.labels,
        "scale": [m.labels[int(i)] for i in full] if m.labels else full, "full_scale": full,
        "agreement": _agreement(humans, level, full, n_boot, seed),
    }
    if judge is not None and judge in m.raters:
        out.update(_judge_part(m, judge, level, n_boot, seed, epsilon, q))
        if not humans.raters:
            out["judge_reason"] = "no human rated this item, so there is nothing to compare"
    elif judge is not None:
        out.update({"judge": None, "alt_test": None,
                    "judge_reason": f"the judge {shown(judge)} did not rate this item"})
    return out


def _agreement(h: RatingMatrix, level: str, full: list[float], n_boot: int,
               seed: int | None) -> dict[str, Any]:
    numeric = level in NUMERIC_LEVELS
    levels = [lv for lv in LEVELS if numeric or lv == "nominal"]
    not_numeric = undefined("needs a numeric level (ordinal, interval or ratio)")
    n_humans = len(h.raters)
    return {
        "alpha": krippendorff_alpha(h.values, level, n_boot=n_boot, seed=seed),
        "alpha_levels": {lv: krippendorff_alpha(h.values, lv) for lv in levels},
        "fleiss": fleiss_kappa(h.values),
        "percent_exact": percent_agreement(h.values),
        "percent_within_1": percent_agreement(h.values, tolerance=1.0) if numeric
        else not_numeric,
        "cohen": pairwise_cohen(h.values, h.raters, scale=full, ordered=numeric),
        "cohen_reason": None if n_humans >= 2 else
        f"Cohen's kappa needs two or more human raters; this item has {n_humans}",
        "icc": icc(h.values, h.raters) if numeric else None,
    }


def _judge_part(m: RatingMatrix, judge: str, level: str, n_boot: int, seed: int | None,
                epsilon: float, q: float) -> dict[str, Any]:
    nominal = level == "nominal"
    return {"judge": judge_vs_humans(m, judge, nominal=nominal, n_boot=n_boot, seed=seed),
            "alt_test": alt_test(m, judge, nominal=nominal, epsilon=epsilon, q=q)}
