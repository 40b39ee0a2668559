"""Krippendorff's alpha: published values, cross-checks with the `krippendorff` package, the
batched bootstrap against explicit resamples, bounded memory on continuous scores, and
degenerate data."""

from __future__ import annotations

import tracemalloc

import krippendorff
import numpy as np
import pytest

from annotation.analysis.alpha import (alpha_of_weights, bootstrap_alpha, krippendorff_alpha,
                                       pairable, unit_pair_sums)
from annotation.analysis.compare import multiplicities

N = np.nan
LEVELS = ("nominal", "ordinal", "interval", "ratio")
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
    # so they add no disagreement. The others, each ordered pair of unequal values counting
    # 1/(m_u - 1):
    #   unit 2 (2,2,3,2; m=4): 6 ordered unequal pairs             -> 6/3 = 2
    #   unit 6 (1,2,3,4; m=4): all 12 ordered pairs are unequal    -> 12/3 = 4
    #   unit 8 (1,1,2,1; m=4): 6 ordered unequal pairs             -> 6/3 = 2
    # so D_o = 8. Pairable values per category n_c = 9, 13, 10, 5, 3 (n = 40).
    # Nominal: alpha = 1 - (n - 1) * 8 / (n^2 - sum n_c^2) = 1 - 39 * 8 / (1600 - 384)
    #        = 1 - 312 / 1216 = 0.74342 (published: 0.743).
    p = pairable(K2011)
    assert list(p.cats) == [1, 2, 3, 4, 5]
    assert list(np.asarray(p.counts.sum(axis=0)).ravel()) == [9, 13, 10, 5, 3]
    pair_sums = unit_pair_sums(p, "nominal")
    assert (pair_sums / (p.m - 1)).sum() == pytest.approx(8.0)
    assert krippendorff_alpha(K2011).value == pytest.approx(1 - 312 / 1216)


def test_interval_pair_sums_from_unit_moments() -> None:
    # Unit 6 is (1, 2, 3, 4): the ordered pairs' squared differences are 2 × (1 + 4 + 9 + 1 +
    # 4 + 1) = 40, and 2 (m S2 - S1^2) = 2 (4 × 30 - 10^2) = 40 gives the same without pairs.
    p = pairable(K2011)
    sums = unit_pair_sums(p, "interval")
    assert sums[5] == pytest.approx(40.0)
    # Units 1, 3, 4 are unanimous.
    assert sums[[0, 2, 3]] == pytest.approx([0.0, 0.0, 0.0])


@pytest.mark.parametrize("level", LEVELS)
def test_matches_krippendorff_package_on_random_data(level: str) -> None:
    rng = np.random.default_rng(7)
    truth = rng.integers(1, 7, 60)
    data = np.clip(truth + rng.integers(-2, 3, (4, 60)), 1, 7).astype(float)
    data[rng.random(data.shape) < 0.2] = np.nan
    ours = krippendorff_alpha(data, level).value
    theirs = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    assert ours == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize("level", LEVELS)
def test_matches_the_package_on_continuous_scores(level: str) -> None:
    # Nearly every value distinct: the regime where a c × c array per unit used to explode.
    rng = np.random.default_rng(3)
    truth = rng.gamma(4.0, 2.0, 150)
    data = truth + rng.normal(0, 1.0, (3, 150))
    data = np.abs(data)  # the ratio level needs non-negative values
    data[rng.random(data.shape) < 0.1] = np.nan
    ours = krippendorff_alpha(data, level).value
    theirs = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    assert ours == pytest.approx(theirs, abs=1e-9)


@pytest.mark.parametrize("level", LEVELS)
def test_bootstrap_resamples_equal_alpha_of_the_resampled_data(level: str) -> None:
    # Each bootstrap replicate must be the alpha of the data with its units repeated as
    # drawn: rebuild the first 40 resamples from the same draws and ask the package.
    p = pairable(K2011)
    boots = bootstrap_alpha(p, level, 40, seed=11)
    w = multiplicities(p.n_units, 40, np.random.default_rng(11))  # the first (only) batch
    for b in range(40):
        resampled = np.repeat(p.values, w[b].astype(int), axis=1)
        if np.unique(resampled[~np.isnan(resampled)]).size < 2:
            assert np.isnan(boots[b])  # no variation in this resample: undefined
            continue
        expected = krippendorff.alpha(reliability_data=resampled, level_of_measurement=level)
        assert boots[b] == pytest.approx(expected, abs=1e-9)


def test_point_estimate_is_the_row_of_ones() -> None:
    p = pairable(K2011)
    assert alpha_of_weights(p, "ordinal", np.ones((1, p.n_units)))[0] == pytest.approx(
        krippendorff_alpha(K2011, "ordinal").value)


def test_large_continuous_interval_data_stays_small_in_memory() -> None:
    # 3 raters × 2,000 units of continuous scores: about 6,000 distinct values. A units × c × c
    # coincidence array would need 2,000 × 6,000² × 8 bytes ≈ 576 GB; here the largest arrays
    # are units × 128 resamples. Measured with tracemalloc (numpy reports its buffers to it).
    rng = np.random.default_rng(5)
    truth = rng.normal(50, 10, 2000)
    data = truth + rng.normal(0, 4, (3, 2000))
    data[rng.random(data.shape) < 0.05] = np.nan
    tracemalloc.start()
    try:
        result = krippendorff_alpha(data, "interval", n_boot=1000, seed=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 2 ** 20
    assert result.n == int(((~np.isnan(data)).sum(axis=0) >= 2).sum())
    assert result.low < result.value < result.high
    # Expected ≈ var(truth) / (var(truth) + var(noise)) = 100 / 116; the package agrees on a
    # slice small enough for its own c × c matrix.
    assert result.value == pytest.approx(100 / 116, abs=0.03)
    sliced = data[:, :150]
    assert krippendorff_alpha(sliced, "interval").value == pytest.approx(
        krippendorff.alpha(reliability_data=sliced, level_of_measurement="interval"), abs=1e-9)


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


def test_a_singly_rated_unit_does_not_count_as_variation() -> None:
    # Every unit rated twice has the value 4; unit 3, rated once, has 9. The categories come
    # from the pairable units only, so the answer is "no variation", not a bootstrap note.
    data = np.array([[4.0, 4.0, 9.0], [4.0, 4.0, N]])
    for level in LEVELS:
        r = krippendorff_alpha(data, level, n_boot=50)
        assert r.value is None and "same value" in r.reason, level
        assert "bootstrap" not in r.reason


def test_one_unit_with_variation_is_zero() -> None:
    # With one unit, o_ck = n_c n_k / (m - 1) off the diagonal, so the observed and the
    # expected disagreement coincide and alpha = 1 - (n-1)/(m-1) * 1 = 0 (n = m).
    r = krippendorff_alpha(np.array([[1.0], [2.0], [2.0]]), "nominal", n_boot=10)
    assert r.value == pytest.approx(0.0)


def test_perfect_agreement_is_one() -> None:
    data = np.array([[1.0, 2.0, 3.0, 1.0], [1.0, 2.0, 3.0, 1.0]])
    for level in LEVELS:
        assert krippendorff_alpha(data, level).value == pytest.approx(1.0)


def test_ratio_level_refuses_negative_values() -> None:
    data = np.array([[-1.0, 2.0, 3.0], [-1.0, 2.0, 2.0]])
    r = krippendorff_alpha(data, "ratio")
    assert r.value is None and "non-negative" in r.reason


def test_unknown_level_is_an_input_error() -> None:
    from core.errors import InputError
    with pytest.raises(InputError):
        krippendorff_alpha(K2011, "cardinal")
