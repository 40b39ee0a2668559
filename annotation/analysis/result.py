"""Small result models shared by the statistics: a value or an explained absence of one.

A statistic that cannot be computed (one rater, no variation, no overlap) is returned with
`value=None` and a human-readable `reason`; no function here returns NaN or raises on data.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, Field


class Stat(BaseModel):
    """One statistic, optionally with a 95% interval."""

    value: float | None = Field(description="The estimate; None when undefined.")
    reason: str | None = Field(None, description="Why the value is undefined (or a caveat).")
    low: float | None = Field(None, description="Lower end of the 95% interval, if computed.")
    high: float | None = Field(None, description="Upper end of the 95% interval, if computed.")
    n: int | None = Field(None, description="How many units (or pairs) the value rests on.")

    @property
    def defined(self) -> bool:
        """True when the statistic has a value."""
        return self.value is not None


def undefined(reason: str, n: int | None = None) -> Stat:
    """An undefined statistic with its reason."""
    return Stat(value=None, reason=reason, n=n)


def defined(value: float, *, n: int | None = None, low: float | None = None,
            high: float | None = None, reason: str | None = None) -> Stat:
    """A statistic with a value; a non-finite value becomes undefined rather than NaN."""
    if not math.isfinite(value):
        return undefined(reason or "the computation gave no finite value", n)
    return Stat(value=float(value), n=n, low=_finite(low), high=_finite(high), reason=reason)


def _finite(x: float | None) -> float | None:
    return float(x) if x is not None and math.isfinite(x) else None


def clean_json(obj: Any) -> Any:
    """Recursively replace NaN/inf by None and numpy scalars by Python ones (JSON-safe)."""
    if isinstance(obj, BaseModel):
        return clean_json(obj.model_dump())
    if isinstance(obj, dict):
        return {str(k): clean_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean_json(v) for v in obj]
    if hasattr(obj, "item") and not isinstance(obj, (str, bytes)):
        obj = obj.item()  # numpy scalar
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj
