"""Percent agreement: the share of rater pairs on the same unit that agree, exactly or
within a tolerance (±1 point for scales).

For each unit with m >= 2 ratings, the share of its m (m - 1) / 2 pairs that agree; the
result is the mean of these shares over units (each unit weighs the same, as in Fleiss'
observed agreement P).
"""

from __future__ import annotations

import numpy as np

from annotation.analysis.result import Stat, defined, undefined


def percent_agreement(values: np.ndarray, *, tolerance: float = 0.0) -> Stat:
    """Mean share of agreeing rater pairs per unit (|x - y| <= tolerance counts as agreeing)."""
    v = np.asarray(values, dtype=float)
    if v.shape[0] < 2:
        return undefined("needs at least two raters", n=0)
    shares = []
    for u in range(v.shape[1]):
        x = v[:, u]
        x = x[~np.isnan(x)]
        m = x.size
        if m < 2:
            continue
        close = np.abs(x[:, None] - x[None, :]) <= tolerance + 1e-9
        shares.append((close.sum() - m) / (m * (m - 1)))
    if not shares:
        return undefined("no unit has ratings from two raters", n=0)
    return defined(float(np.mean(shares)), n=len(shares))
