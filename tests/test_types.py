"""mypy (with the pydantic plugin, `warn_unused_ignores`; configuration in pyproject.toml)
finds no error in the headless packages."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_error_in_core_db_and_annotation(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
         "core", "db", "annotation"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]
    assert "Success: no issues found" in out.stdout
