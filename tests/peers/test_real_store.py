"""The peers' own samples (../shared/peers, or $BEDSIDE_PEERS) through the CLI into a real
database file and back; re-imports; `bedside cases list` on them. The checks the default run
makes on our fixtures, made on the real files. Collected only when asked for (see
tests/conftest.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import importer_checks as checks
from tests.importer_support import real_samples
from tests.test_cli_cases import check_cases_list_aligns_cjk_and_sets_placeholders_apart

REAL = real_samples()
FILES = REAL.formats()


@pytest.mark.parametrize("fmt,sample", FILES, ids=[f"{f}:{Path(p).name}" for f, p in FILES])
def test_sample_round_trips_through_the_store(fmt, sample, tmp_path) -> None:
    checks.check_round_trip_through_the_store(fmt, REAL.path(sample), tmp_path)


def test_reimporting_dialogues_skips_them(tmp_path) -> None:
    checks.check_reimporting_dialogues_skips_them(REAL.path(REAL.dialog), tmp_path, count=5)


def test_reimporting_cases_updates_and_says_so(tmp_path) -> None:
    checks.check_reimporting_cases_updates_and_says_so(REAL.path(REAL.aih_en), tmp_path)


def test_real_record_replaces_the_placeholder(tmp_path) -> None:
    checks.check_real_record_replaces_the_placeholder(
        REAL.path(REAL.aih_en), tmp_path, patient_id=10001,
        diagnosis="Grade 2 hypertension, high risk")


@pytest.mark.parametrize(("fmt", "content", "where"), checks.BAD_IMPORTS)
def test_bad_import_keeps_what_is_saved(tmp_path, fmt, content, where) -> None:
    checks.check_bad_import_keeps_what_is_saved(tmp_path, REAL.path(REAL.rjua),
                                                "rjua-sp_test_case", fmt, content, where)


def test_cases_list_aligns_cjk_titles_and_sets_placeholders_apart(tmp_path) -> None:
    check_cases_list_aligns_cjk_and_sets_placeholders_apart(
        REAL, tmp_path, cjk_ids=("aihospital-1003", "rjua-sp_test_case"), who="男，54岁",
        placeholder="aihospital-1812")
