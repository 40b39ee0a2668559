"""One rater's scores against a reference (the mean of other raters): the building block of
judge-versus-humans and of the human–human ceiling.

Quadratic-weighted kappa is computed as 1 - n sum (x_i - y_i)^2 / sum_i sum_j (x_i - y_j)^2,
which equals Cohen's quadratic-weighted kappa for integer scores (the (k-1)^2 normalisation
cancels) and extends it to a fractional reference such as a mean of raters.
"""

from __future__ import annotations

import math

import numpy as np
from pydantic import BaseModel, Field
from scipy import stats

from annotation.analysis.result import Stat, defined, undefined

CORRELATIONS = ("spearman", "kendall", "pearson")


class Comparison(BaseModel):
    """A scorer's agreement with a reference over the units both have."""

    n_units: int = Field(description="Units where the scorer and the reference both exist.")
    spearman: Stat = Field(description="Spearman rank correlation (bootstrap 95% interval).")
    kendall: Stat = Field(description="Kendall tau-b (bootstrap 95% interval).")
    pearson: Stat = Field(description="Pearson correlation (bootstrap 95% interval).")
    qwk: Stat = Field(description="Quadratic-weighted kappa against the reference.")
    mae: Stat = Field(description="Mean absolute error.")
    mean_diff: Stat = Field(description="Mean of scorer − reference: > 0 lenient, < 0 harsh.")
    loa_low: Stat = Field(description="Bland–Altman lower limit: mean diff − 1.96 SD.")
    loa_high: Stat = Field(description="Bland–Altman upper limit: mean diff + 1.96 SD.")
    accuracy: Stat = Field(description="Nominal items: mean share of reference raters matched.")


def correlation(x: np.ndarray, y: np.ndarray, kind: str) -> Stat:
    """One correlation of two complete vectors; undefined with a reason when it cannot be."""
    n = x.size
    if n < 3:
        return undefined("needs at least three units", n=n)
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        which = "scorer's" if np.ptp(x) == 0 else "reference's"
        return undefined(f"the {which} scores do not vary", n=n)
    return defined(_corr(x, y, kind), n=n)


def _corr(x: np.ndarray, y: np.ndarray, kind: str) -> float:
    if kind == "pearson":
        return float(np.corrcoef(x, y)[0, 1])
    if kind == "spearman":
        return float(np.corrcoef(stats.rankdata(x), stats.rankdata(y))[0, 1])
    return float(stats.kendalltau(x, y, variant="b").statistic)


def multiplicities(n: int, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """(n_boot, n) counts: how often each unit appears in each resample of n units."""
    draws = rng.integers(0, n, size=(n_boot, n)) + (np.arange(n_boot) * n)[:, None]
    return np.bincount(draws.ravel(), minlength=n_boot * n).reshape(n_boot, n).astype(float)


def _weighted_pearson(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    total = w.sum(axis=1, keepdims=True)
    dx = x - (w * x).sum(axis=1, keepdims=True) / total
    dy = y - (w * y).sum(axis=1, keepdims=True) / total
    with np.errstate(divide="ignore", invalid="ignore"):
        return (w * dx * dy).sum(axis=1) / np.sqrt((w * dx * dx).sum(axis=1)
                                                   * (w * dy * dy).sum(axis=1))


def _resample_midranks(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    # Mid-rank of each original unit inside each resample, from counts per distinct value.
    vals, code = np.unique(x, return_inverse=True)
    order = np.argsort(code, kind="stable")
    starts = np.searchsorted(code[order], np.arange(vals.size))
    per_value = np.add.reduceat(w[:, order], starts, axis=1)  # (B, distinct)
    below = np.cumsum(per_value, axis=1) - per_value
    return (below + (per_value + 1.0) / 2.0)[:, code]


def _weighted_kendall(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    # Pairs between copies of one unit are ties in both, so over a resample with
    # multiplicities w: P - Q = w'(Sx∘Sy)w / 2 and the untied pair counts are w'|Sx|w / 2 and
    # w'|Sy|w / 2, where S is the n × n sign matrix of differences. tau-b is their ratio.
    sx, sy = np.sign(x[:, None] - x[None, :]), np.sign(y[:, None] - y[None, :])
    def form(a: np.ndarray) -> np.ndarray:
        return ((w @ a) * w).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return form(sx * sy) / np.sqrt(form(np.abs(sx)) * form(np.abs(sy)))


_KENDALL_MATRIX_MAX = 2000  # above this many units the n × n sign matrices cost too much


def cluster_codes(clusters: np.ndarray | list[str] | None, n: int) -> np.ndarray:
    """Cluster index 0..C-1 of each of n units (each unit its own cluster when None)."""
    if clusters is None:
        return np.arange(n)
    return np.unique(np.asarray(clusters), return_inverse=True)[1].ravel()


def resample_weights(clusters: np.ndarray, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """(n_boot, units) multiplicities from resampling whole clusters (codes 0..C-1)."""
    return multiplicities(int(clusters.max()) + 1 if clusters.size else 0, n_boot,
                          rng)[:, clusters]


def bootstrap_correlations(x: np.ndarray, y: np.ndarray, n_boot: int,
                           seed: int | None, clusters: np.ndarray | None = None
                           ) -> dict[str, np.ndarray]:
    """Correlations of `n_boot` resamples (NaN where a resample has no variation).

    Vectorised: a resample is a vector of unit multiplicities, and each correlation is
    computed from weighted sums over the original units. With `clusters` (codes 0..C-1),
    whole clusters are resampled (e.g. the items of one transcript go together).
    """
    w = resample_weights(cluster_codes(clusters, x.size), n_boot, np.random.default_rng(seed))
    out = {"pearson": _weighted_pearson(w, x, y),
           "spearman": _weighted_pearson(w, _resample_midranks(w, x),
                                         _resample_midranks(w, y))}
    if x.size <= _KENDALL_MATRIX_MAX:
        out["kendall"] = _weighted_kendall(w, x, y)
    else:
        out["kendall"] = np.array([_corr(np.repeat(x, c.astype(int)),
                                         np.repeat(y, c.astype(int)), "kendall") for c in w])
    return {k: np.where(np.isfinite(v), v, np.nan) for k, v in out.items()}


def rowwise_correlations(a: np.ndarray, b: np.ndarray) -> dict[str, np.ndarray]:
    """Each correlation between matching rows of two (B, k) arrays, k small (NaN if constant)."""
    ones = np.ones_like(a)
    sx = np.sign(a[:, :, None] - a[:, None, :])
    sy = np.sign(b[:, :, None] - b[:, None, :])
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = (sx * sy).sum(axis=(1, 2)) / np.sqrt(np.abs(sx).sum(axis=(1, 2))
                                                   * np.abs(sy).sum(axis=(1, 2)))
    out = {"pearson": _weighted_pearson(ones, a, b), "kendall": tau,
           "spearman": _weighted_pearson(ones, stats.rankdata(a, axis=1),
                                         stats.rankdata(b, axis=1))}
    return {k: np.where(np.isfinite(v), v, np.nan) for k, v in out.items()}


def with_interval(stat: Stat, boots: np.ndarray, confidence: float = 0.95) -> Stat:
    """`stat` with the percentile interval of its bootstrap replicates added."""
    ok = boots[np.isfinite(boots)]
    if stat.value is None or ok.size == 0:
        return stat
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(ok, [tail, 100.0 - tail])
    return stat.model_copy(update={"low": float(low), "high": float(high)})


def qwk(x: np.ndarray, y: np.ndarray) -> Stat:
    """Quadratic-weighted kappa of paired scores (see the module docstring)."""
    n = x.size
    if n == 0:
        return undefined("no units in common", n=0)
    chance = n * (x ** 2).sum() + n * (y ** 2).sum() - 2.0 * x.sum() * y.sum()
    if chance <= 1e-12:
        return undefined("both score the same single value throughout", n=n)
    return defined(1.0 - n * ((x - y) ** 2).sum() / chance, n=n)


def compare_numeric(x: np.ndarray, y: np.ndarray, *, n_boot: int = 1000,
                    seed: int | None = 0, clusters: np.ndarray | None = None) -> Comparison:
    """Compare scores `x` with reference `y` (NaN = missing; pairs with a NaN are dropped).

    `clusters` (one label per unit) makes the bootstrap resample whole clusters.
    """
    keep = ~np.isnan(x) & ~np.isnan(y)
    x, y = x[keep], y[keep]
    n = int(x.size)
    corrs = {k: correlation(x, y, k) for k in CORRELATIONS}
    if n_boot > 0 and any(s.defined for s in corrs.values()):
        codes = None if clusters is None else cluster_codes(np.asarray(clusters)[keep], n)
        boots = bootstrap_correlations(x, y, n_boot, seed, codes)
        corrs = {k: with_interval(s, boots[k]) for k, s in corrs.items()}
    diff = x - y
    none = "no units in common"
    mae = defined(float(np.abs(diff).mean()), n=n) if n else undefined(none, 0)
    mean = float(diff.mean()) if n else math.nan
    bias = defined(mean, n=n) if n else undefined(none, 0)
    if n >= 2:
        sd = float(diff.std(ddof=1))
        lo, hi = defined(mean - 1.96 * sd, n=n), defined(mean + 1.96 * sd, n=n)
    else:
        lo = hi = undefined("limits of agreement need at least two units", n=n)
    return Comparison(n_units=n, qwk=qwk(x, y), mae=mae, mean_diff=bias, loa_low=lo,
                      loa_high=hi, accuracy=undefined("not a nominal item", n=n), **corrs)


def compare_nominal(x: np.ndarray, others: np.ndarray) -> Comparison:
    """Compare labels `x` (units) with reference raters `others` (raters × units)."""
    shares = []
    for u in range(x.size):
        ref = others[:, u][~np.isnan(others[:, u])]
        if not np.isnan(x[u]) and ref.size:
            shares.append(float((ref == x[u]).mean()))
    n = len(shares)
    acc = defined(float(np.mean(shares)), n=n) if n else undefined("no units in common", 0)
    na = undefined("does not apply to a nominal item", n=n)
    return Comparison(n_units=n, spearman=na, kendall=na, pearson=na, qwk=na, mae=na,
                      mean_diff=na, loa_low=na, loa_high=na, accuracy=acc)
