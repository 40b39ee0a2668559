"""The shape every metric takes, plus helpers shared by the metric modules.
"""

from __future__ import annotations

import math
from typing import Any

MetricDetail = dict[str, Any]
MetricValue = tuple[float | None, MetricDetail]
Metrics = dict[str, MetricValue]


def undefined(reason: str, **detail: Any) -> MetricValue:
    """A metric that cannot be computed: value None and the reason in the detail."""
    return None, {"reason": reason, **detail}


def defined(value: float, **detail: Any) -> MetricValue:
    """A computed metric. A non-finite value is turned into `undefined` (never NaN)."""
    value = float(value)
    if not math.isfinite(value):
        return undefined("value was not finite", **detail)
    return value, dict(detail)


def safe_ratio(num: float, den: float) -> float | None:
    """num / den, or None when den is 0."""
    return None if den == 0 else num / den
