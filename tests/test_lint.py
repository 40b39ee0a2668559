"""The code passes the project's lint rules (ruff, configured in pyproject.toml).

One command checks everything a reviewer would: unused imports, undefined names, naive
datetimes, missing public docstrings, lines over 100 characters, common bugbears.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing() -> None:
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache",
                          "--output-format", "concise", "core", "db", "annotation", "tui",
                          "tests", "benchmarks"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
