"""Krippendorff's alpha: published values, a cross-check with the `krippendorff` package,
the vectorised bootstrap against a plain loop, and degenerate data."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest

from annotation.analysis.alpha import (alpha_from_coincidences, bootstrap_alpha,
                                       krippendorff_alpha, unit_coincidences, unit_value_counts)

N = np.nan
# Krippendorff, K. (2011). "Computing Krippendorff's Alpha-Reliability", section C: 4
# observers × 12 units with missing values ('.' → NaN). Published: nominal .743,
# ordinal .815, interval .849, ratio .797.
K2011 = np.array([
    [1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3],
    [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N],
])


@pytest.mark.parametrize("level,published", [("nominal", 0.743), ("ordinal", 0.815),
                                             ("interval", 0.849), ("ratio", 0.797)])
def test_krippendorff_2011_published_values(level: str, published: float) -> None:
    result = krippendorff_alpha(K2011, level)
    assert result.value == pytest.approx(published, abs=5e-4)
    # Unit 12 has a single rating, so 11 units are pairable.
    assert result.n == 11


def test_nominal_hand_derivation() -> None:
    # Counting the table by hand: units 1-4, 7 and 9 are unanimous (3 or 4 equal values),
    # contributing only to the diagonal. Disagreements, each contributing 1/(m_u - 1) per
    # ordered pair of unequal values:
    #   unit 2 (2,2,3,2; m=4): 3 ordered 2-3 pairs each way  -> o_23 = o_32 += 3 * 1/3 = 1
    #   unit 6 (1,2,3,4; m=4): every ordered pair once       -> each o_ck (c != k) += 1/3
    #   unit 8 (1,1,2,1; m=4): 3 ordered 1-2 pairs each way  -> o_12 = o_21 += 1
    # so the off-diagonal sum is 2 + 12/3 + 2 = 8. Marginals n_c = 9, 13, 10, 5, 3 (n = 40).
    # Nominal: alpha = 1 - (n - 1) * 8 / (n^2 - sum n_c^2) = 1 - 39 * 8 / (1600 - 384)
    #        = 1 - 312 / 1216 = 0.74342 (published: 0.743).
    cats, counts = unit_value_counts(K2011)
    o = unit_coincidences(counts).sum(axis=0)
    assert list(cats) == [1, 2, 3, 4, 5]
    assert list(o.sum(axis=1)) == pytest.approx([9, 13, 10, 5, 3])
    assert o.sum() - np.trace(o) == pytest.approx(8.0)
    assert o[1, 2] == pytest.approx(1 + 1 / 3)
    assert np.allclose(o, o.T)
    assert krippendorff_alpha(K2011).value == pytest.approx(1 - 312 / 1216)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_matches_krippendorff_package_on_random_data(level: str) -> None:
    rng = np.random.default_rng(7)
    truth = rng.integers(1, 7, 60)
    data = np.clip(truth + rng.integers(-2, 3, (4, 60)), 1, 7).astype(float)
    data[rng.random(data.shape) < 0.2] = np.nan
    ours = krippendorff_alpha(data, level).value
    theirs = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    assert ours == pytest.approx(theirs, abs=1e-9)


def test_vectorised_bootstrap_equals_a_plain_loop() -> None:
    # Each resample, built by hand from the same unit draws, must give the same alpha.
    cats, counts = unit_value_counts(K2011)
    per_unit = unit_coincidences(counts)
    boots = bootstrap_alpha(per_unit, cats, "ordinal", 50, seed=11)
    rng = np.random.default_rng(11)
    n = per_unit.shape[0]
    draws = rng.integers(0, n, size=(50, n))  # first (only) batch uses the same draws
    for b in range(50):
        o = per_unit[draws[b]].sum(axis=0)
        expected = alpha_from_coincidences(o, cats, "ordinal")
        if np.isfinite(expected):
            assert boots[b] == pytest.approx(float(expected))
        else:
            assert np.isnan(boots[b])


def test_bootstrap_interval_brackets_the_estimate_and_is_reproducible() -> None:
    rng = np.random.default_rng(2)
    truth = rng.integers(1, 6, 200)
    data = np.clip(truth + rng.integers(-1, 2, (3, 200)), 1, 5).astype(float)
    a = krippendorff_alpha(data, "interval", n_boot=300, seed=5)
    b = krippendorff_alpha(data, "interval", n_boot=300, seed=5)
    assert a.low is not None and a.high is not None
    assert a.low < a.value < a.high
    assert (a.low, a.high) == (b.low, b.high)
    assert a.high - a.low < 0.2


def test_one_rater_is_undefined() -> None:
    r = krippendorff_alpha(np.array([[1.0, 2.0, 3.0]]), "nominal")
    assert r.value is None and "two raters" in r.reason


def test_all_missing_is_undefined() -> None:
    r = krippendorff_alpha(np.full((3, 4), np.nan), "interval", n_boot=10)
    assert r.value is None and "no unit" in r.reason


def test_no_overlap_is_undefined() -> None:
    # Every unit has one rating only: nothing is pairable.
    data = np.array([[1.0, N, 3.0], [N, 2.0, N]])
    assert krippendorff_alpha(data).reason.startswith("no unit has ratings")


def test_identical_ratings_are_undefined_not_nan() -> None:
    r = krippendorff_alpha(np.full((3, 5), 4.0), "ordinal", n_boot=20)
    assert r.value is None and "same value" in r.reason


def test_one_unit_with_variation_is_zero() -> None:
    # With one unit, o_ck = n_c n_k / (m - 1) off the diagonal, so the observed and the
    # expected disagreement coincide and alpha = 1 - (n-1)/(m-1) * 1 = 0 (n = m).
    r = krippendorff_alpha(np.array([[1.0], [2.0], [2.0]]), "nominal", n_boot=10)
    assert r.value == pytest.approx(0.0)


def test_perfect_agreement_is_one() -> None:
    data = np.array([[1.0, 2.0, 3.0, 1.0], [1.0, 2.0, 3.0, 1.0]])
    for level in ("nominal", "ordinal", "interval", "ratio"):
        assert krippendorff_alpha(data, level).value == pytest.approx(1.0)


def test_ratio_level_refuses_negative_values() -> None:
    data = np.array([[-1.0, 2.0, 3.0], [-1.0, 2.0, 2.0]])
    r = krippendorff_alpha(data, "ratio")
    assert r.value is None and "non-negative" in r.reason


def test_unknown_level_is_an_input_error() -> None:
    from core.errors import InputError
    with pytest.raises(InputError):
        krippendorff_alpha(K2011, "cardinal")
