"""Cohen's kappa (unweighted, linear, quadratic; per pair of raters) and Fleiss' kappa.

Cohen's weighted kappa: kappa_w = 1 - sum w_ij p_ij / sum w_ij p_i. p_.j, with disagreement
weights w_ij = 0/1 (unweighted), |i-j|/(k-1) (linear) or (i-j)^2/(k-1)^2 (quadratic) over the
item's full scale, so a value nobody used still counts in the distances.

Fleiss' kappa with unequal numbers of raters per unit uses, for each unit with n_i >= 2
ratings, P_i = (sum_j n_ij^2 - n_i) / (n_i (n_i - 1)); P = mean P_i; p_j = share of all
ratings in category j; P_e = sum p_j^2; kappa = (P - P_e) / (1 - P_e). With equal n_i this is
exactly Fleiss (1971).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np
from pydantic import BaseModel, Field

from annotation.analysis.result import Stat, defined, undefined

WEIGHTS = ("none", "linear", "quadratic")


class PairKappa(BaseModel):
    """Cohen's kappa of one pair of raters under the three weightings."""

    rater_a: str = Field(description="First rater.")
    rater_b: str = Field(description="Second rater.")
    none: Stat = Field(description="Unweighted kappa.")
    linear: Stat = Field(description="Linearly weighted kappa.")
    quadratic: Stat = Field(description="Quadratically weighted kappa.")


def weight_matrix(k: int, weights: str) -> np.ndarray:
    """Disagreement weights for k ordered categories."""
    if weights not in WEIGHTS:
        raise ValueError(f"weights must be one of {WEIGHTS}")
    i = np.arange(k)
    diff = np.abs(i[:, None] - i[None, :]).astype(float)
    if weights == "none":
        return (diff > 0).astype(float)
    scaled = diff / max(k - 1, 1)
    return scaled if weights == "linear" else scaled ** 2


def kappa_from_table(table: np.ndarray | Sequence[Sequence[float]], weights: str = "none") -> Stat:
    """Cohen's kappa of a k × k contingency table (rows: rater A, columns: rater B)."""
    t = np.asarray(table, dtype=float)
    n = t.sum()
    if t.ndim != 2 or t.shape[0] != t.shape[1]:
        raise ValueError("the table must be square")
    if n <= 0:
        return undefined("no unit was rated by both raters", n=0)
    p = t / n
    w = weight_matrix(t.shape[0], weights)
    expected = (w * np.outer(p.sum(axis=1), p.sum(axis=0))).sum()
    if expected <= 0:
        return undefined("chance disagreement is zero (both raters used one same value "
                         "throughout)", n=int(n))
    return defined(1.0 - (w * p).sum() / expected, n=int(n))


def pair_table(a: np.ndarray, b: np.ndarray, scale: Sequence[float]) -> np.ndarray:
    """Contingency table over `scale` of two rating vectors (units rated by both only)."""
    pos = {float(x): i for i, x in enumerate(scale)}
    both = ~np.isnan(a) & ~np.isnan(b)
    try:
        ia = [pos[float(x)] for x in a[both]]
        ib = [pos[float(x)] for x in b[both]]
    except KeyError as err:
        raise ValueError(f"rating {err.args[0]} lies outside the scale") from None
    t = np.zeros((len(pos), len(pos)))
    np.add.at(t, (ia, ib), 1.0)
    return t


def cohen_kappa(a: np.ndarray, b: np.ndarray, *, scale: Sequence[float] | None = None,
                weights: str = "none") -> Stat:
    """Cohen's kappa of two raters' vectors (NaN = missing) over `scale` (default: values seen)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    seen = (scale if scale is not None
            else np.unique(np.concatenate([a[~np.isnan(a)], b[~np.isnan(b)]])).tolist())
    levels = sorted({float(s) for s in seen})
    if not levels:
        return undefined("no unit was rated by both raters", n=0)
    return kappa_from_table(pair_table(a, b, levels), weights)


def pairwise_cohen(values: np.ndarray, raters: Sequence[str], *,
                   scale: Sequence[float] | None = None, ordered: bool = True) -> list[PairKappa]:
    """Cohen's kappa for every pair of raters, under each weighting.

    With `ordered=False` (nominal labels) the weighted forms are undefined: distances
    between unordered labels mean nothing.
    """
    v = np.asarray(values, dtype=float)
    if scale is None:
        scale = np.unique(v[~np.isnan(v)]).tolist()
    out = []
    for i, j in combinations(range(len(raters)), 2):
        ks = {w: cohen_kappa(v[i], v[j], scale=scale, weights=w) if ordered or w == "none"
              else undefined("weights need ordered values; this item is nominal")
              for w in WEIGHTS}
        out.append(PairKappa(rater_a=raters[i], rater_b=raters[j], **ks))
    return out


def fleiss_from_counts(counts: np.ndarray | Sequence[Sequence[float]]) -> Stat:
    """Fleiss' kappa from a units × categories matrix of counts."""
    c = np.asarray(counts, dtype=float)
    n_i = c.sum(axis=1)
    c = c[n_i >= 2]
    n_i = n_i[n_i >= 2]
    if c.shape[0] == 0:
        return undefined("no unit has ratings from two raters", n=0)
    p_i = ((c ** 2).sum(axis=1) - n_i) / (n_i * (n_i - 1.0))
    p_j = c.sum(axis=0) / n_i.sum()
    p_e = float((p_j ** 2).sum())
    if p_e >= 1.0 - 1e-12:
        return undefined("every rating falls in one category, so chance agreement is "
                         "total", n=c.shape[0])
    return defined((float(p_i.mean()) - p_e) / (1.0 - p_e), n=c.shape[0])


def fleiss_kappa(values: np.ndarray) -> Stat:
    """Fleiss' kappa of a raters × units matrix of category codes (NaN = missing)."""
    v = np.asarray(values, dtype=float)
    if v.shape[0] < 2:
        return undefined("needs at least two raters", n=0)
    cats = np.unique(v[~np.isnan(v)])
    counts = np.stack([(v == x).sum(axis=0) for x in cats], axis=1) if cats.size else \
        np.zeros((v.shape[1], 0))
    return fleiss_from_counts(counts)
