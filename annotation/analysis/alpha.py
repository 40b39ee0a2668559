"""Krippendorff's alpha at the nominal, ordinal, interval and ratio levels, with missing data.

Definitions (Krippendorff, "Computing Krippendorff's Alpha-Reliability", 2011). Only the
pairable values count: those of units with m_u >= 2 ratings. With n pairable values, n_c of
them equal to c, and the difference function delta,
  D_o = sum_u 1/(m_u - 1) sum_{i != j in u} delta(v_i, v_j)   (ordered pairs within a unit)
  D_e = sum_{c,k} n_c n_k delta_ck
  alpha = 1 - (n - 1) D_o / D_e,
which is the coincidence-matrix formula sum o_ck delta_ck added up cell by cell.

Memory. Nothing of size units × c × c is built (c = distinct values, which for continuous
scores is about the number of ratings):
- interval: delta = (v_i - v_j)^2, so a unit's pair sum is 2 (m S2 - S1^2) from its sum S1
  and sum of squares S2, and D_e = 2 (n T2 - T1^2) from the totals: no c at all;
- ordinal: Krippendorff's ordinal delta_ck = (sum_{g=c..k} n_g - (n_c + n_k)/2)^2 equals the
  squared difference of mid-ranks r_c = (sum_{g<=c} n_g) - n_c/2, i.e. the interval metric on
  mid-ranks. The mid-ranks depend on the marginals, so S1 and S2 of mid-ranks are recomputed
  per resample from each unit's sparse value counts (units × c, a few non-zeros a row);
- nominal: a unit's pair sum is m^2 - sum_c n_uc^2; D_e = n^2 - sum_c n_c^2;
- ratio: a unit's pair sum runs over its rater pairs; D_e = n' D n with the c × c metric D
  built in row blocks, so at most a block × c array exists at a time.
The bootstrap resamples units: a resample is a vector w of unit multiplicities and every
total above is w-weighted, computed for a batch of resamples by matrix products.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from annotation.analysis.compare import multiplicities
from annotation.analysis.data import validate_level
from annotation.analysis.result import Stat, defined, undefined

_CELLS = 1 << 21  # largest 2-D working array, in elements (16 MB of float64)


@dataclass
class Pairable:
    """The pairable units of a raters × units matrix, in the forms the levels need."""

    values: np.ndarray  # raters × U, NaN = missing; only units with >= 2 ratings
    cats: np.ndarray  # (c,) the distinct pairable values, sorted
    counts: sparse.csr_array  # (U, c): how many raters gave unit u the value cats[c]
    m: np.ndarray  # (U,) ratings per unit

    @property
    def n_units(self) -> int:
        """Pairable units."""
        return int(self.m.size)


def pairable(values: np.ndarray) -> Pairable:
    """Keep the units with two or more ratings; the categories come from those units only."""
    v = np.asarray(values, dtype=float)
    if v.ndim != 2:
        raise ValueError("values must be a raters × units matrix")
    keep = (~np.isnan(v)).sum(axis=0) >= 2
    v = v[:, keep]
    present = ~np.isnan(v)
    cats = np.unique(v[present])
    units = np.broadcast_to(np.arange(v.shape[1]), v.shape)[present]
    codes = np.searchsorted(cats, v[present])
    counts = sparse.csr_array((np.ones(codes.size), (units, codes)),
                              shape=(v.shape[1], cats.size))
    counts.sum_duplicates()
    return Pairable(v, cats, counts, present.sum(axis=0).astype(float))


def _batch_size(p: Pairable) -> int:
    return max(1, min(128, _CELLS // max(p.n_units, p.cats.size, 1)))


def unit_pair_sums(p: Pairable, level: str) -> np.ndarray | None:
    """Per-unit sum over ordered pairs of delta, for the levels where it is fixed."""
    if level == "nominal":
        return p.m ** 2 - np.asarray(p.counts.multiply(p.counts).sum(axis=1)).ravel()
    if level == "interval":
        x = p.cats - p.cats.mean()  # centring: delta is shift-invariant, sums stay small
        s1, s2 = p.counts @ x, p.counts @ (x * x)
        return 2.0 * (p.m * s2 - s1 * s1)
    if level == "ratio":
        out = np.zeros(p.n_units)
        for i in range(p.values.shape[0] - 1):
            a = p.values[i]
            for j in range(i + 1, p.values.shape[0]):
                b = p.values[j]
                both = ~np.isnan(a) & ~np.isnan(b)
                total = a[both] + b[both]
                d = np.divide((a[both] - b[both]) ** 2, total ** 2,
                              out=np.zeros_like(total), where=total != 0)
                out[both] += 2.0 * d  # both orders of the pair
        return out
    return None  # ordinal: depends on the marginals, recomputed per resample


def _ratio_expected(cats: np.ndarray, n_c: np.ndarray) -> np.ndarray:
    """n_c' D n_c for each row of n_c (B, c), building D = ((c-k)/(c+k))^2 in row blocks."""
    out = np.zeros(n_c.shape[0])
    block = max(1, (_CELLS // 4) // max(cats.size, 1))  # a few temporaries of this size
    for start in range(0, cats.size, block):
        c = cats[start:start + block, None]
        total = c + cats[None, :]
        d = np.divide((c - cats[None, :]) ** 2, total ** 2, out=np.zeros_like(total),
                      where=total != 0)
        out += ((n_c[:, start:start + block] @ d) * n_c).sum(axis=1)
    return out


def _ordinal_totals(p: Pairable, w: np.ndarray, n_c: np.ndarray,
                    n: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Observed and expected disagreement on the mid-ranks of each resample's marginals."""
    r = np.cumsum(n_c, axis=1) - n_c / 2.0 - (n / 2.0)[:, None]  # centred mid-ranks (B, c)
    s1, s2 = p.counts @ r.T, p.counts @ (r * r).T  # (U, B)
    per_unit = 2.0 * (p.m[:, None] * s2 - s1 * s1) / (p.m - 1.0)[:, None]
    observed = (w * per_unit.T).sum(axis=1)
    t1, t2 = (n_c * r).sum(axis=1), (n_c * r * r).sum(axis=1)
    return observed, 2.0 * (n * t2 - t1 * t1), 2.0 * n * t2


def _totals(p: Pairable, level: str, w: np.ndarray, pair_sums: np.ndarray | None
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(n, D_o, D_e, scale of D_e) for each row of unit weights `w`."""
    n = w @ p.m
    n_c = (p.counts.T @ w.T).T  # (B, c) marginals of each resample
    if level == "ordinal":
        return (n, *_ordinal_totals(p, w, n_c, n))
    if pair_sums is None:
        pair_sums = unit_pair_sums(p, level)
    assert pair_sums is not None
    observed = w @ (pair_sums / (p.m - 1.0))
    if level == "interval":
        x = p.cats - p.cats.mean()
        t1, t2 = n_c @ x, n_c @ (x * x)
        return n, observed, 2.0 * (n * t2 - t1 * t1), 2.0 * n * t2
    if level == "nominal":
        return n, observed, n * n - (n_c * n_c).sum(axis=1), n * n
    return n, observed, _ratio_expected(p.cats, n_c), n * n  # ratio: delta <= 1


def alpha_of_weights(p: Pairable, level: str, w: np.ndarray,
                     pair_sums: np.ndarray | None = None) -> np.ndarray:
    """Alpha for each row of unit weights `w` (B, U); NaN where a row has no variation.

    A row of ones is the point estimate; a row of multiplicities is one bootstrap resample.
    """
    w = np.atleast_2d(np.asarray(w, dtype=float))
    n, observed, expected, scale = _totals(p, level, w, pair_sums)
    with np.errstate(divide="ignore", invalid="ignore"):
        alpha = 1.0 - (n - 1.0) * observed / expected
    # Rows whose values are all equal have no expected disagreement (up to rounding).
    return np.where(expected > 1e-10 * scale, alpha, np.nan)


def bootstrap_alpha(p: Pairable, level: str, n_boot: int, seed: int | None = 0) -> np.ndarray:
    """Alpha of `n_boot` unit resamples, drawn in batches (NaN: a resample without variation)."""
    rng = np.random.default_rng(seed)
    pair_sums = unit_pair_sums(p, level)
    out = np.empty(n_boot)
    step = _batch_size(p)
    for start in range(0, n_boot, step):
        b = min(step, n_boot - start)
        out[start:start + b] = alpha_of_weights(p, level, multiplicities(p.n_units, b, rng),
                                                pair_sums)
    return out


def krippendorff_alpha(values: np.ndarray, level: str = "nominal", *, n_boot: int = 0,
                       seed: int | None = 0, confidence: float = 0.95) -> Stat:
    """Krippendorff's alpha of a raters × units matrix (NaN = missing).

    With `n_boot` > 0, adds a percentile bootstrap interval from resampling units. Undefined
    (value None, with a reason) when no unit has two ratings or the pairable ratings are all
    identical.
    """
    validate_level(level)
    v = np.asarray(values, dtype=float)
    if v.shape[0] < 2:
        return undefined("needs at least two raters", n=0)
    p = pairable(v)
    if p.n_units == 0:
        return undefined("no unit has ratings from two raters", n=0)
    if p.cats.size < 2:
        return undefined("every rating of the units rated twice or more has the same value, "
                         "so there is no variation to agree on", n=p.n_units)
    if level == "ratio" and p.cats[0] < 0:
        return undefined("the ratio level needs non-negative values", n=p.n_units)
    point = float(alpha_of_weights(p, level, np.ones((1, p.n_units)))[0])
    if n_boot <= 0:
        return defined(point, n=p.n_units)
    boots = bootstrap_alpha(p, level, n_boot, seed)
    low, high, note = _interval(boots, confidence)
    return defined(point, n=p.n_units, low=low, high=high, reason=note)


def _interval(boots: np.ndarray,
              confidence: float) -> tuple[float | None, float | None, str | None]:
    """(low, high, note): the percentile interval of the finite resamples."""
    ok = boots[np.isfinite(boots)]
    if ok.size == 0:
        return None, None, "no bootstrap resample had variation; no interval"
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(ok, [tail, 100.0 - tail])
    skipped = boots.size - ok.size
    note = f"{skipped} of {boots.size} resamples had no variation" if skipped else None
    return float(low), float(high), note
