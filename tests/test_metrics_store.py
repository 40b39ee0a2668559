"""Metric rows in the store, offline scoring and the results tables (the use cases on a
real SQLite store), and `bedside results`."""

from __future__ import annotations

import argparse
import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from sqlite_utils import Database

from core.errors import InputError
from core.transcript import Transcript, Verdict
from db.cases import save_cases
from db.connection import open_db
from db.consultations import save_transcript
from core.usecases import results as results_uc
from core.usecases import scoring
from db.metrics import get_metrics, save_metrics
from db.store import SqliteStore
from tests.test_metrics_pathway import full_transcript, make_case
from tui.cli import results as cmd_results


# The use cases take a store; these tests hold the connection (to set rows up by hand).
def compute_offline(db: Database, **kw: Any) -> int:
    return scoring.compute_offline(SqliteStore(db), **kw)


def results_table(db: Database, **kw: Any) -> list[dict[str, Any]]:
    return results_uc.results_table(SqliteStore(db), **kw)


def consultation_table(db: Database, **kw: Any) -> list[dict[str, Any]]:
    return results_uc.consultation_table(SqliteStore(db), **kw)


def _right(doctor: str) -> Transcript:
    t = full_transcript()
    t.doctor, t.verdicts = doctor, [Verdict(moderator="exact", correct=True)]
    return t


def _wrong(doctor: str) -> Transcript:
    t = full_transcript()
    t.doctor, t.diagnosis = doctor, "gastroenteritis"
    t.verdicts = [Verdict(moderator="exact", correct=False)]
    return t


def _silent(doctor: str) -> Transcript:
    return Transcript(case_id="t-001", doctor=doctor)  # never reached a diagnosis


@pytest.fixture()
def db(tmp_path: Path) -> Database:
    d = open_db(tmp_path / "b.db")
    save_cases(d, [make_case(), make_case(id="t-002", specialty="cardiology", language="es")])
    plan = [("m1", _right("openai/m1"), "t-001"), ("m2", _wrong("openai/m1"), "t-001"),
            ("m3", _silent("openai/m1"), "t-002"), ("h1", _right("human:alice"), "t-001"),
            ("h2", _right("human:alice"), "t-002")]
    for cid, t, case_id in plan:
        t.case_id = case_id
        save_transcript(d, t, consultation_id=cid, origin="engine")
    return d


def test_save_and_get_round_trip_with_none_and_nan(db: Database) -> None:
    save_metrics(db, "m1", {"a": (0.5, {"x": 1}), "b": (None, {"reason": "r"}),
                            "c": (float("nan"), {})})
    got = get_metrics(db, "m1")
    assert got["a"] == (0.5, {"x": 1}) and got["b"] == (None, {"reason": "r"})
    assert got["c"][0] is None
    save_metrics(db, "m1", {"a": (0.25, {})})  # recompute replaces
    assert get_metrics(db, "m1")["a"] == (0.25, {})


def test_compute_offline_scores_each_finished_consultation_once(db: Database) -> None:
    assert compute_offline(db) == 5
    assert compute_offline(db) == 0
    assert compute_offline(db, recompute=True) == 5
    m = get_metrics(db, "m3")
    assert m["accuracy"] == (0.0, {"reached_diagnosis": False, "decided_by": None})
    assert m["info_completeness"][0] is None


def test_results_by_model_humans_and_models_side_by_side(db: Database) -> None:
    compute_offline(db)
    rows = {r["model"]: r for r in results_table(db, by="model")}
    m1, alice = rows["openai/m1"], rows["human:alice"]
    assert (m1["doctor_kind"], alice["doctor_kind"]) == ("model", "human")
    # m1: right, wrong, no diagnosis → 1/3 and one no-diagnosis.
    assert m1["n"] == 3 and m1["correct"] == 1 and m1["no_diagnosis"] == 1
    assert m1["accuracy"] == pytest.approx(1 / 3)
    assert m1["ci_low"] < 1 / 3 < m1["ci_high"]
    assert alice["accuracy"] == 1.0 and alice["no_diagnosis"] == 0
    # Entity micro-F1 of m1: tp 1+0+0, predicted 1+1+0, true 1+1+1 → P .5, R 1/3 → F1 .4
    assert m1["entity_micro_f1"] == pytest.approx(0.4)
    assert m1["info_completeness"] == pytest.approx(9 / 11)  # m3 undefined, skipped


def test_results_by_specialty_and_language_keep_one_row_per_doctor(db: Database) -> None:
    # A second model in the same specialties must get its own rows, not merge with m1.
    t = _wrong("openai/m2")
    save_transcript(db, t, consultation_id="m4", origin="engine")
    compute_offline(db)
    rows = results_table(db, by="specialty")
    keys = [(r["specialty"], r["doctor"], r["doctor_kind"]) for r in rows]
    assert keys == [("cardiology", "human:alice", "human"), ("cardiology", "openai/m1", "model"),
                    ("gastroenterology", "human:alice", "human"),
                    ("gastroenterology", "openai/m1", "model"),
                    ("gastroenterology", "openai/m2", "model")]
    by_key = {(r["specialty"], r["doctor"]): r for r in rows}
    assert by_key[("gastroenterology", "openai/m1")]["accuracy"] == 0.5
    assert by_key[("gastroenterology", "openai/m2")]["accuracy"] == 0.0
    langs = {(r["language"], r["doctor"]): r["n"] for r in results_table(db, by="language")}
    assert langs == {("en", "human:alice"): 1, ("en", "openai/m1"): 2, ("en", "openai/m2"): 1,
                     ("es", "human:alice"): 1, ("es", "openai/m1"): 1}
    with pytest.raises(InputError):
        results_table(db, by="colour")


def test_results_of_an_empty_store(tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert results_table(open_db(tmp_path / "e.db")) == []
    for extra in ([], ["--per-consultation"]):
        args = _run_cli(tmp_path / "e.db", "--csv", "--by", "source", *extra)
        assert args.func(args) == 0
        header = capsys.readouterr().out.splitlines()
        assert len(header) == 1 and header[0].split(",")[0] in ("source", "consultation_id")
        assert "accuracy" in header[0]


def test_one_step_rows_apart_and_superseded_consultations_left_out(db: Database) -> None:
    one = _right("openai/m1")
    save_transcript(db, one, consultation_id="u1", origin="one_step")
    save_transcript(db, _wrong("openai/m1"), consultation_id="old", origin="engine")
    db.execute("UPDATE consultations SET status = 'superseded' WHERE id = 'old'")
    compute_offline(db)
    rows = {(r["source"], r["doctor"]): r for r in results_table(db, by="source")}
    assert set(rows) == {("bedside", "openai/m1"), ("bedside", "openai/m1 [one-step]"),
                         ("bedside", "human:alice")}
    upper = rows[("bedside", "openai/m1 [one-step]")]
    assert upper["mode"] == "one_step" and upper["n"] == 1 and upper["accuracy"] == 1.0
    assert upper["info_completeness"] is None  # no pathway in one step
    assert rows[("bedside", "openai/m1")]["consultations"] == 3  # 'old' is not counted
    ids = {r["consultation_id"] for r in consultation_table(db)}
    assert "old" not in ids and {"u1", "m1"} <= ids


def test_placeholder_case_is_apart_then_recomputed_when_the_real_case_arrives(
        db: Database) -> None:
    from core.case import Case

    stand_in = Case(id="imp-case", title="Imported", specialty="unknown", source="imported",
                    objective="(imported)", patient={}, truth={"diagnosis": "unknown"},
                    placeholder=True)
    save_cases(db, [stand_in])
    t = _right("gpt-4")
    t.case_id, t.verdicts = "imp-case", []
    save_transcript(db, t, consultation_id="imp1", origin="import:aihospital")
    compute_offline(db)
    row = next(r for r in results_table(db) if r["model"] == "gpt-4")
    # not '0.0 %': left out of accuracy, counted apart
    assert row["n"] == 0 and row["accuracy"] is None and row["no_case_record"] == 1
    assert get_metrics(db, "imp1")["accuracy"][1]["reason"] == "case record not available"
    # The real record is imported later under the same id: the hash changes, so the
    # next results call recomputes without being asked.
    save_cases(db, [make_case(id="imp-case")])
    assert compute_offline(db) == 1
    row = next(r for r in results_table(db) if r["model"] == "gpt-4")
    assert row["n"] == 1 and row["accuracy"] == 1.0 and row["no_case_record"] == 0


def test_per_consultation_export(db: Database, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    args = _run_cli(tmp_path / "b.db", "--per-consultation", "--json")
    assert args.func(args) == 0
    rows = {r["consultation_id"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) == {"m1", "m2", "m3", "h1", "h2"}
    assert rows["m1"]["correct"] == 1.0 and rows["m2"]["correct"] == 0.0
    assert rows["m3"]["reached_diagnosis"] is False and rows["m3"]["correct"] == 0.0
    assert rows["m1"]["information_gathered"] == pytest.approx(9 / 11)
    assert "report_score: " not in rows["m1"]["reasons"]  # not computed: no reason stored
    assert "information_gathered: no doctor turns" in rows["m3"]["reasons"]
    args = _run_cli(tmp_path / "b.db", "--per-consultation", "--csv")
    assert args.func(args) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(table) == 5 and "treatment_covered" in table[0]
    args = _run_cli(tmp_path / "b.db", "--per-consultation")
    assert args.func(args) == 0
    assert "consultation" in capsys.readouterr().out


def _run_cli(db_path: Path, *argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    cmd_results.register(sub, lambda p: p.add_argument("--db"))
    return parser.parse_args(["results", "--db", str(db_path), *argv])


def test_cli_json_csv_and_text(db: Database, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "b.db"
    args = _run_cli(path, "--json")
    assert args.func(args) == 0  # computes the missing offline metrics itself
    rows = json.loads(capsys.readouterr().out)
    assert {r["model"] for r in rows} == {"openai/m1", "human:alice"}
    args = _run_cli(path, "--csv", "--by", "source")
    assert args.func(args) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["source"], r["doctor"]) for r in table] == [("bedside", "human:alice"),
                                                           ("bedside", "openai/m1")]
    args = _run_cli(path)
    assert args.func(args) == 0
    text = capsys.readouterr().out
    assert "openai/m1" in text and "33.3%" in text and "no_diagnosis" in text
