"""Least-squares fits of diagnostic quality against what the doctor gathered (AI Hospital's
Appendix D.1, AgentClinic's coverage analysis): one outcome, one predictor, one doctor.

`fit(x, y, binary=...)` is ordinary least squares y = a + b·x with the slope's 95 %
interval (Student's t, n − 2 degrees of freedom) and R².

- A continuous outcome (entity F1, report score) gets the classical standard error.
- A binary outcome (correct or not) is fitted the same way — a linear probability model —
  with a heteroskedasticity-consistent standard error (HC3; HC1 where a consultation has
  leverage 1 and HC3 is infinite), because the variance of a 0/1 outcome changes with its
  mean. Why not a logistic fit: the slope then reads the same for all three outcomes
  (change per unit of the predictor: here, in the probability of being right), R² is the
  same statistic, and it always exists — a logistic maximum-likelihood slope does not when
  the doctor's right and wrong answers are separated by the predictor, which is common with
  a few dozen consultations per doctor. Its fitted values may leave 0–1 at the ends of the
  range; the slope is what is reported.

Undefined results carry their reason (fewer than three points, a constant predictor or a
constant outcome), never NaN.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

MIN_POINTS = 3


@dataclass(frozen=True)
class Fit:
    """One least-squares line and the figures reported for it."""

    n: int
    slope: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    intercept: float | None = None
    r2: float | None = None
    method: str = ""
    reason: str | None = None  # why the fit (or its interval, or R²) is undefined

    def as_dict(self) -> dict[str, Any]:
        """The fit as plain data."""
        return asdict(self)


def fit(x: Sequence[float], y: Sequence[float], *, binary: bool = False,
        confidence: float = 0.95) -> Fit:
    """OLS of y on x (pairs with a missing or non-finite value dropped)."""
    from scipy import stats

    pairs = [(float(a), float(b)) for a, b in zip(x, y, strict=True)
             if a is not None and b is not None and math.isfinite(a) and math.isfinite(b)]
    n = len(pairs)
    method = "linear probability model, HC3 SE" if binary else "OLS"
    if n < MIN_POINTS:
        return Fit(n, method=method, reason=f"needs at least {MIN_POINTS} consultations")
    xs, ys = np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])
    sxx = float(((xs - xs.mean()) ** 2).sum())
    if sxx <= 1e-12:
        return Fit(n, method=method, reason="the predictor is the same for every consultation")
    slope = float(((xs - xs.mean()) * (ys - ys.mean())).sum() / sxx)
    intercept = float(ys.mean() - slope * xs.mean())
    resid = ys - (intercept + slope * xs)
    sst = float(((ys - ys.mean()) ** 2).sum())
    if sst <= 1e-12:
        return Fit(n, slope, intercept=intercept, method=method,
                   reason="the outcome is the same for every consultation")
    se, method = (_robust_se(xs, resid) if binary else
                  (math.sqrt(float((resid ** 2).sum()) / (n - 2) / sxx), "OLS"))
    t = float(stats.t.ppf(0.5 + confidence / 2, n - 2))
    return Fit(n, slope, slope - t * se, slope + t * se, intercept,
               1.0 - float((resid ** 2).sum()) / sst, method)


def _robust_se(xs: np.ndarray, resid: np.ndarray) -> tuple[float, str]:
    """The slope's heteroskedasticity-consistent standard error: HC3, or HC1 when some
    point has leverage 1 (HC3 divides by 1 − leverage)."""
    n = len(xs)
    design = np.column_stack([np.ones(n), xs])
    bread = np.linalg.inv(design.T @ design)
    lev = np.einsum("ij,jk,ik->i", design, bread, design)
    if np.all(lev < 1 - 1e-9):
        weights, method = resid ** 2 / (1 - lev) ** 2, "linear probability model, HC3 SE"
    else:
        weights, method = resid ** 2 * n / (n - 2), "linear probability model, HC1 SE"
    cov = bread @ (design.T * weights) @ design @ bread
    return math.sqrt(max(float(cov[1, 1]), 0.0)), method
