"""Fuzzing every importer: seeded mutations of our fixture files in each peer format either
import (and round trip) or fail with a one-line InputError naming the file — never another
exception. The same fuzzing of the peers' own samples is in tests/peers/.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import importer_checks as checks
from tests.importer_support import FIXTURES as S

JSON_FILES = S.formats(rjua=False)


@pytest.mark.parametrize(("fmt", "sample"), JSON_FILES, ids=[s for _, s in JSON_FILES])
def test_fuzzed_fixtures_import_or_fail_in_one_line(tmp_path: Path, fmt: str,
                                                    sample: str) -> None:
    checks.check_fuzzed_json(tmp_path, fmt, S, sample)


def test_fuzzed_rjua_csv_imports_or_fails_in_one_line(tmp_path: Path) -> None:
    checks.check_fuzzed_rjua(tmp_path, S.path(S.rjua))
