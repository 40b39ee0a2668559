"""Intraclass correlations: the six Shrout & Fleiss (1979) forms.

From the two-way ANOVA of n targets × k judges: BMS (between targets), WMS (within
targets), JMS (between judges), EMS (residual).
  ICC(1,1) = (BMS - WMS) / (BMS + (k-1) WMS)            one-way random, single
  ICC(2,1) = (BMS - EMS) / (BMS + (k-1) EMS + k (JMS - EMS) / n)   two-way random, single
  ICC(3,1) = (BMS - EMS) / (BMS + (k-1) EMS)            two-way mixed, single
  ICC(1,k) = (BMS - WMS) / BMS;  ICC(2,k) = (BMS - EMS) / (BMS + (JMS - EMS) / n);
  ICC(3,k) = (BMS - EMS) / BMS                          the same, for the mean of k judges
The ANOVA needs complete data, so units missing any judge's rating are left out (and counted).

Must not import: tui, textual, rich, litellm, db.
"""

from __future__ import annotations

import numpy as np
from pydantic import BaseModel, Field

from annotation.analysis.result import Stat, defined, undefined

FORMS = ("ICC(1,1)", "ICC(2,1)", "ICC(3,1)", "ICC(1,k)", "ICC(2,k)", "ICC(3,k)")


class IccResult(BaseModel):
    """The six forms plus how many units had complete data."""

    forms: dict[str, Stat] = Field(description="Form name (e.g. 'ICC(2,1)') → statistic.")
    n_units: int = Field(description="Units with a rating from every judge (used).")
    n_dropped: int = Field(description="Units left out because a judge's rating was missing.")
    n_judges: int = Field(description="Judges (raters).")


def mean_squares(x: np.ndarray) -> dict[str, float]:
    """BMS, WMS, JMS and EMS of an n targets × k judges complete matrix."""
    n, k = x.shape
    grand = x.mean()
    ss_total = ((x - grand) ** 2).sum()
    ss_rows = k * ((x.mean(axis=1) - grand) ** 2).sum()
    ss_cols = n * ((x.mean(axis=0) - grand) ** 2).sum()
    ss_error = ss_total - ss_rows - ss_cols
    return {"BMS": ss_rows / (n - 1), "WMS": (ss_total - ss_rows) / (n * (k - 1)),
            "JMS": ss_cols / (k - 1), "EMS": ss_error / ((n - 1) * (k - 1))}


def _forms(ms: dict[str, float], n: int, k: int) -> dict[str, tuple[float, float]]:
    bms, wms, jms, ems = ms["BMS"], ms["WMS"], ms["JMS"], ms["EMS"]
    return {  # (numerator, denominator)
        "ICC(1,1)": (bms - wms, bms + (k - 1) * wms),
        "ICC(2,1)": (bms - ems, bms + (k - 1) * ems + k * (jms - ems) / n),
        "ICC(3,1)": (bms - ems, bms + (k - 1) * ems),
        "ICC(1,k)": (bms - wms, bms),
        "ICC(2,k)": (bms - ems, bms + (jms - ems) / n),
        "ICC(3,k)": (bms - ems, bms),
    }


def icc(values: np.ndarray) -> IccResult:
    """All six Shrout–Fleiss ICCs of a raters × units matrix (NaN = missing)."""
    v = np.asarray(values, dtype=float)
    k = v.shape[0]
    complete = ~np.isnan(v).any(axis=0) if k else np.zeros(v.shape[1], dtype=bool)
    x = v[:, complete].T  # targets × judges
    n = x.shape[0]
    dropped = int(v.shape[1] - n)
    reason = None
    if k < 2:
        reason = "needs at least two raters"
    elif n < 2:
        reason = "needs at least two units rated by every rater"
    if reason:
        forms = {f: undefined(reason, n=n) for f in FORMS}
        return IccResult(forms=forms, n_units=n, n_dropped=dropped, n_judges=k)
    forms = {}
    for name, (num, den) in _forms(mean_squares(x), n, k).items():
        if abs(den) < 1e-12:
            forms[name] = undefined("no variance between units (identical ratings)", n=n)
        else:
            forms[name] = defined(num / den, n=n)
    return IccResult(forms=forms, n_units=n, n_dropped=dropped, n_judges=k)
