"""`bedside results` reads in bulk (issue 18, the soak: 20,000 consultations in under 2 s;
`db/tables.py`): the answer is the one the record-by-record reads gave.

- `consultation_rows` equals the summaries (`list_consultations`) minus verdicts, report and
  meta, `correct` as 0 / 1, for every kind of stored config: with its per-case keys, without
  them, NULL, and with a boolean among them.
- `metric_states` says "complete and current" exactly when every metric is stored and
  computed on one case version, so `bedside results` recomputes a missing metric and a stale
  one, and nothing else.
- A consultation's mark (`metric_set`) answers for its metrics until any of their rows
  changes; one without is aggregated and marked again, a read-only file only read.
- `metrics_by_consultation(details=…)` gives the same values, the named details, `{}` for
  the rest.
- The table, the JSON, the CSV and the per-consultation rows are what they were before
  (the text of `results` on the same database before the change, kept in the test as the
  reference computation: summaries and every detail).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest

from core.metrics.names import OFFLINE_NAMES
from core.metrics.table import results_rows
from core.usecases.results import TABLE_DETAILS, consultation_rows
from core.usecases.run_listing import settings_of
from core.usecases.scoring import compute_offline
from db.store import open_store
from tui.cli import main

NESTED = {"verdicts", "report", "meta"}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run of 6 cases under 2 doctors and 2 budgets (24 consultations), some configs
    rewritten as older or imported rows store them."""
    path = tmp_path_factory.mktemp("bulk") / "b.db"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["run", "--db", str(path), "--cases", "card-001,gi-004,derm-001,endo-001,"
                     "peds-001,uro-003", "--doctor", "scripted,scripted:seed=2",
                     "--max-turns", "3,6", "--json"]) == 0
    conn = sqlite3.connect(path)
    ids = [r[0] for r in conn.execute("SELECT id FROM consultations ORDER BY id")]
    conn.execute("UPDATE consultations SET config = NULL WHERE id = ?", [ids[0]])
    conn.execute("UPDATE consultations SET config = json_remove(config, '$.case_hash',"
                 " '$.case_images') WHERE id = ?", [ids[1]])
    conn.execute("UPDATE consultations SET config = json_set(config, '$.case_images',"
                 " json('true')) WHERE id = ?", [ids[2]])
    conn.execute("UPDATE consultations SET status = 'failed', correct = NULL WHERE id = ?",
                 [ids[3]])
    conn.commit()
    conn.close()
    return path


def _reference_rows(store: Any) -> list[dict[str, Any]]:
    """The rows as read before: one summary record each."""
    out = []
    for c in store.list_consultations():
        row = {k: v for k, v in vars(c).items() if k not in NESTED}
        row["correct"] = None if c.correct is None else int(c.correct)
        out.append(row)
    return out


def test_consultation_rows_are_the_summaries(db: Path) -> None:
    store = open_store(db)
    got = store.consultation_rows()
    keys = [r.pop("settings_key") for r in got]
    want = _reference_rows(store)
    assert got == want
    assert {type(v) for r in got for v in (r["cost_usd"],)} == {float}
    assert got[0]["config"] == {} and "case_hash" not in got[1]["config"]
    assert got[2]["config"]["case_images"] is True and "case_hash" in got[5]["config"]
    # One settings key per configuration (and the NULL one): what the words are memoised on.
    assert len(set(keys)) <= 4 + 2
    rows = consultation_rows(store)
    assert [r["settings"] for r in rows] == [", ".join(settings_of(r["config"])) for r in rows]


def test_metric_states_see_missing_and_stale_metrics(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "c.db"
    copy.write_bytes(db.read_bytes())
    store = open_store(copy)
    compute_offline(store)
    finished = [c.id for c in store.list_consultations(status="finished")]
    states = {s.consultation_id: s for s in store.metric_states(OFFLINE_NAMES)}
    assert sorted(states) == finished and all(s.computed_on for s in states.values())
    conn = sqlite3.connect(copy)
    conn.execute("DELETE FROM metrics WHERE consultation_id = ? AND name = 'entity_f1'",
                 [finished[4]])
    conn.execute("UPDATE metrics SET case_hash = 'old' WHERE consultation_id = ? AND"
                 " name = 'accuracy'", [finished[5]])
    conn.execute("UPDATE metrics SET case_hash = NULL WHERE consultation_id = ? AND"
                 " name = 'rounds'", [finished[6]])
    conn.commit()
    conn.close()
    states = {s.consultation_id: s for s in store.metric_states(OFFLINE_NAMES)}
    assert [cid for cid in finished if states[cid].computed_on is None] == finished[4:7]
    assert compute_offline(store) == 3  # exactly those, nothing else
    assert all(s.computed_on for s in store.metric_states(OFFLINE_NAMES))
    assert compute_offline(store) == 0


def _marks(path: Path) -> dict[str, str | None]:
    conn = sqlite3.connect(path)
    try:
        return dict(conn.execute("SELECT id, metric_set FROM consultations"
                                 " WHERE status = 'finished'"))
    finally:
        conn.close()


def test_marks_answer_for_complete_sets_and_any_metric_change_clears_them(
        db: Path, tmp_path: Path) -> None:
    """Each consultation scored whole carries a mark naming the set and the case version;
    a later change of any of its metric rows, however written, clears it (a trigger), and
    a consultation without a mark is aggregated and marked again: the answer never
    changes, the metrics are read once."""
    copy = tmp_path / "m.db"
    copy.write_bytes(db.read_bytes())
    store = open_store(copy)
    compute_offline(store)
    before = {s.consultation_id: s for s in store.metric_states(OFFLINE_NAMES)}
    marks = _marks(copy)
    assert all(marks.values()), marks  # scored as the run ended, or by compute_offline
    assert all(marks[cid].endswith(" " + s.computed_on) for cid, s in before.items())
    first, second = sorted(marks)[:2]
    conn = sqlite3.connect(copy)
    conn.execute("UPDATE metrics SET value = 0.5 WHERE consultation_id = ? AND"
                 " name = 'accuracy'", [first])
    conn.execute("UPDATE consultations SET metric_set = NULL WHERE id = ?", [second])
    conn.commit()
    conn.close()
    assert {cid for cid, m in _marks(copy).items() if m is None} == {first, second}
    again = {s.consultation_id: s for s in store.metric_states(OFFLINE_NAMES)}
    assert again == before  # the rows still complete and current: the same answer
    assert all(_marks(copy).values())  # and both are marked again


def test_a_read_only_database_is_answered_without_marking(db: Path, tmp_path: Path) -> None:
    copy = tmp_path / "r.db"
    copy.write_bytes(db.read_bytes())
    store = open_store(copy)
    compute_offline(store)
    want = {s.consultation_id: s for s in store.metric_states(OFFLINE_NAMES)}
    conn = sqlite3.connect(copy)
    conn.execute("UPDATE consultations SET metric_set = NULL")
    conn.commit()
    conn.close()
    store.close()
    copy.chmod(0o444)  # as root, which writes through permission bits: immutable too
    immutable = os.geteuid() == 0
    if immutable:
        subprocess.run(["chattr", "+i", str(copy)], check=True)
    try:
        ro = open_store(copy, migrate=False)
        assert {s.consultation_id: s for s in ro.metric_states(OFFLINE_NAMES)} == want
        ro.close()
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(copy)], check=True)
        copy.chmod(0o644)
    assert not any(_marks(copy).values())


def test_details_only_where_asked_values_everywhere(db: Path) -> None:
    store = open_store(db)
    ids = [c.id for c in store.list_consultations(status="finished")]
    full = store.metrics_by_consultation(ids)
    lean = store.metrics_by_consultation(ids, details=TABLE_DETAILS)
    assert full.keys() == lean.keys()
    for cid, metrics in full.items():
        # a metric read for its value only and stored without one is left out (the same
        # to a reader of values as a missing one)
        assert {n: v for n, (v, _) in metrics.items() if v is not None or n in TABLE_DETAILS} \
            == {n: v for n, (v, _) in lean[cid].items()}
        for name, (_, detail) in lean[cid].items():
            assert detail == (metrics[name][1] if name in TABLE_DETAILS else {})
    assert any(lean[cid]["accuracy"][1] for cid in ids)  # the details asked for are there
    rows = [r for r in consultation_rows(store) if r["status"] == "finished"]
    assert results_rows(rows, lean, "model") == results_rows(rows, full, "model")


@pytest.mark.parametrize("extra", [[], ["--json"], ["--csv"], ["--per-consultation", "--json"],
                                   ["--by", "max_turns,specialty", "--json"]])
def test_the_results_command_answers_as_before(db: Path, extra: list[str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["results", "--db", str(db), *extra]) == 0
    got = capsys.readouterr().out
    if extra[-1:] == ["--json"]:
        rows = json.loads(got)
        assert rows and all(r.get("n", 1) is not None for r in rows)
    assert got == _as_before(db, extra)


def _as_before(db: Path, extra: list[str]) -> str:
    """`bedside results` computed the way it was before the bulk reads: every summary
    record, every detail (patched in for the duration)."""
    import core.usecases.results as results
    from db.store import SqliteStore

    def rows(store: Any, run_id: str | None = None, status: str | None = None) -> list:
        out = _reference_rows(store)
        return [{**r, "settings_key": json.dumps(r["config"], sort_keys=True)} for r in out
                if status is None or r["status"] == status]

    plain = SqliteStore.metrics_by_consultation
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(SqliteStore, "consultation_rows", rows)
        mp.setattr(SqliteStore, "metrics_by_consultation",
                   lambda self, ids, names=None, details=None: plain(self, ids, names))
        mp.setattr(results, "TABLE_DETAILS", None)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["results", "--db", str(db), *extra]) == 0
    return out.getvalue()
