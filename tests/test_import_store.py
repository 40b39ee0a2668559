"""Each importer's fixture file goes through the CLI into a real database file and back
unchanged; re-imports are recognised; a bad file changes nothing already saved. The same
checks on the peers' own samples are in tests/peers/.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import importer_checks as checks
from tests.importer_support import FIXTURES as S

FILES = S.formats()


@pytest.mark.parametrize("fmt,sample", FILES, ids=[f"{f}:{Path(p).name}" for f, p in FILES])
def test_fixture_round_trips_through_the_store(fmt, sample, tmp_path) -> None:
    checks.check_round_trip_through_the_store(fmt, S.path(sample), tmp_path)


def test_reimporting_dialogues_skips_them(tmp_path) -> None:
    checks.check_reimporting_dialogues_skips_them(S.path(S.dialog), tmp_path, count=5)


def test_reimporting_cases_updates_and_says_so(tmp_path) -> None:
    checks.check_reimporting_cases_updates_and_says_so(S.path(S.aih_en), tmp_path)


def test_real_record_replaces_the_placeholder(tmp_path) -> None:
    checks.check_real_record_replaces_the_placeholder(
        S.path(S.aih_en), tmp_path, patient_id=20031,
        diagnosis="Type 2 diabetes mellitus with early retinopathy")


def test_malformed_import_is_one_line_naming_file_and_line(tmp_path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('\n{not json\n')
    out = checks.cli_import("agentclinic", bad, tmp_path / "p.db", tmp_path)
    assert out.returncode == 2
    err = out.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert f"{bad}:2" in err


@pytest.mark.parametrize(("fmt", "content", "where"), checks.BAD_IMPORTS)
def test_bad_import_keeps_what_is_saved(tmp_path, fmt, content, where) -> None:
    checks.check_bad_import_keeps_what_is_saved(tmp_path, S.path(S.rjua), "rjua-sp_fixture",
                                                fmt, content, where)
