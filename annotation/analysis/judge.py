"""Judge versus humans: item-level and system-level agreement, and the human–human ceiling.

The reference for the judge is the mean of the human ratings of each unit (nominal items:
the humans' labels). The ceiling repeats the comparison for each human j against the mean
of the other humans, and puts the judge against that same leave-one-out reference, so the
two numbers are directly comparable.

Must not import: tui, textual, rich, litellm, db.
"""

from __future__ import annotations

import warnings

import numpy as np
from pydantic import BaseModel, Field

from annotation.analysis.compare import (CORRELATIONS, Comparison, compare_nominal,
                                         compare_numeric, correlation, multiplicities,
                                         rowwise_correlations, with_interval)
from annotation.analysis.data import RatingMatrix
from annotation.analysis.result import Stat, undefined


class CeilingRow(BaseModel):
    """Human j and the judge, each against the mean of the humans other than j."""

    rater: str = Field(description="The held-out human.")
    human: Comparison = Field(description="Human j against the others.")
    judge: Comparison = Field(description="The judge against the same others.")


class JudgeReport(BaseModel):
    """Everything about one judge on one item."""

    judge: str = Field(description="The judge's rater name.")
    humans: list[str] = Field(description="The human raters.")
    item_level: Comparison = Field(description="Judge against the mean of all humans.")
    system_level: dict[str, Stat] = Field(description="Correlations of per-system means.")
    n_systems: int = Field(description="Systems (doctor models) with at least one unit.")
    ceiling: list[CeilingRow] = Field(description="Leave-one-out rows, one per human.")
    ceiling_mean: dict[str, float | None] = Field(
        description="Mean over humans of each statistic: 'human.<stat>' and 'judge.<stat>'.")


def _mean_rows(v: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns stay NaN
        return np.nanmean(v, axis=0) if v.shape[0] else np.full(v.shape[1], np.nan)


def _compare(x: np.ndarray, others: np.ndarray, nominal: bool, n_boot: int,
             seed: int | None) -> Comparison:
    if nominal:
        return compare_nominal(x, others)
    return compare_numeric(x, _mean_rows(others), n_boot=n_boot, seed=seed)


def system_level(judge: np.ndarray, reference: np.ndarray, systems: list[str | None], *,
                 n_boot: int = 1000, seed: int | None = 0) -> tuple[dict[str, Stat], int]:
    """Correlate per-system mean judge scores with per-system mean human scores.

    The bootstrap resamples units within each system, then recomputes the system means.
    """
    keep = ~np.isnan(judge) & ~np.isnan(reference) & np.array([s is not None for s in systems])
    names = sorted({s for s, k in zip(systems, keep) if k})
    groups = [np.flatnonzero(keep & np.array([s == name for s in systems])) for name in names]
    if len(names) < 3:
        reason = "needs at least three systems (doctor models) with rated units"
        return {k: undefined(reason, n=len(names)) for k in CORRELATIONS}, len(names)
    jm = np.array([judge[g].mean() for g in groups])
    hm = np.array([reference[g].mean() for g in groups])
    out = {k: correlation(jm, hm, k) for k in CORRELATIONS}
    # Resample units within each system; a system's mean is then a weighted mean.
    rng = np.random.default_rng(seed)
    jb = np.empty((n_boot, len(groups)))
    hb = np.empty((n_boot, len(groups)))
    for col, g in enumerate(groups):
        w = multiplicities(g.size, n_boot, rng)
        jb[:, col] = w @ judge[g] / g.size
        hb[:, col] = w @ reference[g] / g.size
    boots = rowwise_correlations(jb, hb)
    return {k: with_interval(s, boots[k]) for k, s in out.items()}, len(names)


def judge_vs_humans(m: RatingMatrix, judge: str, *, nominal: bool, n_boot: int = 1000,
                    seed: int | None = 0) -> JudgeReport:
    """Judge against humans on one item (see the module docstring)."""
    j = m.row(judge)
    humans = m.without(judge)
    item = _compare(j, humans.values, nominal, n_boot, seed)
    if nominal:
        why = "does not apply to a nominal item"
        sys_stats, n_sys = {k: undefined(why) for k in CORRELATIONS}, 0
    else:
        systems = [m.systems.get(u) for u in m.units]
        sys_stats, n_sys = system_level(j, _mean_rows(humans.values), systems,
                                        n_boot=n_boot, seed=seed)
    rows = []
    for h in humans.raters:
        others = humans.without(h).values
        if others.shape[0] == 0:
            continue
        # Point values only: the ceiling is a reference line, and bootstrapping every
        # leave-one-out pair would multiply the run time by twice the number of humans.
        rows.append(CeilingRow(rater=h, human=_compare(humans.row(h), others, nominal, 0, seed),
                               judge=_compare(j, others, nominal, 0, seed)))
    return JudgeReport(judge=judge, humans=humans.raters, item_level=item,
                       system_level=sys_stats, n_systems=n_sys, ceiling=rows,
                       ceiling_mean=_ceiling_mean(rows))


def _ceiling_mean(rows: list[CeilingRow]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for who in ("human", "judge"):
        for name in Comparison.model_fields:
            if name == "n_units":
                continue
            vals = [getattr(getattr(r, who), name).value for r in rows]
            vals = [v for v in vals if v is not None]
            out[f"{who}.{name}"] = float(np.mean(vals)) if vals else None
    return out
