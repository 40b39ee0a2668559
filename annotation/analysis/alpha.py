"""Krippendorff's alpha at the nominal, ordinal, interval and ratio levels, with missing data.

Definitions (Krippendorff, "Computing Krippendorff's Alpha-Reliability", 2011): a unit with
m_u >= 2 ratings adds (n_uc n_uk - [c=k] n_uc) / (m_u - 1) to the coincidence o_ck; with
marginals n_c and n = sum n_c, alpha = 1 - (n - 1) sum o_ck d_ck / sum n_c n_k d_ck.

The bootstrap resamples units. Each unit's coincidence contribution is computed once, so a
resample's coincidence matrix is (multiplicity counts) @ (per-unit contributions): one
matrix product per batch of resamples instead of a loop.

Must not import: tui, textual, rich, litellm, db.
"""

from __future__ import annotations

import numpy as np

from annotation.analysis.data import validate_level
from annotation.analysis.result import Stat, defined, undefined

_BATCH = 128  # resamples per matrix product: bounds memory to ~batch × units × 8 bytes


def unit_value_counts(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(categories, counts): counts[u, c] is how many raters gave unit u the value categories[c].

    Only pairable units (two or more ratings) are kept, since the others add nothing.
    """
    v = np.asarray(values, dtype=float)
    if v.ndim != 2:
        raise ValueError("values must be a raters × units matrix")
    present = ~np.isnan(v)
    cats = np.unique(v[present])
    pairable = present.sum(axis=0) >= 2
    v, present = v[:, pairable], present[:, pairable]
    counts = np.zeros((v.shape[1], cats.size))
    if cats.size:
        codes = np.searchsorted(cats, np.where(present, v, cats[0]))
        units = np.broadcast_to(np.arange(v.shape[1]), v.shape)
        np.add.at(counts, (units[present], codes[present]), 1.0)
    return cats, counts


def unit_coincidences(counts: np.ndarray) -> np.ndarray:
    """Per-unit coincidence contributions, shape (units, c, c)."""
    m = counts.sum(axis=1)
    o = counts[:, :, None] * counts[:, None, :]
    idx = np.arange(counts.shape[1])
    o[:, idx, idx] -= counts
    return o / (m - 1.0)[:, None, None]


def distances(cats: np.ndarray, level: str, n_c: np.ndarray) -> np.ndarray:
    """Squared distances d_ck for the level; n_c may be batched (B, c) for the ordinal metric."""
    c, k = cats[:, None], cats[None, :]
    if level == "nominal":
        d = (c != k).astype(float)
    elif level == "interval":
        d = (c - k) ** 2
    elif level == "ratio":
        total = c + k
        d = np.divide((c - k) ** 2, total ** 2, out=np.zeros_like(total), where=total != 0)
    else:
        # Ordinal: d_ck = (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2. With the mid-rank
        # r_c = cum_c - n_c / 2, the bracket equals |r_k - r_c|: the interval metric on mid-ranks.
        mid = np.cumsum(n_c, axis=-1) - n_c / 2.0
        d = (mid[..., :, None] - mid[..., None, :]) ** 2
    return d


def alpha_from_coincidences(o: np.ndarray, cats: np.ndarray, level: str) -> np.ndarray:
    """Alpha for one (c, c) or a batch (B, c, c) of coincidence matrices; NaN where undefined."""
    n_c = o.sum(axis=-1)
    n = n_c.sum(axis=-1)
    d = distances(cats, level, n_c)
    observed = (o * d).sum(axis=(-2, -1))
    expected = (n_c[..., :, None] * n_c[..., None, :] * d).sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1.0 - (n - 1.0) * observed / expected


def krippendorff_alpha(values: np.ndarray, level: str = "nominal", *, n_boot: int = 0,
                       seed: int | None = 0, confidence: float = 0.95) -> Stat:
    """Krippendorff's alpha of a raters × units matrix (NaN = missing).

    With `n_boot` > 0, adds a percentile bootstrap interval from resampling units. Undefined
    (value None, with a reason) when no unit has two ratings or every rating is identical.
    """
    validate_level(level)
    v = np.asarray(values, dtype=float)
    if v.shape[0] < 2:
        return undefined("needs at least two raters", n=0)
    cats, counts = unit_value_counts(v)
    if counts.shape[0] == 0:
        return undefined("no unit has ratings from two raters", n=0)
    n_units = counts.shape[0]
    if cats.size < 2:
        return undefined("every rating has the same value, so there is no variation "
                         "to agree on", n=n_units)
    if level == "ratio" and cats[0] < 0:
        return undefined("the ratio level needs non-negative values", n=n_units)
    per_unit = unit_coincidences(counts)
    point = float(alpha_from_coincidences(per_unit.sum(axis=0), cats, level))
    if n_boot <= 0:
        return defined(point, n=n_units)
    boots = bootstrap_alpha(per_unit, cats, level, n_boot, seed)
    return defined(point, n=n_units, **_interval(boots, confidence))


def bootstrap_alpha(per_unit: np.ndarray, cats: np.ndarray, level: str, n_boot: int,
                    seed: int | None = 0) -> np.ndarray:
    """Alpha of `n_boot` unit resamples (NaN for a resample without variation)."""
    rng = np.random.default_rng(seed)
    n_units, c = per_unit.shape[0], cats.size
    flat = per_unit.reshape(n_units, c * c)
    out = np.empty(n_boot)
    for start in range(0, n_boot, _BATCH):
        b = min(_BATCH, n_boot - start)
        draws = rng.integers(0, n_units, size=(b, n_units))
        draws += (np.arange(b) * n_units)[:, None]
        mult = np.bincount(draws.ravel(), minlength=b * n_units).reshape(b, n_units)
        o = (mult.astype(float) @ flat).reshape(b, c, c)
        out[start:start + b] = alpha_from_coincidences(o, cats, level)
    return out


def _interval(boots: np.ndarray, confidence: float) -> dict[str, object]:
    ok = boots[np.isfinite(boots)]
    if ok.size == 0:
        return {"reason": "no bootstrap resample had variation; no interval"}
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(ok, [tail, 100.0 - tail])
    skipped = boots.size - ok.size
    note = f"{skipped} of {boots.size} resamples had no variation" if skipped else None
    return {"low": float(low), "high": float(high), "reason": note}
