"""Sortable unique ids (time-ordered, like ULIDs) without an extra dependency.
"""

from __future__ import annotations

import os
import time

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford base32, lower case


def _b32(value: int, width: int) -> str:
    out = []
    for _ in range(width):
        value, rem = divmod(value, 32)
        out.append(_ALPHABET[rem])
    return "".join(reversed(out))


def new_id(prefix: str = "") -> str:
    """A 26-character id: 48-bit millisecond time then 80 random bits; sorts by creation."""
    ms = time.time_ns() // 1_000_000
    rand = int.from_bytes(os.urandom(10), "big")
    return prefix + _b32(ms, 10) + _b32(rand, 16)
