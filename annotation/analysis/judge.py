"""Judge versus humans: item-level and system-level agreement, and the human–human ceiling.

The reference for the judge is the mean of the human ratings of each unit (nominal items:
the humans' labels). The ceiling repeats the comparison for each human j against the mean
of the other humans, and puts the judge against that same leave-one-out reference on the
same units (rated by the judge, by j and by another human), so the two numbers are directly
comparable.
"""

from __future__ import annotations

import warnings

import numpy as np
from pydantic import BaseModel, Field

from annotation.analysis.compare import (CORRELATIONS, Comparison, cluster_codes,
                                         compare_nominal, compare_numeric, correlation,
                                         resample_weights, rowwise_correlations,
                                         with_interval)
from annotation.analysis.data import RatingMatrix
from annotation.analysis.result import Stat, undefined


class CeilingRow(BaseModel):
    """Human j and the judge, each against the mean of the humans other than j."""

    rater: str = Field(description="The held-out human.")
    human: Comparison = Field(description="Human j against the others.")
    judge: Comparison = Field(description="The judge against the same others.")


class SystemMean(BaseModel):
    """One system's (doctor model's) mean score from the judge and from the humans."""

    system: str = Field(description="The doctor model.")
    n_units: int = Field(description="Units of this system rated by the judge and a human.")
    judge_mean: float = Field(description="Mean judge score.")
    human_mean: float = Field(description="Mean of the per-unit human means.")


class JudgeReport(BaseModel):
    """Everything about one judge on one item."""

    judge: str = Field(description="The judge's rater name.")
    humans: list[str] = Field(description="The human raters.")
    item_level: Comparison = Field(description="Judge against the mean of all humans.")
    system_level: dict[str, Stat] = Field(description="Correlations of per-system means.")
    n_systems: int = Field(description="Systems (doctor models) with at least one unit.")
    systems: list[SystemMean] = Field(default_factory=list,
                                      description="Per-system means behind the correlations.")
    ceiling: list[CeilingRow] = Field(description="Leave-one-out rows, one per human.")
    ceiling_mean: dict[str, float | None] = Field(
        description="Mean over humans of each statistic: 'human.<stat>' and 'judge.<stat>'.")


def _mean_rows(v: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns stay NaN
        return np.nanmean(v, axis=0) if v.shape[0] else np.full(v.shape[1], np.nan)


def _compare(x: np.ndarray, others: np.ndarray, nominal: bool, n_boot: int,
             seed: int | None, clusters: np.ndarray | None = None) -> Comparison:
    if nominal:
        return compare_nominal(x, others)
    return compare_numeric(x, _mean_rows(others), n_boot=n_boot, seed=seed, clusters=clusters)


def _group_means(values: np.ndarray, groups: list[np.ndarray], clusters: np.ndarray,
                 n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """(n_boot, systems) resampled system means: each system's clusters resampled within it."""
    out = np.empty((n_boot, len(groups)))
    for col, g in enumerate(groups):
        codes = cluster_codes(clusters[g], g.size)
        w = resample_weights(codes, n_boot, rng)
        out[:, col] = (w @ values[g]) / w.sum(axis=1)
    return out


def system_means(judge: np.ndarray, reference: np.ndarray,
                 systems: list[str | None]) -> list[SystemMean]:
    """Mean judge and human scores per system, over units both rated."""
    keep = ~np.isnan(judge) & ~np.isnan(reference)
    out = []
    for name in sorted({s for s, k in zip(systems, keep, strict=False) if k and s is not None}):
        g = keep & np.array([s == name for s in systems])
        out.append(SystemMean(system=name, n_units=int(g.sum()),
                              judge_mean=float(judge[g].mean()),
                              human_mean=float(reference[g].mean())))
    return out


def system_level(judge: np.ndarray, reference: np.ndarray, systems: list[str | None], *,
                 n_boot: int = 1000, seed: int | None = 0,
                 clusters: np.ndarray | None = None) -> tuple[dict[str, Stat], int]:
    """Correlate per-system mean judge scores with per-system mean human scores.

    The bootstrap resamples units (or whole `clusters`) within each system, then recomputes
    the system means.
    """
    keep = ~np.isnan(judge) & ~np.isnan(reference) & np.array([s is not None for s in systems])
    names = sorted({s for s, k in zip(systems, keep, strict=False) if k and s is not None})
    groups = [np.flatnonzero(keep & np.array([s == name for s in systems])) for name in names]
    if not names:
        reason = ("no unit has a system (doctor model); a CSV file can name one per unit in "
                  "a 'system' column")
        return {k: undefined(reason, n=0) for k in CORRELATIONS}, 0
    if len(names) < 3:
        reason = "needs at least three systems (doctor models) with rated units"
        return {k: undefined(reason, n=len(names)) for k in CORRELATIONS}, len(names)
    jm = np.array([judge[g].mean() for g in groups])
    hm = np.array([reference[g].mean() for g in groups])
    out = {k: correlation(jm, hm, k) for k in CORRELATIONS}
    if n_boot <= 0:
        return out, len(names)
    cl = np.arange(judge.size) if clusters is None else np.asarray(clusters)
    rng = np.random.default_rng(seed)
    jb = _group_means(judge, groups, cl, n_boot, rng)
    rng = np.random.default_rng(seed)  # the same draws for the human means: paired resamples
    hb = _group_means(reference, groups, cl, n_boot, rng)
    boots = rowwise_correlations(jb, hb)
    return {k: with_interval(s, boots[k]) for k, s in out.items()}, len(names)


def ceiling_units(j: np.ndarray, h: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Units rated by the judge, by human j and by at least one other human."""
    return ~np.isnan(j) & ~np.isnan(h) & (~np.isnan(others)).any(axis=0)


def _ceiling(m: RatingMatrix, j: np.ndarray, humans: RatingMatrix,
             nominal: bool) -> list[CeilingRow]:
    rows = []
    for h in humans.raters:
        others = humans.without(h).values
        if others.shape[0] == 0:
            continue
        # Both rows on the same units, so that human and judge are compared like for like.
        both = ceiling_units(j, humans.row(h), others)
        hx = np.where(both, humans.row(h), np.nan)
        jx = np.where(both, j, np.nan)
        # Point values only: the ceiling is a reference line, and bootstrapping every
        # leave-one-out pair would multiply the run time by twice the number of humans.
        rows.append(CeilingRow(rater=h, human=_compare(hx, others, nominal, 0, None),
                               judge=_compare(jx, others, nominal, 0, None)))
    return rows


def judge_vs_humans(m: RatingMatrix, judge: str, *, nominal: bool, n_boot: int = 1000,
                    seed: int | None = 0) -> JudgeReport:
    """Judge against humans on one item (see the module docstring).

    When the matrix carries clusters (unit → transcript), bootstraps resample whole clusters.
    """
    j = m.row(judge)
    humans = m.without(judge)
    clusters = np.array([m.clusters.get(u, u) for u in m.units]) if m.clusters else None
    item = _compare(j, humans.values, nominal, n_boot, seed, clusters)
    if nominal:
        why = "does not apply to a nominal item"
        sys_stats, n_sys, means = {k: undefined(why) for k in CORRELATIONS}, 0, []
    else:
        systems = [m.systems.get(u) for u in m.units]
        reference = _mean_rows(humans.values)
        sys_stats, n_sys = system_level(j, reference, systems, n_boot=n_boot, seed=seed,
                                        clusters=clusters)
        means = system_means(j, reference, systems)
    rows = _ceiling(m, j, humans, nominal)
    return JudgeReport(judge=judge, humans=humans.raters, item_level=item,
                       system_level=sys_stats, n_systems=n_sys, systems=means, ceiling=rows,
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
