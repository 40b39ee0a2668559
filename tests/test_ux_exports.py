"""Exports researchers and raters expect (issue 16), through the real CLI on a real
database: a rater's assignment sheet (CSV to fill in, blinded Markdown to read) that
`bedside ratings import` takes back, and `bedside transcripts export` as JSON Lines and
Markdown."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from db.connection import open_db
from db.study_store import SqliteStudyStore
from tests.test_cli_cases import bedside
from tests.test_study_support import SECRET_DOCTOR, SECRET_VERDICT, make_study, seed_db


def _study(tmp_path: Path) -> Path:
    db = seed_db(tmp_path / "s.db", n=4, id_prefix="hum-")  # ids that say 'a physician'
    make_study(db, tmp_path)
    db.conn.close()
    return tmp_path / "s.db"


def test_an_assignment_sheet_is_blinded_and_comes_back_with_ratings_import(
        tmp_path: Path) -> None:
    db = _study(tmp_path)
    out = bedside("study", "sheet", "--study", "pilot", "--rater", "ALICE", "-o",
                  str(tmp_path / "sheets"), "--db", str(db), home=tmp_path)
    assert out.returncode == 0, out.stderr
    sheet_csv = tmp_path / "sheets" / "pilot-alice.csv"
    sheet_md = tmp_path / "sheets" / "pilot-alice.md"
    both = sheet_csv.read_text() + sheet_md.read_text()
    # Blinded: no doctor, no verdict, no transcript id ('hum-…' says who played).
    for secret in (SECRET_DOCTOR, SECRET_VERDICT, "hum-"):
        assert secret not in both, secret
    assert "\x1b" not in both and "␛[31mred" in sheet_md.read_text()  # made harmless
    rows = list(csv.DictReader(io.StringIO(sheet_csv.read_text())))
    assert rows and all(r["consultation"].startswith("as-") and not r["value"] for r in rows)
    keys = {r["transcript"] for r in rows}
    assert keys == {f"T{i}" for i in range(1, len(keys) + 1)} and len(keys) >= 2
    assert sheet_md.read_text().count("\n## T") == len(keys)
    assert "## T1" in sheet_md.read_text() and "How realistic is the doctor?" in both
    # The rater fills in the required questions of T1 in a spreadsheet …
    for r in rows:
        if r["transcript"] == "T1" and r["required"] == "yes":
            r["value"] = "6"
    filled = tmp_path / "filled.csv"
    with filled.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    out = bedside("ratings", "import", str(filled), "--db", str(db), home=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "1 transcripts marked done" in out.stdout
    store = SqliteStudyStore(open_db(db))
    sid = store.get_study("pilot").id
    alice = store.get_rater("alice").id
    first = next(a for a in store.assignments(sid, alice)
                 if a.id == next(r["consultation"] for r in rows if r["transcript"] == "T1"))
    assert first.status == "done"
    assert {v for v, _ in store.assignment_ratings(first.id).values()} == {"6"}
    # … and the next sheet leaves it out.
    out = bedside("study", "sheet", "--study", "pilot", "--rater", "alice", "-o",
                  str(tmp_path / "again"), "--db", str(db), home=tmp_path)
    assert first.id not in (tmp_path / "again" / "pilot-alice.csv").read_text()


def test_a_sheet_row_of_another_raters_assignment_is_refused(tmp_path: Path) -> None:
    db = _study(tmp_path)
    assert bedside("study", "sheet", "--study", "pilot", "--rater", "alice", "-o",
                   str(tmp_path), "--db", str(db), home=tmp_path).returncode == 0
    text = (tmp_path / "pilot-alice.csv").read_text()
    rows = list(csv.DictReader(io.StringIO(text)))
    rows[0]["value"], rows[0]["rater"] = "yes", "bob"
    bad = tmp_path / "bad.csv"
    with bad.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows[:1])
    out = bedside("ratings", "import", str(bad), "--db", str(db), home=tmp_path)
    assert out.returncode == 2 and f"{bad}:2: field 'consultation'" in out.stderr
    assert "is not bob's in study 'pilot'" in out.stderr


def test_an_unknown_rater_has_no_sheet(tmp_path: Path) -> None:
    db = _study(tmp_path)
    out = bedside("study", "sheet", "--study", "pilot", "--rater", "mallory", "--db", str(db),
                  "-o", str(tmp_path / "none"), home=tmp_path)
    assert out.returncode == 2 and "'mallory' is not in study 'pilot'" in out.stderr
    assert not (tmp_path / "none").exists()  # checked before anything is written


def test_transcripts_export_as_jsonl_and_markdown(tmp_path: Path) -> None:
    db = _study(tmp_path)
    out = bedside("transcripts", "export", "--db", str(db), home=tmp_path)
    assert out.returncode == 0, out.stderr
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["consultation_id"] for r in records] == [f"hum-{i:02d}" for i in range(4)]
    first = records[0]
    assert first["diagnosis"] == "something" and first["verdict"] == "correct"
    assert first["truth"] and [t["role"] for t in first["turns"]][:3] == [
        "system", "doctor", "patient"]
    assert first["turns"][2]["content"] == "[bold red]I feel awful[/] \x1b[31mred\x1b[0m"
    target = tmp_path / "t.md"
    out = bedside("transcripts", "export", "--format", "md", "--consultation", "hum-01",
                  "-o", str(target), "--db", str(db), home=tmp_path)
    assert out.returncode == 0 and "1 transcripts written" in out.stderr
    md = target.read_text()
    assert "## hum-01" in md and "hum-00" not in md
    assert "- Diagnosis: something" in md and "\x1b" not in md
    assert "~~~\n[bold red]I feel awful[/] ␛[31mred␛[0m\n~~~" in md  # literal, fenced
    out = bedside("transcripts", "export", "--consultation", "nope", "--db", str(db),
                  home=tmp_path)
    assert out.returncode == 2 and "nope" in out.stderr
