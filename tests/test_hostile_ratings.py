"""Ratings files that are not what they claim (issue 18, item 9, in part).

- `ratings import` never adds a rater to a study by itself: a rater the study does not
  have is a one-line error naming the raters and the line, unless `--add-raters`.
- `agreement` checks values against a scale: `--scale LO-HI`, or the rubric of the study
  the file names (a `study` column); a value outside it is an error naming file and line.
  Blank and NaN values it leaves out are counted on stderr, with their lines.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from db.study_store import SqliteStudyStore
from tests.test_study_support import make_study, seed_db
from tui.cli import main


@pytest.fixture
def rated(tmp_path: Path) -> Path:
    """The pilot study (alice, bob, carol) with alice's first assignment rated."""
    db_path = tmp_path / "s.db"
    db = seed_db(db_path, n=3)
    study_id = make_study(db, tmp_path)
    store = SqliteStudyStore(db)
    alice = store.get_rater("alice")
    first = store.assignments(study_id, alice.id)[0]
    store.save_ratings(first.id, {("realism_doctor", -1): ("6", None),
                                  ("empathy_doctor", -1): ("5", None)})
    db.conn.close()
    return db_path


def _export_as(db: Path, tmp_path: Path, rater: str, capsys) -> Path:
    assert main(["ratings", "export", "--study", "pilot", "--db", str(db)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 2
    for row in rows:
        row["rater"] = rater
    path = tmp_path / "back.csv"
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def _raters(db: Path, study: str = "pilot") -> set[str]:
    from db.connection import open_db

    store = SqliteStudyStore(open_db(db))
    return {r.name for r in store.study_raters(store.get_study(study).id)}


def test_an_unknown_rater_needs_add_raters(rated: Path, tmp_path: Path, capsys) -> None:
    path = _export_as(rated, tmp_path, "dave", capsys)
    assert main(["ratings", "import", str(path), "--db", str(rated)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{path}:2: field 'rater': 'dave' is not a rater of study 'pilot'" in err, err
    assert "--add-raters" in err
    assert _raters(rated) == {"alice", "bob", "carol"}
    assert main(["ratings", "import", str(path), "--add-raters", "--db", str(rated)]) == 0
    assert "added to study 'pilot': dave" in capsys.readouterr().err
    assert _raters(rated) == {"alice", "bob", "carol", "dave"}


def test_a_rater_in_another_case_is_named(rated: Path, tmp_path: Path, capsys) -> None:
    path = _export_as(rated, tmp_path, "Alice", capsys)
    assert main(["ratings", "import", str(path), "--db", str(rated)]) == 2
    assert "did you mean 'alice'?" in capsys.readouterr().err


def _agreement(path: Path, capsys, *extra: str) -> tuple[int, str, str]:
    code = main(["agreement", str(path), *extra])
    out, err = capsys.readouterr()
    return code, out, err


def test_agreement_refuses_values_outside_the_scale(tmp_path: Path, capsys) -> None:
    path = tmp_path / "r.csv"
    path.write_text("unit,rater,value\nu1,A,3\nu1,B,4\nu2,A,999\nu2,B,-50\nu3,A,2\nu3,B,2\n")
    code, _, err = _agreement(path, capsys, "--scale", "1-5")
    assert code == 2 and err.count("\n") == 1
    assert f"{path}:4: field 'value': '999' is outside the scale 1–5" in err, err
    code, _, err = _agreement(path, capsys)  # no scale: the values seen are the scale, said
    assert code == 0 and "scale: -50 to 999, from the values" in err
    for bad in ("5-1", "one-five", "1-"):
        code, _, err = _agreement(path, capsys, "--scale", bad)
        assert code == 2 and "field '--scale'" in err, err


def test_agreement_reads_the_scale_of_the_study_the_file_names(
        rated: Path, tmp_path: Path, capsys) -> None:
    path = tmp_path / "r.csv"
    path.write_text("study,item,unit,rater,value\npilot,realism_doctor,u1,A,3\n"
                    "pilot,realism_doctor,u1,B,4\npilot,realism_doctor,u2,A,11\n"
                    "pilot,realism_doctor,u2,B,2\n")
    code, _, err = _agreement(path, capsys, "--db", str(rated))
    assert code == 2
    assert f"{path}:4: field 'value': '11' is outside the scale 1–10 of 'realism_doctor' " \
           "(study 'pilot')" in err, err


def test_agreement_says_which_values_it_left_out(tmp_path: Path, capsys) -> None:
    path = tmp_path / "r.csv"
    path.write_text("unit,rater,value\nu1,A,3\nu1,B,\nu2,A,4\nu2,B,nan\nu3,A,2\nu3,B,NA\n"
                    "u4,A,5\nu4,B,5\n")
    code, _, err = _agreement(path, capsys, "--scale", "1-5")
    assert code == 0
    assert "left out 3 missing values (blank, NA or NaN): lines 3, 5, 7" in err, err
