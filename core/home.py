"""The bedside home directory ($BEDSIDE_HOME, else ~/.bedside): the default database and the
local image cache live there. Standard library only (the app's start-up path reads it)."""

from __future__ import annotations

import os
from pathlib import Path


def bedside_home() -> Path:
    """The bedside home directory: $BEDSIDE_HOME, else ~/.bedside."""
    return Path(os.environ.get("BEDSIDE_HOME") or Path.home() / ".bedside")
