"""Importers never overwrite good data with bad (issue 18, item 5).

- A value of the wrong type (a number where the format writes text) is an error naming the
  file, the line where the record starts and the field, in every format; nothing is
  written, so the case imported before is left as it was.
- An RJUA sheet cut mid-row is an error naming the line.
- A re-import that changes a stored case's ground truth (diagnosis, findings, results)
  writes nothing without `--update`, exits 1 and lists what would change; with
  `--update` it is applied and said.

The files are our own fixtures (tests/fixtures/peers), altered in a temporary folder.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.importer_support import FIXTURE_ROOT
from tui.cli import main

EN = FIXTURE_ROOT / "ai_hospital" / "patients_en_fixture.json"
NEJM = FIXTURE_ROOT / "agentclinic" / "nejm_fixture.jsonl"
MEDQA = FIXTURE_ROOT / "agentclinic" / "medqa_fixture.jsonl"
DIALOG = FIXTURE_ROOT / "ai_hospital" / "dialog_history_fixture.jsonl"
RJUA = FIXTURE_ROOT / "rjua" / "sp_fixture.csv"


def _json_list(tmp_path: Path, change: Callable[[list[dict[str, Any]]], None]) -> Path:
    records = json.loads(EN.read_text(encoding="utf-8"))
    change(records)
    path = tmp_path / "patients.json"
    path.write_text(json.dumps(records, ensure_ascii=False, indent=2), encoding="utf-8")
    return path


def _jsonl(tmp_path: Path, source: Path, line: int,
           change: Callable[[dict[str, Any]], None]) -> Path:
    lines = source.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[line - 1])
    change(record)
    lines[line - 1] = json.dumps(record, ensure_ascii=False)
    path = tmp_path / source.name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _set(*keys: Any, value: Any) -> Callable[[Any], None]:
    def change(data: Any) -> None:
        for key in keys[:-1]:
            data = data[key]
        data[keys[-1]] = value
    return change


def _import(fmt: str, path: Path, db: Path, capsys: pytest.CaptureFixture[str],
            *extra: str) -> tuple[int, str, str]:
    code = main(["cases", "import", fmt, str(path), "--db", str(db), *extra])
    out, err = capsys.readouterr()
    return code, out, err


def _state(db: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT id, content_hash FROM cases ORDER BY id").fetchall()


WRONG_TYPES = [
    ("aihospital", lambda t: _json_list(t, _set(0, "disease", value=12345)), 2, "disease",
     "the number 12345"),
    ("aihospital", lambda t: _json_list(
        t, _set(0, "medical_record", "diagnostic_results", value=12345)), 2,
     "medical_record.diagnostic_results", "the number 12345"),
    ("aihospital", lambda t: _json_list(t, _set(1, "id", value=True)), None, "id",
     "a boolean"),
    ("agentclinic-nejm", lambda t: _jsonl(t, NEJM, 2, _set("question", value=42)), 2,
     "question", "the number 42"),
    ("agentclinic-nejm", lambda t: _jsonl(t, NEJM, 1, _set("answers", 0, "text", value=7)),
     1, "answers[0].text", "the number 7"),
    ("agentclinic-nejm", lambda t: _jsonl(t, NEJM, 3, _set("answers", 1, "correct",
                                                              value="maybe")),
     3, "answers[1].correct", "'maybe'"),
    ("agentclinic", lambda t: _jsonl(t, MEDQA, 2, _set("OSCE_Examination",
                                                        "Correct_Diagnosis", value=3.5)),
     2, "OSCE_Examination.Correct_Diagnosis", "the number 3.5"),
    ("agentclinic", lambda t: _jsonl(t, MEDQA, 1, _set("OSCE_Examination",
                                                        "Objective_for_Doctor", value=[1])),
     1, "OSCE_Examination.Objective_for_Doctor", "a list"),
    ("aihospital-dialog", lambda t: _jsonl(t, DIALOG, 4, _set("doctor_engine_name", value=5)),
     4, "doctor_engine_name", "the number 5"),
    ("aihospital-dialog", lambda t: _jsonl(t, DIALOG, 2, _set("patient_id", value=[3105])),
     2, "patient_id", "a list"),
]


@pytest.mark.parametrize("fmt, make, line, field, got", WRONG_TYPES,
                         ids=[f"{w[0]}-{w[3]}" for w in WRONG_TYPES])
def test_a_wrong_type_is_an_error_and_writes_nothing(tmp_path: Path, capsys, fmt: str,
                                                     make: Callable[[Path], Path],
                                                     line: int | None, field: str,
                                                     got: str) -> None:
    db = tmp_path / "x.db"
    good = {"aihospital": EN, "agentclinic-nejm": NEJM, "agentclinic": MEDQA,
            "aihospital-dialog": DIALOG}[fmt]
    assert _import(fmt, good, db, capsys)[0] == 0
    before = _state(db)
    bad = make(tmp_path)
    code, out, err = _import(fmt, bad, db, capsys)
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err
    if line is None:  # the second record of the list: wherever json.dumps put it
        line = next(i for i, x in enumerate(bad.read_text().splitlines(), 1)
                    if x == "  {" and i > 2)
    assert f"{bad}:{line}: field '{field}'" in err, err
    assert got in err, err
    assert _state(db) == before


def _cut_rjua(tmp_path: Path) -> tuple[Path, int]:
    lines = RJUA.read_text(encoding="utf-8").split("\n")
    cut = next(i for i, x in enumerate(lines) if x.startswith("检验,血常规"))
    text = "\n".join(lines[:cut]) + "\n" + lines[cut][:lines[cut].index(",") + 3]
    path = tmp_path / "sp.csv"
    path.write_text(text, encoding="utf-8")
    return path, cut + 1


def test_an_rjua_sheet_cut_mid_row_is_an_error(tmp_path: Path, capsys) -> None:
    path, line = _cut_rjua(tmp_path)
    code, _, err = _import("rjua", path, tmp_path / "x.db", capsys)
    assert code == 2 and err.count("\n") == 1
    assert f"{path}:{line}: " in err and "cut short" in err, err
    assert not (tmp_path / "x.db").exists() or _state(tmp_path / "x.db") == []


def test_a_changed_ground_truth_needs_update(tmp_path: Path, capsys) -> None:
    db = tmp_path / "x.db"
    assert _import("aihospital", EN, db, capsys)[0] == 0
    before = _state(db)

    def change(records: list[dict[str, Any]]) -> None:
        record = records[0]["medical_record"]
        record["diagnostic_results"] = "Type 1 diabetes mellitus; obesity\n"
        record["auxiliary_examinations"] = record["auxiliary_examinations"].replace(
            "HbA1c: 9.1%", "HbA1c: 5.1%")
        records[1]["profile"] = "A retired teacher who worries a lot."  # not ground truth

    path = _json_list(tmp_path, change)
    code, out, err = _import("aihospital", path, db, capsys)
    assert code == 1 and out == ""
    assert "would change the ground truth of 1 stored case" in err
    assert "nothing was written" in err and "--update" in err
    assert ("aihospital-20031: diagnosis 'Type 2 diabetes mellitus with early retinopathy' "
            "→ 'Type 1 diabetes mellitus'") in err
    assert "aihospital-20031: results: 'Blood tests > HbA1c' '9.1%' → '5.1%'" in err
    assert _state(db) == before  # the other record's harmless change is not written either
    code, out, err = _import("aihospital", path, db, capsys, "--update")
    assert code == 0 and "2 updated" in out
    assert "ground truth changed: aihospital-20031: diagnosis" in err
    with sqlite3.connect(db) as con:
        data = con.execute("SELECT data FROM cases WHERE id = 'aihospital-20031'").fetchone()
    assert json.loads(data[0])["truth"]["diagnosis"] == "Type 1 diabetes mellitus"


def test_a_change_outside_the_ground_truth_needs_no_update(tmp_path: Path, capsys) -> None:
    db = tmp_path / "x.db"
    assert _import("aihospital", EN, db, capsys)[0] == 0
    path = _json_list(tmp_path, _set(1, "profile", value="A retired teacher."))
    code, out, err = _import("aihospital", path, db, capsys)
    assert code == 0 and "1 updated" in out and "ground truth" not in err
