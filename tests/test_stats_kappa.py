"""Cohen's kappa (unweighted, linear, quadratic) and Fleiss' kappa: published values,
hand derivations, a scikit-learn cross-check, the full-scale rule and degenerate data."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score

from annotation.analysis.kappa import (cohen_kappa, fleiss_from_counts, fleiss_kappa,
                                       kappa_from_table, pairwise_cohen, weight_matrix)


def test_cohen_two_by_two_published() -> None:
    # Wikipedia, "Cohen's kappa", worked example: 50 applications, table [[20, 5], [10, 15]].
    # p_o = (20 + 15) / 50 = 0.70; p_yes = 25/50 * 30/50 = 0.30; p_no = 25/50 * 20/50 = 0.20;
    # p_e = 0.50; kappa = (0.70 - 0.50) / (1 - 0.50) = 0.40.
    r = kappa_from_table([[20, 5], [10, 15]])
    assert r.value == pytest.approx(0.40)
    assert r.n == 50


def test_weighted_kappa_published_example() -> None:
    # SAS/STAT User's Guide, "The FREQ Procedure", Getting Started: Agreement Study. Two
    # dermatologists rate 88 patients' skin condition as terrible, poor, marginal or clear
    # (rows: dermatologist 1, columns: dermatologist 2). Published output: simple kappa
    # 0.3449, weighted kappa 0.5082 with SAS's default Cicchetti–Allison weights,
    # 1 - |i - j| / (k - 1), which are the linear weights.
    skin = [[10, 4, 1, 0], [5, 10, 12, 2], [2, 4, 12, 5], [0, 2, 6, 13]]
    simple = kappa_from_table(skin)
    assert simple.value == pytest.approx(0.3449, abs=5e-5) and simple.n == 88
    assert kappa_from_table(skin, "linear").value == pytest.approx(0.5082, abs=5e-5)
    # The same ratings as two rating vectors over the 4-point scale.
    a, b = _vectors(skin)
    assert cohen_kappa(a, b, scale=[1, 2, 3, 4], weights="linear").value == pytest.approx(
        0.5082, abs=5e-5)


# Hand-derived 3-category example (n = 10): rows rater A, columns rater B.
TABLE3 = [[3, 1, 0], [1, 2, 1], [0, 0, 2]]


def test_weighted_kappa_hand_derivation() -> None:
    # Row marginals r = (.4, .4, .2), column marginals c = (.4, .3, .3).
    # Unweighted: p_o = 7/10; p_e = .4*.4 + .4*.3 + .2*.3 = .34; kappa = .36/.66 = 6/11.
    # Linear weights |i-j|/2: observed disagreement = .5 * 3/10 = .15 (three adjacent
    #   off-diagonal ratings); expected = sum w_ij r_i c_j = .5*(.4*.3 + .4*.4 + .4*.3 + .2*.3)
    #   + 1*(.4*.3 + .2*.4) = .23 + .20 = .43; kappa = 1 - .15/.43 = 28/43.
    # Quadratic weights (|i-j|/2)^2: observed = .25 * .3 = .075; expected = .25 * .46 + .20
    #   = .315; kappa = 1 - .075/.315 = 16/21.
    assert kappa_from_table(TABLE3).value == pytest.approx(6 / 11)
    assert kappa_from_table(TABLE3, "linear").value == pytest.approx(28 / 43)
    assert kappa_from_table(TABLE3, "quadratic").value == pytest.approx(16 / 21)


def _vectors(table: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    a, b = [], []
    for i, row in enumerate(table):
        for j, count in enumerate(row):
            a += [i + 1] * count
            b += [j + 1] * count
    return np.array(a, dtype=float), np.array(b, dtype=float)


@pytest.mark.parametrize("weights,sk", [("none", None), ("linear", "linear"),
                                        ("quadratic", "quadratic")])
def test_cohen_matches_scikit_learn(weights: str, sk: str | None) -> None:
    rng = np.random.default_rng(4)
    a = rng.integers(1, 6, 80)
    b = np.clip(a + rng.integers(-2, 3, 80), 1, 5)
    ours = cohen_kappa(a.astype(float), b.astype(float), scale=[1, 2, 3, 4, 5], weights=weights)
    assert ours.value == pytest.approx(cohen_kappa_score(a, b, weights=sk))


def test_full_scale_counts_unused_values() -> None:
    # Raters use 1, 2 and 5 of a 1..5 scale. Over the full scale, 2 and 5 are three steps
    # apart; over the values seen they would be adjacent, which inflates weighted kappa.
    a, b = _vectors(TABLE3)
    a[a == 3], b[b == 3] = 5, 5
    full = cohen_kappa(a, b, scale=[1, 2, 3, 4, 5], weights="linear").value
    seen = cohen_kappa(a, b, weights="linear").value
    sk_full = cohen_kappa_score(a, b, weights="linear", labels=[1, 2, 3, 4, 5])
    assert full == pytest.approx(sk_full)
    assert seen == pytest.approx(28 / 43)
    assert full != pytest.approx(seen)


def test_missing_ratings_use_common_units_only() -> None:
    a = np.array([1, 2, np.nan, 3, 1], dtype=float)
    b = np.array([1, 2, 3, np.nan, 2], dtype=float)
    r = cohen_kappa(a, b, scale=[1, 2, 3])
    assert r.n == 3
    # Common units: (1,1), (2,2), (1,2): p_o = 2/3; marginals A (2/3, 1/3, 0),
    # B (1/3, 2/3, 0); p_e = 2/9 + 2/9 = 4/9; kappa = (2/3 - 4/9) / (5/9) = 2/5.
    assert r.value == pytest.approx(0.4)


def test_pairwise_lists_every_pair_with_three_weightings() -> None:
    values = np.array([[1, 2, 3, 1], [1, 2, 3, 2], [2, 2, 3, 1]], dtype=float)
    pairs = pairwise_cohen(values, ["a", "b", "c"], scale=[1, 2, 3])
    assert [(p.rater_a, p.rater_b) for p in pairs] == [("a", "b"), ("a", "c"), ("b", "c")]
    ab = pairs[0]
    assert ab.none.value == pytest.approx(
        cohen_kappa_score([1, 2, 3, 1], [1, 2, 3, 2]))
    assert ab.quadratic.value == pytest.approx(
        cohen_kappa_score([1, 2, 3, 1], [1, 2, 3, 2], weights="quadratic"))


def test_cohen_degenerate_cases() -> None:
    # Both raters always say 2: chance disagreement is zero, kappa is undefined.
    same = cohen_kappa(np.array([2.0, 2.0, 2.0]), np.array([2.0, 2.0, 2.0]), scale=[1, 2, 3])
    assert same.value is None and "chance disagreement" in same.reason
    # No common unit.
    none = cohen_kappa(np.array([1.0, np.nan]), np.array([np.nan, 2.0]), scale=[1, 2])
    assert none.value is None and none.n == 0
    # A value outside the declared scale is a programming error, not a silent miscount.
    with pytest.raises(ValueError):
        cohen_kappa(np.array([1.0, 7.0]), np.array([1.0, 2.0]), scale=[1, 2, 3])


def test_weight_matrices() -> None:
    assert weight_matrix(3, "linear").tolist() == [[0, .5, 1], [.5, 0, .5], [1, .5, 0]]
    assert weight_matrix(3, "quadratic")[0, 2] == 1.0
    assert weight_matrix(3, "none").trace() == 0


# Fleiss (1971), as reproduced in Wikipedia "Fleiss' kappa": 10 subjects × 14 raters,
# 5 categories; published kappa = 0.210 (P = 0.378, P_e = 0.213).
FLEISS = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
          [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]


def test_fleiss_published_value() -> None:
    r = fleiss_from_counts(FLEISS)
    assert r.value == pytest.approx(0.210, abs=5e-4)
    assert r.n == 10


def test_fleiss_from_ratings_matrix_equals_counts() -> None:
    # Expand the count table into a 14 raters × 10 subjects matrix of category codes.
    cols = []
    for row in FLEISS:
        cols.append([c for c, k in enumerate(row) for _ in range(k)])
    values = np.array(cols, dtype=float).T
    assert fleiss_kappa(values).value == pytest.approx(fleiss_from_counts(FLEISS).value)


def test_fleiss_with_missing_uses_per_unit_rater_counts() -> None:
    # Unit 1: 3 raters (a, a, b): P_1 = (4 + 1 - 3) / 6 = 1/3. Unit 2: 2 raters (b, b):
    # P_2 = 1. Unit 3: one rating only, ignored. P = 2/3. p_a = 2/5, p_b = 3/5,
    # P_e = 4/25 + 9/25 = 13/25. kappa = (2/3 - 13/25) / (12/25) = (50 - 39) / 36 = 11/36.
    values = np.array([[0, 1, 0], [0, 1, np.nan], [1, np.nan, np.nan]], dtype=float)
    assert fleiss_kappa(values).value == pytest.approx(11 / 36)


def test_fleiss_degenerate_cases() -> None:
    assert fleiss_kappa(np.array([[1.0, 2.0]])).reason == "needs at least two raters"
    same = fleiss_kappa(np.full((3, 4), 2.0))
    assert same.value is None and "one category" in same.reason
    empty = fleiss_kappa(np.full((3, 4), np.nan))
    assert empty.value is None and empty.n == 0


def test_nominal_pairs_have_no_weighted_kappa() -> None:
    values = np.array([[0, 1, 2, 0], [0, 1, 1, 0]], dtype=float)
    (pair,) = pairwise_cohen(values, ["a", "b"], scale=[0, 1, 2], ordered=False)
    assert pair.none.value == pytest.approx(cohen_kappa_score([0, 1, 2, 0], [0, 1, 1, 0]))
    assert pair.linear.value is None and "nominal" in pair.linear.reason
