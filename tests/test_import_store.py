"""Each importer's sample goes through the CLI into a real database file and back unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.importers import import_file
from db.cases import get_case
from db.connection import open_db
from db.consultations import get_transcript
from tests.test_cli_cases import bedside

PEERS = Path(__file__).resolve().parents[2] / "shared" / "peers"
SAMPLES = [
    ("agentclinic", PEERS / "agentclinic" / "agentclinic_medqa_sample.jsonl"),
    ("agentclinic-nejm", PEERS / "agentclinic" / "agentclinic_nejm_sample.jsonl"),
    ("aihospital", PEERS / "ai_hospital" / "patients_zh_sample.json"),
    ("aihospital", PEERS / "ai_hospital" / "patients_en_sample.json"),
    ("aihospital-dialog", PEERS / "ai_hospital" / "dialog_history_sample.jsonl"),
    ("rjua", PEERS / "rjua" / "sp_test_case.csv"),
]


@pytest.mark.parametrize("fmt,path", SAMPLES, ids=[f"{f}:{p.name}" for f, p in SAMPLES])
def test_sample_round_trips_through_the_store(fmt, path, tmp_path) -> None:
    db_path = tmp_path / "p.db"
    out = bedside("cases", "import", fmt, str(path), "--db", str(db_path), home=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("imported ")
    expected = import_file(fmt, path)
    db = open_db(db_path)
    for case in expected.cases:
        assert get_case(db, case.id) == case
    stored = [get_transcript(db, row["id"]) for row in db["consultations"].rows]
    assert len(stored) == len(expected.transcripts)
    for original in expected.transcripts:
        match = [t for t in stored if t.turns == original.turns]
        assert match and match[0].case_id == original.case_id


def test_malformed_import_is_one_line_naming_file_and_line(tmp_path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('\n{not json\n')
    db_path = tmp_path / "p.db"
    out = bedside("cases", "import", "agentclinic", str(bad), "--db", str(db_path),
                  home=tmp_path)
    assert out.returncode == 2
    err = out.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert f"{bad}:2" in err
