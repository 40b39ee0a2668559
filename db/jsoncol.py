"""JSON column helpers shared by the repositories."""

from __future__ import annotations

import json
from typing import Any


def dumps(value: Any) -> str | None:
    """Serialise for a JSON column; None stays NULL."""
    if value is None:
        return None
    return json.dumps(value, ensure_ascii=False, default=str)


def loads(text: str | None, default: Any = None) -> Any:
    """Parse a JSON column; NULL gives `default`."""
    if text is None or text == "":
        return default
    return json.loads(text)
