"""Benchmark: Krippendorff's alpha with a 1,000-resample bootstrap on 50,000 ratings.

The issue's case: 5 raters × 10,000 units on a 1–10 scale, every cell rated, so exactly
50,000 ratings. A second data set has the same 50,000 ratings with 5% of cells missing
(5 raters × 10,527 units, 2,635 cells blanked at random), and a third 3 raters × 2,000 units
of continuous scores (about 6,000 distinct values: the case that used to need gigabytes).
Prints the median of several runs of `krippendorff_alpha(..., n_boot=1000)` and, as a
baseline measured in the same run, one point estimate with the `krippendorff` package.
Target: under 3 seconds on a 2-core machine.

Run from the repository root: python -m benchmarks.bench_alpha [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import TypeVar

import numpy as np

from annotation.analysis.alpha import krippendorff_alpha

T = TypeVar("T")

RATERS, UNITS, N_BOOT, RATINGS = 5, 10_000, 1000, 50_000


def make_data(seed: int = 0) -> np.ndarray:
    """5 × 10,000 ratings that agree well but not perfectly: exactly 50,000, none missing."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 11, UNITS)
    return np.clip(truth + rng.integers(-1, 2, (RATERS, UNITS)), 1, 10).astype(float)


def make_missing(seed: int = 0) -> np.ndarray:
    """50,000 ratings again, with 5% of the cells of a larger matrix left empty."""
    rng = np.random.default_rng(seed)
    units = int(np.ceil(RATINGS / (RATERS * 0.95)))
    truth = rng.integers(1, 11, units)
    data = np.clip(truth + rng.integers(-1, 2, (RATERS, units)), 1, 10).astype(float)
    blank = rng.choice(data.size, data.size - RATINGS, replace=False)
    data.ravel()[blank] = np.nan
    return data


def make_continuous(seed: int = 0) -> np.ndarray:
    """3 raters × 2,000 units of continuous scores."""
    rng = np.random.default_rng(seed)
    return rng.normal(50, 10, 2000) + rng.normal(0, 4, (3, 2000))


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    """Wall time of one call and its result."""
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def measure(name: str, data: np.ndarray, level: str, runs: int) -> None:
    """Print the median time of `runs` alpha + bootstrap computations."""
    times, result = [], None
    for run in range(runs):
        t, result = timed(lambda run=run: krippendorff_alpha(data, level, n_boot=N_BOOT, seed=run))
        times.append(t)
    assert result is not None and result.value is not None
    print(f"{name}, {int((~np.isnan(data)).sum())} ratings, {level} + {N_BOOT} bootstrap: "
          f"median {statistics.median(times):.3f} s (min {min(times):.3f}, max "
          f"{max(times):.3f}); alpha {result.value:.4f} [{result.low:.4f}, {result.high:.4f}]")


def main() -> None:
    """Run the benchmark and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per measurement")
    args = parser.parse_args()
    data = make_data()
    assert int((~np.isnan(data)).sum()) == RATINGS
    print(f"median of {args.runs} runs each")
    for level in ("ordinal", "interval"):
        measure(f"{RATERS} raters × {UNITS} units", data, level, args.runs)
    missing = make_missing()
    assert int((~np.isnan(missing)).sum()) == RATINGS
    measure(f"{RATERS} raters × {missing.shape[1]} units, 5% missing", missing, "ordinal",
            args.runs)
    measure("3 raters × 2000 units, continuous", make_continuous(), "interval", args.runs)
    try:
        import krippendorff
    except ImportError:
        print("baseline: the krippendorff package is not installed")
        return
    times = []
    for _ in range(args.runs):
        t, value = timed(lambda: krippendorff.alpha(reliability_data=data,
                                                    level_of_measurement="ordinal"))
        times.append(t)
    t_ours = statistics.median(timed(lambda: krippendorff_alpha(data, "ordinal"))[0]
                               for _ in range(args.runs))
    print(f"baseline: krippendorff package, one ordinal point estimate: "
          f"median {statistics.median(times):.3f} s (alpha {value:.4f}); "
          f"bedside point estimate: median {t_ours:.3f} s")


if __name__ == "__main__":
    main()
