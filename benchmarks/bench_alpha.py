"""Benchmark: Krippendorff's alpha with a 1,000-resample bootstrap on 50,000 ratings.

5 raters × 10,000 units on a 1–10 scale with 5% missing. Prints the median of several runs
of `krippendorff_alpha(..., n_boot=1000)` at the ordinal and interval levels and, as a
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

RATERS, UNITS, N_BOOT = 5, 10_000, 1000


def make_data(seed: int = 0) -> np.ndarray:
    """Ratings that agree well but not perfectly, with 5% missing."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(1, 11, UNITS)
    data = np.clip(truth + rng.integers(-1, 2, (RATERS, UNITS)), 1, 10).astype(float)
    data[rng.random(data.shape) < 0.05] = np.nan
    return data


def timed(fn: Callable[[], T]) -> tuple[float, T]:
    """Wall time of one call and its result."""
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main() -> None:
    """Run the benchmark and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per measurement")
    args = parser.parse_args()
    data = make_data()
    print(f"data: {RATERS} raters × {UNITS} units, {int((~np.isnan(data)).sum())} ratings; "
          f"{N_BOOT} bootstrap resamples; median of {args.runs} runs")
    for level in ("ordinal", "interval"):
        times, result = [], None
        for run in range(args.runs):
            t, result = timed(lambda: krippendorff_alpha(data, level, n_boot=N_BOOT, seed=run))
            times.append(t)
        print(f"bedside alpha ({level}) + {N_BOOT} bootstrap: "
              f"median {statistics.median(times):.3f} s (min {min(times):.3f}, "
              f"max {max(times):.3f}); alpha {result.value:.4f} "
              f"[{result.low:.4f}, {result.high:.4f}]")
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
