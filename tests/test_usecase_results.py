"""The results table and the app's Baseline tab come from one rule set
(`core.usecases.results`): for the same data they give the same N, correct, accuracy and
interval per doctor, before and after the offline metrics are computed. On a real SQLite
store."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.case import Case, GroundTruth, PatientProfile
from core.caseio import load_bundled_cases
from core.transcript import EndReason, Role, Transcript, Turn, Verdict
from core.usecases.results import baseline, results_table
from core.usecases.scoring import compute_offline
from db.store import SqliteStore, open_store

CASES = load_bundled_cases()[:3]


def _t(doctor: str, case: Case, diagnosis: str | None, correct: bool | None,
       turns: int = 2) -> Transcript:
    said = [Turn(index=i, role=Role.DOCTOR, content=f"Question {i}?", doctor_turn=i + 1,
                 kind="question") for i in range(turns)]
    verdicts = [] if correct is None else [Verdict(moderator="exact", correct=correct)]
    return Transcript(case_id=case.id, doctor=doctor, turns=said, diagnosis=diagnosis,
                      end_reason=EndReason.DIAGNOSIS if diagnosis else EndReason.BUDGET,
                      verdicts=verdicts)


@pytest.fixture()
def store(tmp_path: Path) -> SqliteStore:
    """Every kind of row the rules treat apart: right, wrong, no diagnosis, undecided,
    one-step, placeholder case, cancelled, failed, superseded."""
    s = open_store(tmp_path / "r.db")
    stand_in = Case(id="imp-x", title="Imported", specialty="unknown", source="imported",
                    objective="(none)", patient=PatientProfile(),
                    truth=GroundTruth(diagnosis="unknown"), placeholder=True)
    s.save_cases([*CASES, stand_in])
    a, b, c = CASES
    plan = [
        ("m-right", _t("model-x", a, a.truth.diagnosis, True, 3), "engine"),
        ("m-wrong", _t("model-x", b, "Gout", False, 5), "engine"),
        ("m-silent", _t("model-x", c, None, None, 2), "engine"),
        ("m-undecided", _t("model-x", c, "Something odd", None, 4), "engine"),
        ("m-upper", _t("model-x", a, a.truth.diagnosis, True, 1), "one_step"),
        ("m-import", _t("model-x", stand_in, "Gout", False), "import:x"),
        ("h-right", _t("human:ana", a, a.truth.diagnosis, True, 6), "engine"),
        ("h-wrong", _t("human:ana", b, "Gout", False, 8), "engine"),
        ("h-old", _t("human:ana", c, "Gout", False), "engine"),
        ("h-gone", _t("human:ana", c, "Gout", False), "engine"),
        ("s-fail", _t("scripted", a, None, None), "engine"),
    ]
    for cid, transcript, origin in plan:
        s.save_transcript(transcript, consultation_id=cid, origin=origin)
    db = s.db
    db.execute("UPDATE consultations SET status = 'superseded' WHERE id = 'h-old'")
    db.execute("UPDATE consultations SET status = 'cancelled' WHERE id = 'h-gone'")
    db.execute("UPDATE consultations SET status = 'failed' WHERE id = 's-fail'")
    db.execute("UPDATE consultations SET started_at = '2025-01-01T10:00:00.000Z', ended_at ="
               " '2025-01-01T10:12:30.000Z' WHERE id = 'h-right'")
    db.execute("UPDATE consultations SET started_at = '2025-01-01T11:00:00.000Z', ended_at ="
               " '2025-01-01T11:07:30.000Z' WHERE id = 'h-wrong'")
    return s


FIELDS = ("n", "correct", "accuracy", "ci_low", "ci_high", "mean_turns", "mean_tests")


def _same_numbers(store: SqliteStore) -> dict[str, dict[str, object]]:
    table = {r["doctor"]: r for r in results_table(store, by="model")
             if r["mode"] == "interactive"}
    tab = {b.doctor: b for b in baseline(store, humans_only=False)}
    # Every doctor with a scored consultation is in both; the scripted doctor, whose only
    # consultation failed, has none and is left out of the Baseline tab.
    assert set(tab) == {"human:ana", "model-x"} and set(table) >= set(tab)
    for doctor, line in tab.items():
        assert {f: getattr(line, f) for f in FIELDS} == {f: table[doctor][f] for f in FIELDS}
    return {d: {f: getattr(b, f) for f in FIELDS} for d, b in tab.items()}


def test_baseline_and_results_table_count_the_same_way(store: SqliteStore) -> None:
    before = _same_numbers(store)
    # model-x: right, wrong, no diagnosis (wrong); the undecided verdict, the one-step
    # upper bound and the transcript on a placeholder case are not in N.
    assert (before["model-x"]["n"], before["model-x"]["correct"]) == (3, 1)
    assert before["model-x"]["accuracy"] == pytest.approx(1 / 3)
    # human:ana: right and wrong; the superseded and the cancelled rows are not in N.
    assert (before["human:ana"]["n"], before["human:ana"]["correct"]) == (2, 1)
    assert before["human:ana"]["mean_turns"] == 7.0
    assert compute_offline(store) > 0
    after = _same_numbers(store)  # the stored accuracy metric replaces the verdict column
    assert after["human:ana"]["n"] == 2


def test_humans_only_and_minutes(store: SqliteStore) -> None:
    ana, = baseline(store)  # physicians only, by default
    assert ana.doctor == "human:ana" and ana.mean_minutes == pytest.approx(10.0)  # 12.5, 7.5


def test_an_empty_store_has_no_baseline(tmp_path: Path) -> None:
    assert baseline(open_store(tmp_path / "e.db"), humans_only=False) == []
