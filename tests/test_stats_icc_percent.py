"""Intraclass correlations (Shrout & Fleiss 1979; unbalanced one-way ANOVA for k-of-n reader
studies) and percent agreement."""

from __future__ import annotations

import numpy as np
import pytest

from annotation.analysis.icc import FORMS, icc, mean_squares
from annotation.analysis.percent import percent_agreement

N = np.nan

# Shrout, P. E. & Fleiss, J. L. (1979), Psychological Bulletin 86(2), Table 2: 6 targets
# rated by 4 judges (rows: targets). Published ICCs (Table 4): ICC(1,1) .17, ICC(2,1) .29,
# ICC(3,1) .71, ICC(1,4) .44, ICC(2,4) .62, ICC(3,4) .91. The data were checked against the
# SimplyAgree R package's vignette, which reproduces the example.
SF = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9],
               [6, 2, 4, 7]], dtype=float)
PUBLISHED = {"ICC(1,1)": 0.17, "ICC(2,1)": 0.29, "ICC(3,1)": 0.71, "ICC(1,k)": 0.44,
             "ICC(2,k)": 0.62, "ICC(3,k)": 0.91}


def test_shrout_fleiss_mean_squares() -> None:
    # Table 3 of the paper: BMS = 11.24, WMS = 6.26, JMS = 32.49, EMS = 1.02.
    # By hand: grand mean = 127/24 = 5.2917; target means 6, 3, 6.5, 4, 7.5, 4.75 give
    # squared deviations summing to 14.05, so SS_targets = 4 * 14.05 = 56.21 and
    # BMS = 56.21 / 5 = 11.24; judge means 7.67, 2.5, 4.33, 6.67 give 16.24, so
    # SS_judges = 6 * 16.24 = 97.46 and JMS = 97.46 / 3 = 32.49.
    ms = mean_squares(SF)
    assert ms["BMS"] == pytest.approx(11.24, abs=0.01)
    assert ms["WMS"] == pytest.approx(6.26, abs=0.01)
    assert ms["JMS"] == pytest.approx(32.49, abs=0.02)
    assert ms["EMS"] == pytest.approx(1.02, abs=0.01)


@pytest.mark.parametrize("form", FORMS)
def test_shrout_fleiss_published_iccs(form: str) -> None:
    result = icc(SF.T)  # our matrices are raters × units
    assert result.forms[form].value == pytest.approx(PUBLISHED[form], abs=0.005)
    assert result.n_units == 6 and result.n_judges == 4 and result.n_dropped == 0


def test_balanced_data_through_the_unbalanced_formula_gives_shrout_fleiss() -> None:
    # Every target has 4 ratings, so k0 = (24 - 6 * 16 / 24) / 5 = 4 = k, and the one-way
    # ANOVA for unequal groups reduces to Shrout & Fleiss's: ICC(1,1) .17, ICC(1,4) .44.
    result = icc(SF.T, ["j1", "j2", "j3", "j4"])
    assert result.k0 == pytest.approx(4.0) and result.balanced
    assert result.forms["ICC(1,1)"].value == pytest.approx(0.17, abs=0.005)
    assert result.forms["ICC(1,k)"].value == pytest.approx(0.44, abs=0.005)
    assert result.two_way_raters == ["j1", "j2", "j3", "j4"] and result.two_way_units == 6
    # Exactly the balanced formulas: (BMS - WMS) / (BMS + 3 WMS) and (BMS - WMS) / BMS.
    ms = mean_squares(SF)
    assert result.forms["ICC(1,1)"].value == pytest.approx(
        (ms["BMS"] - ms["WMS"]) / (ms["BMS"] + 3 * ms["WMS"]))


# A hand-worked unbalanced design: 4 raters, each unit rated by a different subset.
#   u1: A=1, B=3        u2: A=4, C=5, D=6        u3: B=7, D=9        u4: C=2 (single rating)
UNBALANCED = np.array([[1, 4, N, N], [3, N, 7, N], [N, 5, N, 2], [N, 6, 9, N]], dtype=float)


def test_unbalanced_one_way_hand_derivation() -> None:
    # One-way ANOVA over u1..u3 (u4 has one rating: left out). a = 3 units, N = 7 ratings,
    # grand mean = (1+3+4+5+6+7+9)/7 = 5; unit means 2, 5, 8.
    #   SSB = 2(2-5)^2 + 3(5-5)^2 + 2(8-5)^2 = 36, MSB = 36 / (a-1) = 18
    #   SSW = (1+1) + (1+0+1) + (1+1) = 6,        MSW = 6 / (N-a) = 1.5
    #   k0 = (N - sum n_i^2 / N) / (a-1) = (7 - 17/7) / 2 = 16/7
    #   ICC(1,1) = (18 - 1.5) / (18 + (16/7 - 1) 1.5) = 16.5 / (139.5/7) = 77/93 = 0.8280
    #   ICC(1,k) = (18 - 1.5) / 18 = 11/12 = 0.9167 (the mean of k0 = 16/7 ratings)
    result = icc(UNBALANCED, ["A", "B", "C", "D"])
    assert result.forms["ICC(1,1)"].value == pytest.approx(77 / 93)
    assert result.forms["ICC(1,k)"].value == pytest.approx(11 / 12)
    assert result.k0 == pytest.approx(16 / 7) and not result.balanced
    assert result.n_units == 3 and result.n_dropped == 1
    assert result.forms["ICC(1,1)"].n == 3
    # No two raters share two units: the two-way forms have no crossed block.
    for form in ("ICC(2,1)", "ICC(3,1)", "ICC(2,k)", "ICC(3,k)"):
        st = result.forms[form]
        assert st.value is None and "raters differ between units" in st.reason
        assert "crossed design" in st.reason
    assert any("k0 = 2.29" in n for n in result.notes)


def test_k_of_n_design_one_way_ignores_who_rated() -> None:
    # 3 raters, each unit rated by 2 of them in rotation: the one-way model treats the two
    # ratings of a unit as exchangeable, so it equals Shrout & Fleiss ICC(1,1) of the same
    # ratings laid out as units × 2 slots.
    rng = np.random.default_rng(4)
    truth = rng.normal(5, 2, 30)
    slots = truth[:, None] + rng.normal(0, 1, (30, 2))
    v = np.full((3, 30), np.nan)
    for u in range(30):
        a, b = [(0, 1), (1, 2), (0, 2)][u % 3]
        v[a, u], v[b, u] = slots[u]
    ms = mean_squares(slots)
    result = icc(v, ["a", "b", "c"])
    assert result.forms["ICC(1,1)"].value == pytest.approx(
        (ms["BMS"] - ms["WMS"]) / (ms["BMS"] + ms["WMS"]))
    # The two-way forms use the largest crossed block: each pair shares 10 units.
    assert result.two_way_units == 10 and len(result.two_way_raters) == 2
    assert result.forms["ICC(3,1)"].n == 10


def test_two_way_uses_the_block_with_most_ratings() -> None:
    # The Shrout–Fleiss data plus a 7th target missing judge 2: the one-way forms use all 7
    # targets; the two-way forms the 6 targets × 4 judges block (24 ratings beat 7 × 3 = 21),
    # which gives the published ICC(3,1) .71.
    data = np.vstack([SF, [[5, np.nan, 3, 4]]]).T
    result = icc(data, ["j1", "j2", "j3", "j4"])
    assert result.n_units == 7 and result.n_dropped == 0
    assert result.two_way_units == 6 and result.two_way_raters == ["j1", "j2", "j3", "j4"]
    assert result.forms["ICC(3,1)"].value == pytest.approx(0.71, abs=0.005)
    assert result.forms["ICC(1,1)"].n == 7 and result.forms["ICC(3,1)"].n == 6


def test_icc_degenerate_cases() -> None:
    one_rater = icc(np.array([[1.0, 2.0, 3.0]]))
    assert all(s.value is None and "two raters" in s.reason for s in one_rater.forms.values())
    one_unit = icc(np.array([[1.0], [2.0]]))
    assert all("two units" in s.reason for s in one_unit.forms.values())
    identical = icc(np.full((3, 5), 4.0))
    assert all(s.value is None and "every rating is identical" in s.reason
               for s in identical.forms.values())
    all_missing = icc(np.full((3, 5), np.nan))
    assert all_missing.n_units == 0 and all_missing.n_dropped == 5


def test_equal_unit_means_are_not_called_identical_ratings() -> None:
    # Ratings vary within units but every unit's mean is 3: BMS = 0. ICC(1,k) = (0 - WMS)/0
    # is undefined because of equal unit means, not because the ratings are identical;
    # ICC(1,1) = -WMS / ((k-1) WMS) = -1/(k-1) = -1 is defined.
    data = np.array([[2.0, 4.0, 1.0], [4.0, 2.0, 5.0]])
    result = icc(data, ["a", "b"])
    reason = result.forms["ICC(1,k)"].reason
    assert result.forms["ICC(1,k)"].value is None
    assert "mean ratings are all equal" in reason and "identical" not in reason
    assert result.forms["ICC(1,1)"].value == pytest.approx(-1.0)


def test_percent_agreement_hand_derivation() -> None:
    # Unit 1: (1, 1, 2): pairs agree 1 of 3 exactly, 3 of 3 within ±1.
    # Unit 2: (3, 3, 3): 3 of 3 both ways. Unit 3: (1, 4, nan): 0 of 1 both ways.
    # Unit 4: one rating, ignored. Exact: (1/3 + 1 + 0) / 3 = 4/9; ±1: (1 + 1 + 0) / 3 = 2/3.
    data = np.array([[1, 3, 1, 5], [1, 3, 4, np.nan], [2, 3, np.nan, np.nan]], dtype=float)
    assert percent_agreement(data).value == pytest.approx(4 / 9)
    assert percent_agreement(data, tolerance=1).value == pytest.approx(2 / 3)
    assert percent_agreement(data).n == 3


def test_percent_agreement_degenerate_cases() -> None:
    assert percent_agreement(np.array([[1.0, 2.0]])).value is None
    assert percent_agreement(np.full((2, 3), np.nan)).reason.startswith("no unit")
    # Identical ratings are perfectly defined: full agreement.
    assert percent_agreement(np.full((3, 4), 2.0)).value == 1.0
