"""The alternative annotator test: can the judge replace a human annotator?

For each human j and each unit i rated by the judge, by j and by at least one other human,
the alignment of an annotator with the remaining humans H_-j is
  categorical: the share of H_-j giving the same label (accuracy);
  ordinal/numeric: -sqrt(mean over H_-j of (score - h)^2) (negative RMSE).
The judge wins unit i when its alignment >= human j's; human j wins when theirs >= the
judge's (a tie is a win for both). With d_i = W_h,i - W_f,i we test H0: mean(d) >= eps
against H1: mean(d) < eps by a one-sided paired t-test (Wilcoxon signed-rank on d_i - eps
under 30 units), correct the p-values over humans with Benjamini–Yekutieli at q, and report
the winning rate (share of humans whose H0 is rejected; the judge passes at >= 0.5) and the
advantage probability (mean over humans of the judge's win rate). The margin ε has presets
in `options.EPSILON` (expert 0.2, skilled 0.15, crowd 0.1). Calderon, Reichart & Dror's own
code skips a human with under 30 instances where this one runs the Wilcoxon test, so the two
agree whenever every human has 30 or more (tests/test_stats_alttest_published.py).

Clustered units. When units belong together (the items, or the turns, of one transcript),
they are not independent evidence. With clusters, the per-unit wins are first averaged
within each cluster, and the test runs on the per-cluster differences d_t = mean(W_h) -
mean(W_f); the win rates are then means over clusters (each transcript weighs the same). With
one unit per cluster this is exactly the test above. Pooling items this way is meaningful
because a win is decided within one unit, so rescaling an item does not change it.
"""

from __future__ import annotations

import numpy as np
from pydantic import BaseModel, Field
from scipy import stats

from annotation.analysis.data import RatingMatrix
from annotation.analysis.result import Stat, defined, undefined

MIN_UNITS_FOR_T = 30


class HumanTest(BaseModel):
    """The test against one held-out human."""

    rater: str = Field(description="The held-out human j.")
    n_units: int = Field(description="Units compared (clusters, when units are clustered).")
    n_instances: int | None = Field(None, description="Rated units behind the clusters, when "
                                    "the test ran on clusters; None otherwise.")
    judge_win_rate: float | None = Field(description="Share of units the judge wins.")
    human_win_rate: float | None = Field(description="Share of units human j wins.")
    test: str | None = Field(description="'t' (paired t-test) or 'wilcoxon'.")
    p_value: float | None = Field(description="One-sided p-value of H0: mean(d) >= eps.")
    p_adjusted: float | None = Field(description="Benjamini–Yekutieli adjusted p-value.")
    rejected: bool = Field(description="H0 rejected at q after the correction: judge wins.")
    reason: str | None = Field(None, description="Why no test was possible, if so.")


class AltTestResult(BaseModel):
    """The alternative annotator test over all humans."""

    epsilon: float = Field(description="Cost-benefit margin ε.")
    q: float = Field(description="False discovery rate for Benjamini–Yekutieli.")
    humans: list[HumanTest] = Field(description="One row per human.")
    winning_rate: Stat = Field(description="Share of tested humans whose H0 was rejected.")
    passed: bool | None = Field(description="Winning rate >= 0.5; None when untestable.")
    advantage_probability: Stat = Field(description="Mean of the judge's per-human win rates.")


def benjamini_yekutieli(p: list[float] | np.ndarray) -> np.ndarray:
    """BY-adjusted p-values: p_(i) * m * c(m) / i, made monotone from the top, capped at 1."""
    p = np.asarray(p, dtype=float)
    m = p.size
    if m == 0:
        return p
    c_m = (1.0 / np.arange(1, m + 1)).sum()
    order = np.argsort(p)
    scaled = p[order] * m * c_m / np.arange(1, m + 1)
    adjusted = np.minimum.accumulate(scaled[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(adjusted, 1.0)
    return out


def alignment(score: float, others: np.ndarray, nominal: bool) -> float:
    """How well one score matches the remaining humans' scores of the same unit."""
    if nominal:
        return float((others == score).mean())
    return -float(np.sqrt(((others - score) ** 2).mean()))


def one_sided_p(d: np.ndarray, epsilon: float) -> tuple[float, str]:
    """p-value of H0: mean(d) >= eps, and the test used."""
    shifted = d - epsilon
    if d.size >= MIN_UNITS_FOR_T:
        if np.ptp(shifted) == 0:  # no spread: the sign of the shift decides outright
            return (0.0 if shifted[0] < 0 else 1.0), "t"
        return float(stats.ttest_1samp(d, epsilon, alternative="less").pvalue), "t"
    if np.all(shifted == 0):
        return 1.0, "wilcoxon"
    return float(stats.wilcoxon(shifted, alternative="less").pvalue), "wilcoxon"


def _wins(m: RatingMatrix, judge: str, human: str, nominal: bool) -> tuple[np.ndarray, ...]:
    """Judge wins, human wins and the unit index, over the units the test can use."""
    j, h = m.row(judge), m.row(human)
    others = m.without(judge).without(human).values
    wf, wh, used = [], [], []
    for u in range(len(m.units)):
        ref = others[:, u][~np.isnan(others[:, u])]
        if np.isnan(j[u]) or np.isnan(h[u]) or ref.size == 0:
            continue
        sf, sh = alignment(j[u], ref, nominal), alignment(h[u], ref, nominal)
        wf.append(sf >= sh)
        wh.append(sh >= sf)
        used.append(u)
    return np.array(wf, dtype=float), np.array(wh, dtype=float), np.array(used, dtype=int)


def _by_cluster(m: RatingMatrix, used: np.ndarray, *wins: np.ndarray) -> list[np.ndarray]:
    """Each win vector averaged within the clusters of the used units."""
    labels = np.array([m.clusters.get(m.units[u], m.units[u]) for u in used])
    _, codes = np.unique(labels, return_inverse=True)
    sizes = np.bincount(codes)
    return [np.bincount(codes, weights=w) / sizes for w in wins]


def alt_test(m: RatingMatrix, judge: str, *, nominal: bool, epsilon: float = 0.2,
             q: float = 0.05) -> AltTestResult:
    """Run the alternative annotator test of `judge` against the humans of `m`."""
    humans = [r for r in m.raters if r != judge]
    rows = []
    for h in humans:
        wf, wh, used = _wins(m, judge, h, nominal)
        if wf.size == 0:
            rows.append(HumanTest(rater=h, n_units=0, judge_win_rate=None, human_win_rate=None,
                                  test=None, p_value=None, p_adjusted=None, rejected=False,
                                  reason="no unit rated by the judge, this human and another"))
            continue
        instances = None
        clusters = {m.clusters.get(m.units[u], m.units[u]) for u in used} if m.clusters else ()
        if len(clusters) and len(clusters) < used.size:
            instances = int(wf.size)  # some clusters hold several units: test on clusters
            wf, wh = _by_cluster(m, used, wf, wh)
        p, test = one_sided_p(wh - wf, epsilon)
        rows.append(HumanTest(rater=h, n_units=int(wf.size), n_instances=instances,
                              judge_win_rate=float(wf.mean()), human_win_rate=float(wh.mean()),
                              test=test, p_value=p, p_adjusted=None, rejected=False))
    return _summarise(rows, epsilon, q, len(humans))


def _summarise(rows: list[HumanTest], epsilon: float, q: float, n_humans: int) -> AltTestResult:
    tested = [r for r in rows if r.p_value is not None]
    adjusted = benjamini_yekutieli([p for r in tested if (p := r.p_value) is not None])
    for r, p_adj in zip(tested, adjusted, strict=False):
        r.p_adjusted = float(p_adj)
        r.rejected = bool(p_adj <= q)
    if not tested:
        reason = ("needs at least two humans besides the judge" if n_humans < 2 else
                  "no unit was rated by the judge and two humans")
        return AltTestResult(epsilon=epsilon, q=q, humans=rows, winning_rate=undefined(reason),
                             passed=None, advantage_probability=undefined(reason))
    note = "fewer than three humans: the test is weak" if n_humans < 3 else None
    omega = sum(r.rejected for r in tested) / len(tested)
    rho = float(np.mean([r.judge_win_rate for r in tested]))
    return AltTestResult(epsilon=epsilon, q=q, humans=rows,
                         winning_rate=defined(omega, n=len(tested), reason=note),
                         passed=omega >= 0.5,
                         advantage_probability=defined(rho, n=len(tested)))
