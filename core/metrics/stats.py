"""Small statistics used by the metrics: Wilson interval, percentile bootstrap, Kendall tau-b.

Written out here (not scipy) so the headless metrics import fast and every degenerate case
has an explicit answer (None) instead of NaN.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval for a proportion; None when n is 0.

    Unlike the normal approximation it stays inside [0, 1] and is sensible at 0/n and n/n.
    """
    if n <= 0:
        return None
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be in 0..{n}, got {successes}")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap_interval(values: Sequence[float], *, level: float = 0.95,
                       n_resamples: int = 2000, seed: int = 0) -> tuple[float, float] | None:
    """Percentile bootstrap interval of the mean; None with fewer than 2 values.

    Seeded, so the same scores always give the same interval (results tables are stable).
    """
    data = [float(v) for v in values if v is not None and math.isfinite(float(v))]
    if len(data) < 2:
        return None
    import numpy as np  # deferred: only aggregation needs it

    rng = np.random.default_rng(seed)
    arr = np.asarray(data)
    idx = rng.integers(0, len(arr), size=(n_resamples, len(arr)))
    means = arr[idx].mean(axis=1)
    alpha = (1 - level) / 2
    lo, hi = np.quantile(means, [alpha, 1 - alpha])
    return float(lo), float(hi)


def _sign(v: float) -> int:
    return (v > 0) - (v < 0)


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall's tau-b (ties corrected) between two paired sequences.

    None when fewer than 2 pairs, or when either sequence is constant (tau is then 0/0).
    """
    if len(x) != len(y):
        raise ValueError("x and y must have the same length")
    n = len(x)
    if n < 2:
        return None
    s = ties_x = ties_y = 0
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = _sign(x[i] - x[j]), _sign(y[i] - y[j])
            s += dx * dy
            ties_x += dx == 0
            ties_y += dy == 0
    pairs = n * (n - 1) // 2
    denom = math.sqrt((pairs - ties_x) * (pairs - ties_y))
    return None if denom == 0 else s / denom
