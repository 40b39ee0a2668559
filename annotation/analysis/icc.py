"""Intraclass correlations: the six Shrout & Fleiss (1979) forms, on real study designs.

Reader studies rarely cross every rater with every unit: a transcript goes to k of the n
raters. So the forms are computed on the data each model can use.

One-way random effects, ICC(1,1) and ICC(1,k): every unit with two or more ratings, by the
one-way ANOVA for unequal group sizes. With a units, N ratings, n_i ratings of unit i,
  MSB = sum_i n_i (mean_i - grand)^2 / (a - 1),  MSW = sum_i sum_j (y_ij - mean_i)^2 / (N - a),
  k0 = (N - sum_i n_i^2 / N) / (a - 1)      (the ANOVA's "average" group size),
  ICC(1,1) = (MSB - MSW) / (MSB + (k0 - 1) MSW),   ICC(1,k) = (MSB - MSW) / MSB,
where ICC(1,k) is the reliability of the mean of k0 ratings. Source: the ANOVA estimator of
the one-way random-effects model with unequal group sizes, Searle, Casella & McCulloch,
"Variance Components" (1992), section 3.6 (their n0 is our k0), as reviewed for the
intraclass correlation by Donner, "A review of inference procedures for the intraclass
correlation coefficient in the one-way random effects model", International Statistical
Review 54 (1986) 67-82. With equal group sizes k0 = k and these are Shrout & Fleiss' forms.

Two-way forms, ICC(2,·) random and ICC(3,·) mixed: they separate a rater effect, so they need
a crossed block, i.e. units all rated by the same raters. The block with the most ratings
(raters × units, at least 2 × 2) is used, and named; Shrout & Fleiss's mean squares of that
n targets × k judges matrix give
  ICC(2,1) = (BMS - EMS) / (BMS + (k-1) EMS + k (JMS - EMS) / n)
  ICC(3,1) = (BMS - EMS) / (BMS + (k-1) EMS)
  ICC(2,k) = (BMS - EMS) / (BMS + (JMS - EMS) / n);  ICC(3,k) = (BMS - EMS) / BMS.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel, Field

from annotation.analysis.result import Stat, defined, undefined

FORMS = ("ICC(1,1)", "ICC(2,1)", "ICC(3,1)", "ICC(1,k)", "ICC(2,k)", "ICC(3,k)")
ONE_WAY = ("ICC(1,1)", "ICC(1,k)")
TWO_WAY = ("ICC(2,1)", "ICC(3,1)", "ICC(2,k)", "ICC(3,k)")
_MAX_SETS = 200  # rater sets tried as crossed blocks (the commonest); pairs are always tried
NOT_CROSSED = ("undefined for this design: raters differ between units (two-way forms need "
               "a crossed design)")


class IccResult(BaseModel):
    """The six forms, and which units and raters each family of forms rests on."""

    forms: dict[str, Stat] = Field(description="Form name (e.g. 'ICC(2,1)') → statistic.")
    n_units: int = Field(description="Units used by the one-way forms (two or more ratings).")
    n_dropped: int = Field(description="Units left out of the one-way forms (under 2 ratings).")
    n_judges: int = Field(description="Raters in the data.")
    k0: float | None = Field(None, description="Mean group size of the one-way ANOVA (= k "
                             "when every unit has k ratings); the k of ICC(1,k).")
    balanced: bool = Field(False, description="Every unit used has the same number of ratings.")
    two_way_units: int = Field(0, description="Units of the crossed block of the two-way forms.")
    two_way_raters: list[str] = Field(default_factory=list,
                                      description="Raters of that block (all rated its units).")
    notes: list[str] = Field(default_factory=list, description="What each family rests on.")


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


def one_way_anova(groups: Sequence[np.ndarray]) -> dict[str, float]:
    """MSB, MSW and k0 of the one-way ANOVA of groups of unequal sizes (each >= 1)."""
    sizes = np.array([g.size for g in groups], dtype=float)
    a, total = len(groups), sizes.sum()
    grand = np.concatenate(groups).mean()
    means = np.array([g.mean() for g in groups])
    ss_between = float((sizes * (means - grand) ** 2).sum())
    ss_within = float(sum(((g - g.mean()) ** 2).sum() for g in groups))
    return {"MSB": ss_between / (a - 1), "MSW": ss_within / (total - a),
            "k0": float((total - (sizes ** 2).sum() / total) / (a - 1))}


def _why_zero(x: np.ndarray, unit_means: np.ndarray) -> str:
    if np.ptp(x) == 0:
        return "every rating is identical"
    if np.ptp(unit_means) < 1e-12 * max(1.0, float(np.abs(x).max())):
        return ("the units' mean ratings are all equal, so there is no variance between "
                "units")
    return "the ANOVA gives a zero denominator"


def _ratio(num: float, den: float, n: int, why: str) -> Stat:
    return undefined(why, n=n) if abs(den) < 1e-12 else defined(num / den, n=n)


def _one_way(v: np.ndarray) -> tuple[dict[str, Stat], float | None, bool, int]:
    present = ~np.isnan(v)
    used = np.flatnonzero(present.sum(axis=0) >= 2)
    if used.size < 2:
        why = "needs at least two units with two or more ratings"
        return {f: undefined(why, n=int(used.size)) for f in ONE_WAY}, None, False, int(used.size)
    groups = [v[present[:, u], u] for u in used]
    ms = one_way_anova(groups)
    msb, msw, k0 = ms["MSB"], ms["MSW"], ms["k0"]
    why = _why_zero(np.concatenate(groups), np.array([g.mean() for g in groups]))
    n = int(used.size)
    forms = {"ICC(1,1)": _ratio(msb - msw, msb + (k0 - 1.0) * msw, n, why),
             "ICC(1,k)": _ratio(msb - msw, msb, n, why)}
    balanced = len({g.size for g in groups}) == 1
    return forms, k0, balanced, n


def crossed_block(present: np.ndarray) -> tuple[list[int], np.ndarray]:
    """(rater rows, unit columns) of the largest crossed block: units rated by all of them.

    Candidates are the commonest sets of raters of one unit and every pair of raters who
    share two units; the block with the most ratings wins (then the most units). Empty when
    no block has 2 raters × 2 units.
    """
    sets = Counter(tuple(int(i) for i in np.flatnonzero(col)) for col in present.T
                   if col.sum() >= 2)
    candidates = {s for s, _ in sets.most_common(_MAX_SETS)}
    shared = present.astype(float) @ present.T.astype(float)  # units rated by both i and j
    first, second = np.nonzero(np.triu(shared >= 2, 1))
    candidates |= {(int(i), int(j)) for i, j in zip(first, second, strict=True)}
    best: tuple[int, int, tuple[int, ...]] = (0, 0, ())
    for raters in sorted(candidates):
        units = int(present[list(raters)].all(axis=0).sum())
        if units >= 2 and (units * len(raters), units) > best[:2]:
            best = (units * len(raters), units, raters)
    if not best[2]:
        return [], np.array([], dtype=int)
    rows = list(best[2])
    return rows, np.flatnonzero(present[rows].all(axis=0))


def _two_way(v: np.ndarray, names: list[str]) -> tuple[dict[str, Stat], list[str], int]:
    present = ~np.isnan(v)
    rows, cols = crossed_block(present)
    if not rows:
        few = (present.sum(axis=0) >= 2).sum() < 2
        why = "needs at least two units with two or more ratings" if few else NOT_CROSSED
        return {f: undefined(why, n=0) for f in TWO_WAY}, [], 0
    x = v[np.ix_(np.asarray(rows), cols)].T  # targets × judges
    n, k = x.shape
    ms = mean_squares(x)
    bms, ems, jms = ms["BMS"], ms["EMS"], ms["JMS"]
    why = _why_zero(x, x.mean(axis=1))
    forms = {
        "ICC(2,1)": _ratio(bms - ems, bms + (k - 1) * ems + k * (jms - ems) / n, n, why),
        "ICC(3,1)": _ratio(bms - ems, bms + (k - 1) * ems, n, why),
        "ICC(2,k)": _ratio(bms - ems, bms + (jms - ems) / n, n, why),
        "ICC(3,k)": _ratio(bms - ems, bms, n, why),
    }
    return forms, [names[r] for r in rows], n


def icc(values: np.ndarray, raters: Sequence[str] | None = None) -> IccResult:
    """All six Shrout–Fleiss ICCs of a raters × units matrix (NaN = missing).

    `raters` names the rows, so that the report can say which raters the two-way forms used.
    """
    v = np.asarray(values, dtype=float)
    k = v.shape[0]
    names = list(raters) if raters is not None else [f"rater {i + 1}" for i in range(k)]
    if k < 2:
        why = "needs at least two raters"
        return IccResult(forms={f: undefined(why, n=0) for f in FORMS}, n_units=0,
                         n_dropped=int(v.shape[1]), n_judges=k)
    one, k0, balanced, n_one = _one_way(v)
    two, block, n_two = _two_way(v, names)
    notes = []
    if k0 is not None:
        design = (f"each with {k0:g} ratings" if balanced else
                  f"unequal numbers of ratings, so ICC(1,k) is for the mean of k0 = {k0:.2f}")
        notes.append(f"ICC(1,·): one-way ANOVA over the {n_one} units rated twice or more "
                     f"({design})")
    if block:
        notes.append(f"ICC(2,·), ICC(3,·): the {n_two} units rated by all of "
                     f"{', '.join(block)} (the largest crossed block; k = {len(block)})")
    forms = {f: (one | two)[f] for f in FORMS}
    return IccResult(forms=forms, n_units=n_one, n_dropped=int(v.shape[1] - n_one), n_judges=k,
                     k0=k0, balanced=balanced, two_way_units=n_two, two_way_raters=block,
                     notes=notes)
