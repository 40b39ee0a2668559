"""Metric rows in the store, the results table, and `bedside results`."""

from __future__ import annotations

import argparse
import csv
import io
import json
from pathlib import Path

import pytest
from sqlite_utils import Database

from core.errors import InputError
from core.transcript import Transcript, Verdict
from db.cases import save_cases
from db.connection import open_db
from db.consultations import save_transcript
from db.metrics import compute_offline, get_metrics, results_table, save_metrics
from tests.test_metrics_pathway import full_transcript, make_case
from tui import cmd_results


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


def test_results_by_specialty_and_language_split_kinds(db: Database) -> None:
    compute_offline(db)
    rows = results_table(db, by="specialty")
    keys = [(r["specialty"], r["doctor_kind"]) for r in rows]
    assert keys == [("cardiology", "human"), ("cardiology", "model"),
                    ("gastroenterology", "human"), ("gastroenterology", "model")]
    langs = {(r["language"], r["doctor_kind"]): r["n"] for r in results_table(db, by="language")}
    assert langs == {("en", "human"): 1, ("en", "model"): 2, ("es", "human"): 1,
                     ("es", "model"): 1}
    with pytest.raises(InputError):
        results_table(db, by="colour")


def test_results_of_an_empty_store(tmp_path: Path) -> None:
    assert results_table(open_db(tmp_path / "e.db")) == []


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
    assert [(r["source"], r["doctor_kind"]) for r in table] == [("bedside", "human"),
                                                                ("bedside", "model")]
    args = _run_cli(path)
    assert args.func(args) == 0
    text = capsys.readouterr().out
    assert "openai/m1" in text and "33.3%" in text and "NO-DX" in text
