"""Judge versus humans: correlations, QWK, MAE, bias, Bland–Altman, ceiling, system level."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import cohen_kappa_score

from annotation.analysis.compare import (bootstrap_correlations, compare_nominal,
                                         compare_numeric, multiplicities, qwk,
                                         resample_weights)
from annotation.analysis.data import RatingMatrix
from annotation.analysis.judge import judge_vs_humans, system_level, system_means


def _matrix(rows: dict[str, list[float]], systems: dict[str, str] | None = None) -> RatingMatrix:
    raters = list(rows)
    n = len(next(iter(rows.values())))
    return RatingMatrix(raters, [f"u{i}" for i in range(n)],
                        np.array([rows[r] for r in raters], dtype=float), None, systems or {})


def test_qwk_equals_cohen_quadratic_on_integers() -> None:
    rng = np.random.default_rng(9)
    a = rng.integers(1, 6, 70)
    b = np.clip(a + rng.integers(-1, 3, 70), 1, 5)
    # For integer scores whose observed range is the full scale, the generalised formula
    # equals sklearn's quadratic-weighted kappa.
    assert qwk(a.astype(float), b.astype(float)).value == pytest.approx(
        cohen_kappa_score(a, b, weights="quadratic"))


def test_lenient_judge_hand_derivation() -> None:
    # Judge = reference + 1 everywhere: MAE = 1, mean difference = +1 (lenient), the SD of
    # the differences is 0, so both Bland–Altman limits are 1; correlations are 1.
    ref = np.array([1.0, 2.0, 3.0, 4.0, 2.0])
    c = compare_numeric(ref + 1, ref, n_boot=50)
    assert c.mae.value == pytest.approx(1.0)
    assert c.mean_diff.value == pytest.approx(1.0)
    assert (c.loa_low.value, c.loa_high.value) == pytest.approx((1.0, 1.0))
    assert c.pearson.value == pytest.approx(1.0) and c.spearman.value == pytest.approx(1.0)
    # QWK = 1 - n sum (x_i - y_i)^2 / sum_i sum_j (x_i - y_j)^2 with x = y + 1:
    # numerator 5 * 5 = 25; denominator sum_ij (y_i - y_j + 1)^2 = sum_ij (y_i - y_j)^2 + 25
    # = 2 * 5 * sum (y - 2.4)^2 + 25 = 10 * 5.2 + 25 = 77 (the cross term sums to zero).
    assert c.qwk.value == pytest.approx(1 - 25 / 77)


def test_harsh_judge_and_bland_altman_limits() -> None:
    # Differences judge - ref: -1, -2, -1, 0 → mean -1, SD sqrt(2/3); limits -1 ± 1.96 SD.
    judge = np.array([1.0, 1.0, 3.0, 5.0])
    ref = np.array([2.0, 3.0, 4.0, 5.0])
    c = compare_numeric(judge, ref, n_boot=0)
    sd = np.sqrt(2 / 3)
    assert c.mean_diff.value == pytest.approx(-1.0)
    assert c.loa_low.value == pytest.approx(-1 - 1.96 * sd)
    assert c.loa_high.value == pytest.approx(-1 + 1.96 * sd)
    assert c.kendall.value == pytest.approx(stats.kendalltau(judge, ref).statistic)
    assert c.spearman.low is None  # no bootstrap asked


def test_vectorised_bootstrap_correlations_equal_explicit_resamples() -> None:
    rng = np.random.default_rng(0)
    x = rng.integers(1, 6, 40).astype(float)
    y = x + rng.normal(0, 1, 40).round(1)
    boots = bootstrap_correlations(x, y, 15, seed=3)
    w = multiplicities(40, 15, np.random.default_rng(3))
    for b in range(15):
        xb, yb = np.repeat(x, w[b].astype(int)), np.repeat(y, w[b].astype(int))
        assert boots["pearson"][b] == pytest.approx(stats.pearsonr(xb, yb).statistic)
        assert boots["spearman"][b] == pytest.approx(stats.spearmanr(xb, yb).statistic)
        assert boots["kendall"][b] == pytest.approx(stats.kendalltau(xb, yb).statistic)


def test_correlations_undefined_with_reasons() -> None:
    few = compare_numeric(np.array([1.0, 2.0]), np.array([1.0, 3.0]), n_boot=10)
    assert few.pearson.value is None and "three units" in few.pearson.reason
    flat = compare_numeric(np.array([3.0, 3.0, 3.0]), np.array([1.0, 2.0, 3.0]), n_boot=10)
    assert flat.spearman.value is None and "do not vary" in flat.spearman.reason
    none = compare_numeric(np.array([np.nan]), np.array([1.0]))
    assert none.n_units == 0 and none.mae.value is None and none.qwk.value is None


def test_nominal_accuracy() -> None:
    # Unit 1: judge 0, humans (0, 0, 1) → 2/3. Unit 2: judge 1, humans (0, 0) → 0.
    # Unit 3: judge missing → skipped. Accuracy = (2/3 + 0) / 2 = 1/3.
    judge = np.array([0.0, 1.0, np.nan])
    humans = np.array([[0, 0, 1], [0, 0, 1], [1, np.nan, 0]], dtype=float)
    c = compare_nominal(judge, humans)
    assert c.accuracy.value == pytest.approx(1 / 3) and c.n_units == 2
    assert c.pearson.value is None


def test_ceiling_is_leave_one_out() -> None:
    m = _matrix({"a": [1, 2, 3, 4], "b": [1, 2, 3, 5], "c": [2, 2, 3, 4], "j": [1, 3, 3, 4]})
    r = judge_vs_humans(m, "j", nominal=False, n_boot=20)
    assert r.humans == ["a", "b", "c"] and [row.rater for row in r.ceiling] == r.humans
    # Human a against mean(b, c) = (1.5, 2, 3, 4.5): differences (-.5, 0, 0, -.5), MAE .25.
    row_a = r.ceiling[0]
    assert row_a.human.mae.value == pytest.approx(0.25)
    # The judge against the same reference: (-.5, 1, 0, -.5) → MAE .5, bias 0.
    assert row_a.judge.mae.value == pytest.approx(0.5)
    assert row_a.judge.mean_diff.value == pytest.approx(0.0)
    maes = [row.human.mae.value for row in r.ceiling]
    assert r.ceiling_mean["human.mae"] == pytest.approx(np.mean(maes))
    # Item level: judge against mean(a, b, c) = (4/3, 2, 3, 13/3).
    assert r.item_level.mean_diff.value == pytest.approx(np.mean([-1 / 3, 1, 0, -1 / 3]))


def test_system_level_correlation_of_system_means() -> None:
    # Three systems, two units each. System means — judge: s1 1.5, s2 3.5, s3 2.5;
    # humans: s1 2, s2 4, s3 3 → perfectly concordant: Spearman = Kendall = 1, Pearson = 1.
    judge = np.array([1, 2, 3, 4, 2, 3], dtype=float)
    ref = np.array([2, 2, 4, 4, 3, 3], dtype=float)
    systems = ["s1", "s1", "s2", "s2", "s3", "s3"]
    out, n = system_level(judge, ref, systems, n_boot=100)
    assert n == 3
    assert out["spearman"].value == pytest.approx(1.0)
    assert out["pearson"].value == pytest.approx(1.0)
    assert out["kendall"].low is not None and out["kendall"].high <= 1.0 + 1e-12


def test_system_level_needs_three_systems() -> None:
    out, n = system_level(np.array([1.0, 2.0]), np.array([1.0, 2.0]), ["s1", "s2"])
    assert n == 2 and out["pearson"].value is None and "three systems" in out["pearson"].reason
    out, n = system_level(np.array([1.0, 2.0]), np.array([1.0, 2.0]), [None, None])
    assert n == 0 and "'system' column" in out["spearman"].reason


def test_ceiling_rows_pair_human_and_judge_on_the_same_units() -> None:
    # a: 1 2 3 4 5 .    b: 2 2 3 5 . 6    c: 1 3 . 4 5 6    judge: . 2 3 4 5 6
    # Held-out a: units rated by a, by the judge and by b or c are u1..u4 (u0 lacks the
    # judge, u5 lacks a), so both a's row and the judge's row rest on those 4 units. The
    # references (mean of b, c) there are 2.5, 3, 4.5, 5: a scores 2, 3, 4, 5 → MAE .25;
    # the judge scores 2, 3, 4, 5 too → MAE .25. (Before, a used u0..u4 and the judge u1..u5.)
    m = _matrix({"a": [1, 2, 3, 4, 5, np.nan], "b": [2, 2, 3, 5, np.nan, 6],
                 "c": [1, 3, np.nan, 4, 5, 6], "j": [np.nan, 2, 3, 4, 5, 6]})
    r = judge_vs_humans(m, "j", nominal=False, n_boot=0)
    rows = {row.rater: row for row in r.ceiling}
    assert rows["a"].human.n_units == rows["a"].judge.n_units == 4
    assert rows["a"].human.mae.value == pytest.approx(0.25)
    assert rows["a"].judge.mae.value == pytest.approx(0.25)
    for row in r.ceiling:
        assert row.human.n_units == row.judge.n_units


def test_cluster_bootstrap_resamples_whole_clusters() -> None:
    # Ten transcripts with three rated units each: a resample draws transcripts, so every
    # unit of a transcript gets its transcript's multiplicity. Each replicate equals the
    # correlation of the data rebuilt from those cluster draws.
    rng = np.random.default_rng(1)
    clusters = np.repeat(np.arange(10), 3)
    x = rng.normal(0, 1, 30)
    y = x + rng.normal(0, 1, 30)
    boots = bootstrap_correlations(x, y, 12, seed=4, clusters=clusters)
    w = resample_weights(clusters, 12, np.random.default_rng(4))
    assert np.all(w.reshape(12, 10, 3) == w.reshape(12, 10, 3)[:, :, :1])
    for b in range(12):
        xb, yb = np.repeat(x, w[b].astype(int)), np.repeat(y, w[b].astype(int))
        assert boots["pearson"][b] == pytest.approx(stats.pearsonr(xb, yb).statistic)
        assert boots["kendall"][b] == pytest.approx(stats.kendalltau(xb, yb).statistic)


def test_system_means_behind_the_system_level_correlations() -> None:
    judge = np.array([1, 2, 3, 4, 2, 3], dtype=float)
    ref = np.array([2, 2, 4, 4, 3, 3], dtype=float)
    means = system_means(judge, ref, ["s1", "s1", "s2", "s2", "s3", "s3"])
    assert [(m.system, m.n_units, m.judge_mean, m.human_mean) for m in means] == [
        ("s1", 2, 1.5, 2.0), ("s2", 2, 3.5, 4.0), ("s3", 2, 2.5, 3.0)]
