"""The alternative annotator test: a hand-derived case, Benjamini–Yekutieli, the Wilcoxon
branch and degenerate data."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from annotation.analysis.annotator_test import (alignment, alt_test, benjamini_yekutieli,
                                                one_sided_p)
from annotation.analysis.data import RatingMatrix


def _nominal(n_all_agree: int, n_judge_off: int, n_c_off: int) -> RatingMatrix:
    """Humans a, b, c and judge j with labels 0/1, built from three unit patterns:
    P1 everyone says 0; P2 humans say 0 and the judge 1; P3 a, b and the judge say 0, c 1."""
    cols = ([[0, 0, 0, 0]] * n_all_agree + [[0, 0, 0, 1]] * n_judge_off
            + [[0, 0, 1, 0]] * n_c_off)
    values = np.array(cols, dtype=float).T
    units = [f"u{i}" for i in range(values.shape[1])]
    return RatingMatrix(["a", "b", "c", "j"], units, values)


def test_hand_derived_case_with_t_tests() -> None:
    # 40 units: 30 × P1, 4 × P2, 6 × P3; epsilon 0.2.
    # Held-out a (others b, c): P1 both score 1 → both win, d = 0; P2 judge 0 vs a 1 → only a
    #   wins, d = 1; P3 others (0, 1): judge .5, a .5 → tie, d = 0. So d = four 1s and 36 0s:
    #   mean .1, var = (4 - 40 * .01) / 39 = 3.6/39, t = (.1 - .2) / sqrt(3.6/39/40) = -2.0817.
    #   Judge win rate 36/40 = .9, a's 40/40 = 1. Held-out b: identical to a.
    # Held-out c (others a, b both 0): P3 judge 1 vs c 0 → d = -1. So d = four 1s, six -1s and
    #   30 0s: mean -.05, var = (10 - 40 * .0025) / 39 = 9.9/39,
    #   t = (-.05 - .2) / sqrt(9.9/39/40) = -3.1382. Judge wins 36/40, c 34/40.
    m = _nominal(30, 4, 6)
    r = alt_test(m, "j", nominal=True, epsilon=0.2)
    t_ab = (0.1 - 0.2) / np.sqrt(3.6 / 39 / 40)
    t_c = (-0.05 - 0.2) / np.sqrt(9.9 / 39 / 40)
    p_ab, p_c = stats.t.cdf(t_ab, 39), stats.t.cdf(t_c, 39)
    rows = {h.rater: h for h in r.humans}
    assert rows["a"].p_value == pytest.approx(p_ab) and rows["b"].p_value == pytest.approx(p_ab)
    assert rows["c"].p_value == pytest.approx(p_c)
    assert all(h.test == "t" and h.n_units == 40 for h in r.humans)
    assert rows["a"].judge_win_rate == pytest.approx(0.9)
    assert rows["a"].human_win_rate == pytest.approx(1.0)
    assert rows["c"].human_win_rate == pytest.approx(0.85)
    # BY with m = 3, c(3) = 11/6: sorted p = (p_c, p_ab, p_ab);
    # adj(3) = p_ab * 3 * 11/6 / 3; adj(2) = min(p_ab * 3 * 11/6 / 2, adj(3)) = adj(3);
    # adj(1) = min(p_c * 3 * 11/6, adj(2)).
    adj_ab = p_ab * 11 / 6
    assert rows["a"].p_adjusted == pytest.approx(adj_ab)
    assert rows["c"].p_adjusted == pytest.approx(min(p_c * 5.5, adj_ab))
    assert adj_ab < 0.05  # so every human is rejected
    assert r.winning_rate.value == 1.0 and r.passed is True
    assert r.advantage_probability.value == pytest.approx(0.9)


def test_smaller_epsilon_fails_and_the_correction_matters() -> None:
    # Same data, epsilon 0.1 (crowd). For a and b: t = (.1 - .1) / se = 0 → p = .5.
    # For c: t = (-.05 - .1) / sqrt(9.9/39/40) = -1.8829 → p ≈ .034 < .05 uncorrected, but
    # BY multiplies the smallest p by m c(m) / 1 = 5.5 → ≈ .185 > .05: nobody is rejected,
    # the winning rate is 0 and the judge does not pass.
    r = alt_test(_nominal(30, 4, 6), "j", nominal=True, epsilon=0.1)
    rows = {h.rater: h for h in r.humans}
    p_c = stats.t.cdf((-0.05 - 0.1) / np.sqrt(9.9 / 39 / 40), 39)
    assert rows["a"].p_value == pytest.approx(0.5)
    assert rows["c"].p_value == pytest.approx(p_c) and p_c < 0.05
    assert rows["c"].p_adjusted == pytest.approx(p_c * 5.5)
    assert [h.rejected for h in r.humans] == [False, False, False]
    assert r.winning_rate.value == 0.0 and r.passed is False


def test_benjamini_yekutieli_hand_values() -> None:
    # m = 4, c(4) = 1 + 1/2 + 1/3 + 1/4 = 25/12, m c(m) = 25/3.
    # Sorted p (.01, .02, .03, .5) → p * 25/3 / rank = (.0833, .0833, .0833, 1.0417 → 1).
    # Three raw p-values below .05, none survives at q = .05.
    p = [0.03, 0.5, 0.01, 0.02]
    adj = benjamini_yekutieli(p)
    assert adj == pytest.approx([0.25 / 3, 1.0, 0.25 / 3, 0.25 / 3])
    assert adj == pytest.approx(stats.false_discovery_control(p, method="by"))
    assert benjamini_yekutieli([]).size == 0


def test_wilcoxon_under_thirty_units() -> None:
    # 10 units: 8 × P1 and 2 × P3. For c: d = eight 0s and two -1s; d - .2 = eight -.2 and
    # two -1.2, all negative, so the signed-rank statistic T+ = 0. Under H0 each of the 10
    # signs is + or - with probability 1/2 and T+ = 0 only when all are -, so the exact
    # one-sided p-value is 2^-10 = 1/1024.
    r = alt_test(_nominal(8, 0, 2), "j", nominal=True, epsilon=0.2)
    rows = {h.rater: h for h in r.humans}
    assert rows["c"].test == "wilcoxon"
    expected = stats.wilcoxon(np.r_[[-0.2] * 8, [-1.2] * 2], alternative="less").pvalue
    assert rows["c"].p_value == pytest.approx(expected)
    assert rows["c"].p_value == pytest.approx(1 / 1024)


def test_one_sided_p_without_spread() -> None:
    # Every d equal: the t statistic is infinite; the sign of d - eps decides.
    assert one_sided_p(np.full(40, -1.0), 0.2) == (0.0, "t")
    assert one_sided_p(np.full(40, 1.0), 0.2) == (1.0, "t")
    assert one_sided_p(np.zeros(5), 0.0) == (1.0, "wilcoxon")


def test_alignment_scores() -> None:
    assert alignment(1.0, np.array([1.0, 1.0, 0.0]), nominal=True) == pytest.approx(2 / 3)
    # Negative RMSE: score 3 against (2, 5): sqrt((1 + 4) / 2).
    assert alignment(3.0, np.array([2.0, 5.0]), nominal=False) == pytest.approx(-np.sqrt(2.5))


def test_ordinal_ties_are_wins_for_both() -> None:
    # Humans a, b; the judge and a both give 3, b gives 4: for held-out a (other: b), judge and
    # a have the same RMSE → d = 0 on every unit.
    m = RatingMatrix(["a", "b", "j"], ["u1", "u2"], np.array([[3, 2], [4, 2], [3, 2]], float))
    r = alt_test(m, "j", nominal=False)
    a = r.humans[0]
    assert a.judge_win_rate == 1.0 and a.human_win_rate == 1.0
    assert r.winning_rate.reason and "fewer than three" in r.winning_rate.reason


def test_untestable_cases() -> None:
    one_human = RatingMatrix(["a", "j"], ["u1"], np.array([[1.0], [1.0]]))
    r = alt_test(one_human, "j", nominal=True)
    assert r.winning_rate.value is None and r.passed is None
    assert r.humans[0].reason and r.humans[0].p_value is None
    missing = RatingMatrix(["a", "b", "j"], ["u1"], np.array([[1.0], [2.0], [np.nan]]))
    r = alt_test(missing, "j", nominal=True)
    assert r.advantage_probability.value is None
    assert "judge" in r.winning_rate.reason


def test_clustered_units_are_tested_on_cluster_means() -> None:
    # Eight transcripts, each rated on two items (two units); humans a, b, c and judge j.
    # Held-out c: its others (a, b) always agree with the judge; c disagrees on the first
    # unit of transcripts t0..t3. Unit wins: judge always wins; c wins where it agrees.
    # Per transcript, d_t = mean(W_c) - mean(W_j) = (0 + 1)/2 - 1 = -0.5 for t0..t3 and 0
    # for t4..t7: so the test runs on 8 values (-.5 × 4, 0 × 4), not on 16 unit values.
    units, clusters, cols = [], {}, []
    for t in range(8):
        for item in range(2):
            u = f"t{t}/i{item}"
            units.append(u)
            clusters[u] = f"t{t}"
            c_off = t < 4 and item == 0
            cols.append([0, 0, 1 if c_off else 0, 0])
    values = np.array(cols, dtype=float).T
    m = RatingMatrix(["a", "b", "c", "j"], units, values, clusters=clusters)
    r = alt_test(m, "j", nominal=True, epsilon=0.2)
    c = {h.rater: h for h in r.humans}["c"]
    assert c.n_units == 8 and c.n_instances == 16
    assert c.human_win_rate == pytest.approx(0.75) and c.judge_win_rate == pytest.approx(1.0)
    expected = stats.wilcoxon(np.r_[[-0.5 - 0.2] * 4, [0 - 0.2] * 4],
                              alternative="less").pvalue
    assert c.p_value == pytest.approx(expected)
    # One unit per cluster is the plain test.
    plain = RatingMatrix(["a", "b", "c", "j"], units, values)
    own = RatingMatrix(["a", "b", "c", "j"], units, values, clusters={u: u for u in units})
    p1 = {h.rater: h.p_value for h in alt_test(plain, "j", nominal=True).humans}
    p2 = {h.rater: h.p_value for h in alt_test(own, "j", nominal=True).humans}
    assert p1 == pytest.approx(p2)
