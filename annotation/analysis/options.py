"""Options shared by `bedside analyze`, `bedside agreement` and the app's analysis screen.

One default and one validation for each, so the command line and the app report the same
numbers for the same data: the number of bootstrap resamples, and the margin ε of the
alternative annotator test (a number, or a preset named after who the human raters are).

Imported by the command line at start-up, so it imports nothing heavy (no numpy, no scipy).
"""

from __future__ import annotations

import math

from core.errors import InputError

# The alternative annotator test's margins (Calderon, Reichart & Dror 2025): the cost-benefit
# advantage granted to the judge, by who the human raters are.
EPSILON = {"expert": 0.2, "skilled": 0.15, "crowd": 0.1}
DEFAULT_BOOTSTRAP = 1000
MAX_BOOTSTRAP = 100_000
DEFAULT_EPSILON = EPSILON["expert"]


def parse_bootstrap(text: str | int, *, field: str = "bootstrap") -> int:
    """A resample count 0..100000 (0: no intervals), or InputError saying what is allowed."""
    try:
        n = int(str(text).strip())
    except ValueError:
        raise InputError(f"'{text}' is not a whole number of resamples", field=field) from None
    if not 0 <= n <= MAX_BOOTSTRAP:
        raise InputError(f"{n} resamples: use 0 (no intervals) to {MAX_BOOTSTRAP:,}",
                         field=field)
    return n


def parse_epsilon(text: str | float, *, field: str = "epsilon") -> float:
    """ε in [0, 1), or a preset: expert (0.2), skilled (0.15), crowd (0.1)."""
    key = str(text).strip().lower()
    if key in EPSILON:
        return EPSILON[key]
    presets = ", ".join(f"{k} ({v})" for k, v in EPSILON.items())
    try:
        eps = float(key)
    except ValueError:
        raise InputError(f"'{text}' is neither a number nor a preset ({presets})",
                         field=field) from None
    if not (math.isfinite(eps) and 0.0 <= eps < 1.0):
        raise InputError(f"{text} is outside 0 ≤ ε < 1 (or use a preset: {presets})",
                         field=field)
    return eps
