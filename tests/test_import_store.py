"""Each importer's sample goes through the CLI into a real database file and back unchanged;
re-imports are recognised; a bad file changes nothing already saved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.importers import import_file
from db.cases import get_case, list_cases
from db.connection import open_db
from db.consultations import get_transcript
from tests.test_cli_cases import bedside
from tests.importer_support import AIH_EN, AIH_ZH, DIALOG, MEDQA, NEJM, RJUA, peer

SAMPLES = [("agentclinic", MEDQA), ("agentclinic-nejm", NEJM), ("aihospital", AIH_ZH),
           ("aihospital", AIH_EN), ("aihospital-dialog", DIALOG), ("rjua", RJUA)]


def _import(fmt: str, path: Path, db_path: Path, home: Path):
    return bedside("cases", "import", fmt, str(path), "--db", str(db_path), home=home)


@pytest.mark.parametrize("fmt,sample", SAMPLES, ids=[f"{f}:{Path(p).name}" for f, p in SAMPLES])
def test_sample_round_trips_through_the_store(fmt, sample, tmp_path) -> None:
    path = peer(sample)
    db_path = tmp_path / "p.db"
    out = _import(fmt, path, db_path, tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("imported ")
    assert "Traceback" not in out.stderr
    expected = import_file(fmt, path)
    db = open_db(db_path)
    for case in expected.cases:
        assert get_case(db, case.id) == case
    stored = [get_transcript(db, row["id"]) for row in db["consultations"].rows]
    assert len(stored) == len(expected.transcripts)
    for original in expected.transcripts:
        match = [t for t in stored if t.turns == original.turns]
        assert match and match[0].case_id == original.case_id
        assert match[0].meta == original.meta  # provenance (file, line, sha256) kept


def test_reimporting_dialogues_skips_them(tmp_path) -> None:
    db_path = tmp_path / "p.db"
    first = _import("aihospital-dialog", peer(DIALOG), db_path, tmp_path)
    assert first.returncode == 0, first.stderr
    assert "imported 5 transcripts from" in first.stdout
    again = _import("aihospital-dialog", peer(DIALOG), db_path, tmp_path)
    assert again.returncode == 0, again.stderr
    assert "imported 0 transcripts (5 already imported, skipped)" in again.stdout
    db = open_db(db_path)
    assert db["consultations"].count == 5
    placeholders = [c for c in list_cases(db) if c.placeholder]
    assert len(placeholders) == 5 and all(c.truth.diagnosis == "unknown" for c in placeholders)
    # The same dialogue from a renamed copy is recognised too: the id hashes the record.
    copy = tmp_path / "renamed.jsonl"
    copy.write_text(peer(DIALOG).read_text(encoding="utf-8"), encoding="utf-8")
    renamed = _import("aihospital-dialog", copy, db_path, tmp_path)
    assert "(5 already imported, skipped)" in renamed.stdout
    assert open_db(db_path)["consultations"].count == 5


def test_reimporting_cases_updates_and_says_so(tmp_path) -> None:
    db_path = tmp_path / "p.db"
    records = json.loads(peer(AIH_EN).read_text(encoding="utf-8"))
    path = tmp_path / "patients.json"
    path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    assert "2 cases (2 new, 0 updated, 0 unchanged)" in _import("aihospital", path, db_path,
                                                                  tmp_path).stdout
    assert "2 cases (0 new, 0 updated, 2 unchanged)" in _import("aihospital", path, db_path,
                                                                  tmp_path).stdout
    records[0]["medical_record"]["chief_complaint"] = "Headache for a week."
    path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    out = _import("aihospital", path, db_path, tmp_path)
    assert "2 cases (0 new, 1 updated, 1 unchanged)" in out.stdout
    db = open_db(db_path)
    assert db["cases"].count == 2
    assert get_case(db, "aihospital-10001").patient.chief_complaint == "Headache for a week."


def test_real_record_replaces_the_placeholder(tmp_path) -> None:
    db_path = tmp_path / "p.db"
    dialog = {"patient_id": 10001, "dialog_history": [
        {"turn": 0, "role": "Doctor", "content": "What brings you in?"},
        {"turn": 1, "role": "Patient", "content": "<对医生讲> Headaches."}]}
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps(dialog), encoding="utf-8")
    assert _import("aihospital-dialog", path, db_path, tmp_path).returncode == 0
    assert get_case(open_db(db_path), "aihospital-10001").placeholder
    out = _import("aihospital", peer(AIH_EN), db_path, tmp_path)
    assert "(1 new, 1 updated, 0 unchanged)" in out.stdout
    assert "already have consultations" not in out.stderr  # imported ones were not "run"
    case = get_case(open_db(db_path), "aihospital-10001")
    assert not case.placeholder and case.truth.diagnosis == "Grade 2 hypertension, high risk"


def test_malformed_import_is_one_line_naming_file_and_line(tmp_path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('\n{not json\n')
    db_path = tmp_path / "p.db"
    out = _import("agentclinic", bad, db_path, tmp_path)
    assert out.returncode == 2
    err = out.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert f"{bad}:2" in err


@pytest.mark.parametrize(("fmt", "content", "where"), [
    ("aihospital", '[{"id": 1, "medical_record": {"主诉": "头痛", "诊断结果": "，，"}}]',
     ":1: field 'medical_record.诊断结果'"),
    ("aihospital-dialog", '{"dialog_history": ' + "[" * 2000 + "]" * 2000 + "}", ":1:"),
    ("agentclinic-nejm", "", ": no cases in the file"),
])
def test_bad_import_keeps_what_is_saved(tmp_path, fmt, content, where) -> None:
    db_path = tmp_path / "p.db"
    assert _import("rjua", peer(RJUA), db_path, tmp_path).returncode == 0
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    out = _import(fmt, bad, db_path, tmp_path)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().count("\n") == 0 and f"{bad}{where}" in out.stderr
    db = open_db(db_path)
    assert [c.id for c in list_cases(db)] == ["rjua-sp_test_case"]
    assert db["consultations"].count == 0
