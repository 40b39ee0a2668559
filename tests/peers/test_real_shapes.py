"""Our fixture files (tests/fixtures/peers) have the shape of the peers' own samples: the same
keys, columns, roles and routing tags, so that what the default run proves on the fixtures
is proved on the real formats. Collected only when asked for (see tests/conftest.py).
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest

from tests.importer_support import FIXTURES, Samples, real_samples

REAL = real_samples()
# The tables beside the RJUA sheet (answer key and synonyms); no importer reads them yet.
RJUA_TABLES = [("rjua/diag_table_fixture.csv", "rjua/diag_table_sample.csv"),
               ("rjua/word_table_fixture.csv", "rjua/word_table_sample.csv")]


def _records(samples: Samples, relative: str) -> list[dict[str, Any]]:
    text = samples.path(relative).read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        return json.loads(text)
    return [json.loads(ln) for ln in text.splitlines() if ln.strip()]


def _keys(records: list[dict[str, Any]], *path: str) -> set[str]:
    """Every key found at `path` inside the records."""
    found: set[str] = set()
    for record in records:
        value: Any = record
        for step in path:
            value = value.get(step) if isinstance(value, dict) else None
        if isinstance(value, dict):
            found |= set(value)
    return found


def _rows(samples: Samples, relative: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(samples.path(relative).read_text(encoding="utf-8"))))


@pytest.mark.parametrize("path", [(), ("OSCE_Examination",),
                                  ("OSCE_Examination", "Patient_Actor"),
                                  ("OSCE_Examination", "Patient_Actor", "Symptoms")])
def test_medqa_keys(path: tuple[str, ...]) -> None:
    real = _keys(_records(REAL, REAL.medqa), *path)
    assert real and real == _keys(_records(FIXTURES, FIXTURES.medqa), *path)


def test_nejm_keys_and_answers() -> None:
    real, ours = _records(REAL, REAL.nejm), _records(FIXTURES, FIXTURES.nejm)
    assert _keys(real) == _keys(ours)
    for records in (real, ours):
        assert all(isinstance(r["type"], list) and len(r["answers"]) == 5 for r in records)
        assert all({"text", "correct"} == set(a) for r in records for a in r["answers"])


@pytest.mark.parametrize("which", ["aih_zh", "aih_en"])
def test_aihospital_record_keys(which: str) -> None:
    real = _records(REAL, getattr(REAL, which))
    ours = _records(FIXTURES, getattr(FIXTURES, which))
    assert _keys(real) == _keys(ours)
    assert _keys(real, "medical_record") <= _keys(ours, "medical_record")  # ours may add one
    assert _keys(real, "raw_medical_record") == _keys(ours, "raw_medical_record")
    tags = {t for r in real if r.get("profile") for t in re.findall(r"<[^>]+>", r["profile"])}
    assert tags == {t for r in ours if r.get("profile")
                    for t in re.findall(r"<[^>]+>", r["profile"])}


def test_dialog_keys_roles_and_tags() -> None:
    real, ours = _records(REAL, REAL.dialog), _records(FIXTURES, FIXTURES.dialog)
    assert _keys(real) == _keys(ours)
    turns = [[t for r in records for t in r["dialog_history"]] for records in (real, ours)]
    assert {frozenset(t) for t in turns[0]} == {frozenset(t) for t in turns[1]}
    assert {t["role"] for t in turns[0]} == {t["role"] for t in turns[1]}
    tags = [{m for t in ts for m in re.findall(r"<[^>]{2,5}>", t["content"])} for ts in turns]
    assert tags[0] == tags[1] == {"<对医生讲>", "<对检查员讲>", "<结束>"}


def test_rjua_sheet_columns_and_categories() -> None:
    real, ours = _rows(REAL, REAL.rjua), _rows(FIXTURES, FIXTURES.rjua)
    assert real[0] == ours[0]
    assert {r[0] for r in real[1:] if r} <= {r[0] for r in ours[1:] if r}


@pytest.mark.parametrize(("ours", "real"), RJUA_TABLES)
def test_rjua_tables_columns(ours: str, real: str) -> None:
    assert _rows(REAL, real)[0] == _rows(FIXTURES, ours)[0]


@pytest.mark.parametrize("which", ["medqa", "nejm", "aih_zh", "aih_en", "dialog", "rjua"])
def test_same_line_ends(which: str) -> None:
    """The final newline (or its absence) and the row ends are the real file's."""
    data = [s.path(getattr(s, which)).read_bytes() for s in (REAL, FIXTURES)]
    assert [d.endswith(b"\n") for d in data] == [data[0].endswith(b"\n")] * 2
    assert [b"\r\n" in d for d in data] == [b"\r\n" in data[0]] * 2
