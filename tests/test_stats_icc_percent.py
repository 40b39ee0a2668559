"""Intraclass correlations (Shrout & Fleiss 1979) and percent agreement."""

from __future__ import annotations

import numpy as np
import pytest

from annotation.analysis.icc import FORMS, icc, mean_squares
from annotation.analysis.percent import percent_agreement

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


def test_icc_drops_units_with_a_missing_rating() -> None:
    data = np.vstack([SF, [[5, np.nan, 3, 4]]]).T
    result = icc(data)
    assert result.n_dropped == 1 and result.n_units == 6
    assert result.forms["ICC(3,1)"].value == pytest.approx(0.71, abs=0.005)


def test_icc_degenerate_cases() -> None:
    one_rater = icc(np.array([[1.0, 2.0, 3.0]]))
    assert all(s.value is None and "two raters" in s.reason for s in one_rater.forms.values())
    one_unit = icc(np.array([[1.0], [2.0]]))
    assert all("two units" in s.reason for s in one_unit.forms.values())
    identical = icc(np.full((3, 5), 4.0))
    assert all(s.value is None and "identical" in s.reason for s in identical.forms.values())
    all_missing = icc(np.full((3, 5), np.nan))
    assert all_missing.n_units == 0 and all_missing.n_dropped == 5


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
