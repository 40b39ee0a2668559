"""Information vs outcome (issue 13 item 6): the least-squares fits (hand derivations,
scipy's linregress for the classical interval, the HC3 sandwich by hand for the binary
outcome) and `bedside results --regress` on consultations played by the real engine."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from core.metrics.regression import fit
from tests.test_judges import cli


def test_ols_slope_interval_and_r2_match_linregress() -> None:
    x, y = [0.1, 0.3, 0.4, 0.6, 0.9], [0.0, 0.2, 0.5, 0.4, 1.0]
    got, ref = fit(x, y), stats.linregress(x, y)
    t = stats.t.ppf(0.975, 3)
    assert got.n == 5 and got.method == "OLS"
    assert got.slope == pytest.approx(ref.slope) and got.intercept == pytest.approx(
        ref.intercept)
    assert got.r2 == pytest.approx(ref.rvalue ** 2)
    assert (got.ci_low, got.ci_high) == pytest.approx((ref.slope - t * ref.stderr,
                                                       ref.slope + t * ref.stderr))


def test_perfect_line_by_hand() -> None:
    # y = 1 + 2x exactly: slope 2, intercept 1, R² 1, zero-width interval.
    got = fit([0, 1, 2, 3], [1, 3, 5, 7])
    assert (got.slope, got.intercept, got.r2) == pytest.approx((2.0, 1.0, 1.0))
    assert got.ci_low == pytest.approx(2.0) and got.ci_high == pytest.approx(2.0)


def test_binary_outcome_is_a_linear_probability_model_with_hc3_errors() -> None:
    x = np.array([0.1, 0.2, 0.4, 0.5, 0.7, 0.9])
    y = np.array([0, 0, 1, 0, 1, 1])
    got = fit(list(x), list(y), binary=True)
    # By hand: X = [1, x]; b = (X'X)^-1 X'y; HC3 = (X'X)^-1 X' diag(e²/(1-h)²) X (X'X)^-1.
    design = np.column_stack([np.ones(6), x])
    bread = np.linalg.inv(design.T @ design)
    b = bread @ design.T @ y
    e = y - design @ b
    h = np.diag(design @ bread @ design.T)
    meat = design.T @ np.diag(e ** 2 / (1 - h) ** 2) @ design
    se = math.sqrt((bread @ meat @ bread)[1, 1])
    t = stats.t.ppf(0.975, 4)
    assert got.method == "linear probability model, HC3 SE"
    assert got.slope == pytest.approx(b[1])
    assert (got.ci_low, got.ci_high) == pytest.approx((b[1] - t * se, b[1] + t * se))


def test_leverage_one_falls_back_to_hc1() -> None:
    # Every point but one at x = 0: that point has leverage 1, HC3 would divide by zero.
    got = fit([0, 0, 0, 1], [0, 1, 0, 1], binary=True)
    assert got.method == "linear probability model, HC1 SE" and got.ci_low is not None


@pytest.mark.parametrize(("x", "y", "reason"), [
    ([1, 2], [0, 1], "needs at least 3 consultations"),
    ([2, 2, 2], [0, 1, 0], "the predictor is the same for every consultation"),
    ([1, 2, 3], [1, 1, 1], "the outcome is the same for every consultation"),
])
def test_undefined_fits_say_why(x: list[float], y: list[float], reason: str) -> None:
    got = fit(x, y)
    assert got.reason == reason and got.r2 is None and got.ci_low is None


def test_results_regress_fits_each_doctor(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "r.db")
    assert cli(capsys, "run", "--db", db, "--cases", "card-*,gi-*,derm-*",
               "--max-turns", "6,20")[0] == 0
    code, out, _ = cli(capsys, "results", "--db", db, "--regress", "--json")
    assert code == 0
    report = json.loads(out)
    doctors = {f["doctor"] + "|" + f["settings"] for f in report["fits"]}
    assert doctors == {"scripted|", "scripted|max turns 6"}
    full = {(f["outcome"], f["predictor"]): f for f in report["fits"] if not f["settings"]}
    assert len(full) == 6  # 3 outcomes x 2 predictors
    pts = [p for p in report["points"] if not p["settings"]]
    # The fit is the one of its own points (the full-budget scripted doctor).
    mine = fit([p["information_gathered"] for p in pts], [p["diagnosis_f1"] for p in pts])
    assert full[("diagnosis_f1", "information_gathered")]["slope"] == pytest.approx(mine.slope)
    assert full[("diagnosis_f1", "information_gathered")]["n"] == len(pts) == 10
    assert full[("report_score", "turns")]["reason"] == "needs at least 3 consultations"
    code, out, _ = cli(capsys, "results", "--db", db, "--regress")
    assert code == 0 and "diagnosis_f1 against information gathered" in out
    assert "■ scripted" in out or "● scripted" in out
    assert "linear probability model" in out
    code, out, _ = cli(capsys, "results", "--db", db, "--regress", "--csv")
    assert out.splitlines()[0].startswith("doctor,settings,outcome,predictor,n,slope")
    with pytest.raises(SystemExit) as stop:
        cli(capsys, "results", "--db", db, "--regress", "--per-consultation")
    assert stop.value.code == 2 and "not allowed with argument" in capsys.readouterr().err
