"""Ratings export/import in long format (CSV and JSONL), on real SQLite files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotation.exchange import COLUMNS, REQUIRED, export_rows, import_file, to_jsonl
from tui.text.exports import ratings_csv as to_csv
from core.errors import InputError
from db.study_store import SqliteStudyStore
from tests.test_study_support import make_study, seed_db
from tui.cli import main

FULL = {("realism_doctor", -1): ("7", None), ("realism_patient", -1): ("6", None),
        ("realism_examiner", -1): ("5", None), ("empathy_doctor", -1): ("4", "warm")}


@pytest.fixture
def study(tmp_path: Path):
    store = SqliteStudyStore(seed_db(tmp_path / "s.db"))
    sid = make_study(store.db, tmp_path)
    return store, sid, store.get_rater("alice").id


def _fresh(tmp_path: Path, name: str):
    """Another database with the same transcripts and the same study (same assignments)."""
    store = SqliteStudyStore(seed_db(tmp_path / f"{name}.db"))
    folder = tmp_path / name
    folder.mkdir()
    return store, make_study(store.db, folder)


def _row(**changes) -> dict:
    base = {"study": "pilot", "consultation": "c00", "item": "realism_doctor",
            "unit": "transcript", "rater": "alice", "rater_kind": "human", "value": "7",
            "comment": None, "created_at": "2025-01-01T10:00:00Z",
            "updated_at": "2025-01-01T10:00:00Z"}
    return {**base, **changes}


def _jsonl(tmp_path: Path, rows: list[dict], name: str = "in.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _alice_c00(store: SqliteStudyStore, sid: str) -> str:
    found = store.find_assignment(sid, store.get_rater("alice").id, "c00")
    assert found is not None
    return found.id


def test_round_trip_csv_and_jsonl_with_skips_and_status(study, tmp_path: Path) -> None:
    store, sid, alice = study
    a = store.next_assignment(sid, alice).id
    store.save_ratings(a, {**FULL, ("patient_honesty", 2): ("no", None),
                           ("comment", -1): ('odd, "quoted"\nline', None)})
    skipped = store.next_assignment(sid, alice).id
    store.skip(skipped, "audio missing")
    rows = export_rows(store, "pilot")
    assert len(rows) == 7 and {r.rater for r in rows} == {"alice"}
    assert list(rows[0].model_dump()) == list(COLUMNS)
    assert {r.status for r in rows[:6]} == {"done"}
    skip_row = rows[6]
    assert (skip_row.item, skip_row.status, skip_row.skip_reason) == (
        None, "skipped", "audio missing")
    for fmt, text in (("csv", to_csv(rows)), ("jsonl", to_jsonl(rows))):
        fresh, fresh_sid = _fresh(tmp_path, fmt)
        path = tmp_path / f"r.{fmt}"
        path.write_text(text, encoding="utf-8")
        summary = import_file(fresh, path)
        assert (summary.read, summary.new, summary.marked_done, summary.marked_skipped) == (
            7, 6, 1, 1)
        assert export_rows(fresh, "pilot") == rows
        again = import_file(fresh, path)  # idempotent
        assert (again.new, again.updated, again.same, again.kept) == (0, 0, 6, [])
        assert fresh.db["ratings"].count == 6


def test_import_marks_assignments_done_so_the_study_list_is_complete(study, tmp_path) -> None:
    store, sid, _ = study
    for rater in store.study_raters(sid):
        while (a := store.next_assignment(sid, rater.id)) is not None:
            store.save_ratings(a.id, FULL)
    path = tmp_path / "all.csv"
    path.write_text(to_csv(export_rows(store, "pilot")), encoding="utf-8")
    fresh, fresh_sid = _fresh(tmp_path, "fresh")
    summary = import_file(fresh, path)
    total = fresh.db["assignments"].count
    assert summary.marked_done == total
    (listed,) = fresh.list_studies()
    assert (listed.finished, listed.done, listed.assignments) == (total, total, total)


def test_partial_answers_leave_the_assignment_pending(study, tmp_path: Path) -> None:
    store, sid, _ = study
    summary = import_file(store, _jsonl(tmp_path, [_row()]))
    assert (summary.new, summary.marked_done) == (1, 0)
    assert store.get_assignment(_alice_c00(store, sid)).status == "pending"


def test_bom_csv_and_numeric_jsonl_values_are_accepted(study, tmp_path: Path) -> None:
    store, sid, _ = study
    csv_path = tmp_path / "excel.csv"
    header = ",".join(REQUIRED)
    line = "pilot,c00,realism_doctor,transcript,alice,human,8,,2025-01-01T10:00:00Z," \
           "2025-01-01T10:00:00Z"
    csv_path.write_bytes("\ufeff".encode() + f"{header}\n{line}\n".encode())
    assert import_file(store, csv_path).new == 1
    j = _jsonl(tmp_path, [_row(item="realism_patient", value=7),
                          _row(item="realism_examiner", value=6.0)])
    assert import_file(store, j).new == 2
    got = store.assignment_ratings(_alice_c00(store, sid))
    assert got[("realism_doctor", -1)] == ("8", None)
    assert got[("realism_patient", -1)] == ("7", None)
    assert got[("realism_examiner", -1)] == ("6", None)
    with pytest.raises(InputError, match=r"in.jsonl:1: field 'value': expected text or a num"):
        import_file(store, _jsonl(tmp_path, [_row(value=True)]))


@pytest.mark.parametrize("stamp", ["yesterday", "b", "2025-01-01T10:00:00", "2025-13-01T00:00Z"])
def test_bad_timestamps_are_refused_with_file_line_and_field(study, tmp_path, stamp) -> None:
    store, _, _ = study
    path = _jsonl(tmp_path, [_row(), _row(item="realism_patient", updated_at=stamp)])
    with pytest.raises(InputError, match=r"in.jsonl:2: field 'updated_at': .*ISO-8601 UTC"):
        import_file(store, path)
    assert store.db["ratings"].count == 0  # all or nothing


def test_other_time_zones_are_converted_to_utc(study, tmp_path: Path) -> None:
    store, sid, _ = study
    import_file(store, _jsonl(tmp_path, [_row(created_at="2025-01-01T12:00:00+02:00",
                                              updated_at="2025-01-01T12:30:00.5+02:00")]))
    (row,) = store.db["ratings"].rows
    assert (row["created_at"], row["updated_at"]) == ("2025-01-01T10:00:00.000Z",
                                                      "2025-01-01T10:30:00.500Z")


def test_empty_rows_are_skipped_with_a_note(study, tmp_path: Path, capsys) -> None:
    store, sid, _ = study
    path = tmp_path / "holes.csv"
    lines = [",".join(REQUIRED),
             "pilot,c00,realism_doctor,transcript,alice,human,,,2025-01-01T10:00:00Z,"
             "2025-01-01T10:00:00Z",
             "pilot,c00,realism_patient,transcript,alice,human,6,,2025-01-01T10:00:00Z,"
             "2025-01-01T10:00:00Z"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    summary = import_file(store, path)
    assert (summary.new, summary.empty) == (1, [2])
    store.db.close()
    assert main(["--db", str(tmp_path / "s.db"), "ratings", "import", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 rows skipped: no value and no comment (lines 2)" in out


def test_units_must_be_rating_units_of_that_transcript(study, tmp_path: Path) -> None:
    store, _, _ = study
    for unit, why in (("turn:999", "turn:999 of 'c00' is not rated for 'patient_honesty'"),
                      ("turn:1", "turn:1 of 'c00' is not rated")):  # turn 1 is the doctor's
        path = _jsonl(tmp_path, [_row(item="patient_honesty", unit=unit, value="yes")])
        with pytest.raises(InputError, match=rf"in.jsonl:1: field 'unit': {why}"):
            import_file(store, path)
    ok = _jsonl(tmp_path, [_row(item="patient_honesty", unit="turn:2", value="yes")])
    assert import_file(store, ok).new == 1


def test_rater_kind_must_match_the_stored_rater(study, tmp_path: Path) -> None:
    store, _, _ = study
    path = _jsonl(tmp_path, [_row(rater_kind="judge")])
    with pytest.raises(InputError, match="field 'rater_kind': rater 'alice' is a human rater"):
        import_file(store, path)
    mixed = _jsonl(tmp_path, [_row(rater="ext"), _row(rater="ext", item="realism_patient",
                                                      rater_kind="judge")])
    with pytest.raises(InputError, match=r"in.jsonl:2: .*'ext' is a human rater"):
        import_file(store, mixed)
    assert store.db["ratings"].count == 0


def test_newer_stored_answers_are_kept_unless_replace(study, tmp_path: Path, capsys) -> None:
    store, sid, _ = study
    aid = _alice_c00(store, sid)
    store.save_ratings(aid, FULL, at="2025-06-01T00:00:00.000Z")
    old = _jsonl(tmp_path, [_row(value="2", updated_at="2025-01-01T10:00:00Z"),
                            _row(item="realism_patient", value="3",
                                 updated_at="2025-07-01T00:00:00Z")])
    summary = import_file(store, old)
    assert summary.kept == [(1, "the stored answer is as new or newer")]
    assert summary.updated == 1
    got = store.assignment_ratings(aid)
    assert got[("realism_doctor", -1)] == ("7", None)  # newer in the database: kept
    assert got[("realism_patient", -1)] == ("3", None)  # newer in the file: taken
    store.db.close()
    base = ["--db", str(tmp_path / "s.db"), "ratings", "import", str(old)]
    assert main(base) == 0
    assert "1 rows not imported: the stored answer is as new or newer (lines 1;" \
        in capsys.readouterr().out
    assert main([*base, "--replace"]) == 0
    check_store = SqliteStudyStore(seed_db(tmp_path / "s.db", n=0))
    assert check_store.assignment_ratings(aid)[("realism_doctor", -1)] == ("2", None)
    # the overwritten answer stays in the history
    assert any(h.prev_value == "7" and h.value == "2"
               for h in check_store.rating_history(aid))


def test_progress_ignores_imported_saves(study, tmp_path: Path) -> None:
    store, sid, alice = study
    import_file(store, _jsonl(tmp_path, [
        _row(consultation=c, updated_at=f"2020-01-01T00:0{i}:00Z")  # a minute apart
        for i, c in enumerate(store.study_consultations(sid)[:3])
        if store.find_assignment(sid, alice, c)]))
    p = store.progress(sid, alice)
    assert p.seconds_left is None  # imports say nothing about this rater's pace


def test_malformed_files_name_file_and_line(study, tmp_path: Path) -> None:
    store, _, _ = study
    bad = tmp_path / "bad.csv"
    bad.write_text("study,consultation\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.csv:1: missing column 'item'"):
        import_file(store, bad)
    bad.write_text(",".join([*REQUIRED, "colour"]) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.csv:1: unknown column 'colour'"):
        import_file(store, bad)
    with pytest.raises(InputError, match=r"in.jsonl:1: field 'value': '12' is not a valid"):
        import_file(store, _jsonl(tmp_path, [_row(value="12")]))
    with pytest.raises(InputError, match=r"in.jsonl:2: field 'unit': the same rating as line 1"):
        import_file(store, _jsonl(tmp_path, [_row(), _row(value="3")]))
    j = tmp_path / "short.jsonl"
    j.write_text('{"study": "pilot"}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"short.jsonl:1: field '\w+': Field required"):
        import_file(store, j)
