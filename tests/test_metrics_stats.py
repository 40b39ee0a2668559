"""Statistics behind the metrics: Wilson interval, bootstrap, Kendall tau-b."""

from __future__ import annotations

import pytest
from scipy import stats as scipy_stats

from core.metrics.stats import bootstrap_interval, kendall_tau_b, wilson_interval


def test_wilson_half_is_symmetric_and_matches_hand_derivation() -> None:
    # p = 0.5, n = 10, z² = 3.8415: centre = (0.5 + 0.19207) / 1.38415 = 0.5;
    # half = 1.95996 / 1.38415 × sqrt(0.025 + 0.0096) = 0.26339 → (0.2366, 0.7634).
    lo, hi = wilson_interval(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4)
    assert hi == pytest.approx(0.7634, abs=1e-4)


def test_wilson_at_the_edges_stays_inside_0_1() -> None:
    # 0/10: centre = 0.19207 / 1.38415 = 0.13876, half = 1.41599 × 0.098 = 0.13876 → (0, 0.2775)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0
    assert hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(10, 10)
    assert hi == pytest.approx(1.0) and lo == pytest.approx(0.7225, abs=1e-4)


def test_wilson_without_observations_is_none_and_bad_counts_raise() -> None:
    assert wilson_interval(0, 0) is None
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_kendall_tau_b_hand_values_and_scipy_agreement() -> None:
    assert kendall_tau_b([1, 2, 3], [1, 2, 3]) == 1.0
    assert kendall_tau_b([1, 2, 3], [3, 2, 1]) == -1.0
    # Pairs of x=[1,2,3], y=[1,1,2]: (1,2) tie in y; (1,3) and (2,3) concordant.
    # S = 2, n0 = 3, ties_y = 1 → 2 / sqrt(3 × 2) = 0.8165.
    assert kendall_tau_b([1, 2, 3], [1, 1, 2]) == pytest.approx(0.81650, abs=1e-5)
    x, y = [0, 1, 2, 3, 4, 5], [2, 1, 4, 4, 6, 5]
    assert kendall_tau_b(x, y) == pytest.approx(scipy_stats.kendalltau(x, y).statistic)


def test_kendall_degenerate_inputs_are_none() -> None:
    assert kendall_tau_b([], []) is None
    assert kendall_tau_b([1], [5]) is None
    assert kendall_tau_b([1, 2, 3], [4, 4, 4]) is None  # constant: 0/0
    with pytest.raises(ValueError):
        kendall_tau_b([1, 2], [1])


def test_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    values = [0, 25, 50, 75, 100, 100, 50]
    a = bootstrap_interval(values)
    assert a == bootstrap_interval(values)  # same seed, same interval
    lo, hi = a
    assert lo < sum(values) / len(values) < hi
    assert bootstrap_interval([40, 40, 40]) == (40.0, 40.0)


def test_bootstrap_needs_two_values() -> None:
    assert bootstrap_interval([]) is None
    assert bootstrap_interval([55.0]) is None
    assert bootstrap_interval([None, 3.0]) is None  # type: ignore[list-item]
