"""Fuzzing, role views and JSON-list error lines on the peers' own samples (../shared/peers, or
$BEDSIDE_PEERS): the checks the default run makes on our fixtures, made on the real files.
Collected only when asked for (see tests/conftest.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.importers import import_file
from tests import importer_checks as checks
from tests.importer_support import real_samples
from tests.test_views import assert_faithful_and_unshared

REAL = real_samples()
JSON_FILES = REAL.formats(rjua=False)
CASE_FILES = REAL.formats(dialog=False)


@pytest.mark.parametrize(("fmt", "sample"), JSON_FILES, ids=[s for _, s in JSON_FILES])
def test_fuzzed_samples_import_or_fail_in_one_line(tmp_path: Path, fmt: str,
                                                   sample: str) -> None:
    checks.check_fuzzed_json(tmp_path, fmt, REAL, sample)


def test_fuzzed_rjua_csv_imports_or_fails_in_one_line(tmp_path: Path) -> None:
    checks.check_fuzzed_rjua(tmp_path, REAL.path(REAL.rjua))


def test_aihospital_list_errors_name_the_line_of_each_record(tmp_path: Path) -> None:
    checks.check_list_errors_name_the_line(REAL, tmp_path)


@pytest.mark.parametrize(("fmt", "sample"), CASE_FILES, ids=[s for _, s in CASE_FILES])
def test_imported_views_are_equal_and_share_no_mutable_object(fmt: str, sample: str) -> None:
    """Imported cases carry the odd shapes (deep trees, weights of 0.0, timings, CJK text)."""
    cases = import_file(fmt, REAL.path(sample)).cases
    assert cases
    for case in cases:
        assert_faithful_and_unshared(case)
