"""`bedside results` never pools different configurations and says when a case is counted
more than once (issue 16: seven runs, one with `--max-turns 3`, read as N 49 over 31 cases
as if independent)."""

from __future__ import annotations

import json

import pytest

from core.usecases.results import baseline
from db.store import open_store
from tui.cli import main


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Three runs of the scripted doctor over the cardiology cases: two with the defaults,
    one with three turns."""
    path = str(tmp_path_factory.mktemp("pool") / "b.db")
    for extra in ([], [], ["--max-turns", "3"]):
        assert main(["run", "--db", path, "--cases", "cardiology", "--json", *extra]) == 0
    return path


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict]:
    capsys.readouterr()
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_rows_never_mix_settings_and_count_distinct_cases(
        db: str, capsys: pytest.CaptureFixture[str]) -> None:
    per = _json(capsys, "results", "--db", db, "--per-consultation", "--json")
    n_cases = len({c["case_id"] for c in per})
    assert n_cases >= 2 and len(per) == 3 * n_cases
    rows = _json(capsys, "results", "--db", db, "--json")
    by_settings = {r["settings"]: r for r in rows}
    assert set(by_settings) == {"", "max turns 3"}, rows
    default, short = by_settings[""], by_settings["max turns 3"]
    # The default row pools the two identical runs, and says they are the same cases.
    assert default["n"] == 2 * n_cases and default["cases"] == n_cases
    assert short["n"] == n_cases and short["cases"] == n_cases
    # The per-consultation rows say their settings too.
    assert sorted({c["settings"] for c in per}) == ["", "max turns 3"]


def test_text_table_shows_settings_and_says_cases_repeat(
        db: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["results", "--db", db]) == 0
    text = capsys.readouterr().out
    assert "max turns 3" in text and "defaults" in text
    assert "settings:" in text  # the legend says what the column is
    notes = [line for line in text.splitlines() if line.startswith("note: ")]
    assert len(notes) == 1 and "distinct cases" in notes[0] and "max turns" not in notes[0]
    assert max(len(line) for line in text.splitlines()) <= 120


def test_text_table_of_one_plain_run_has_no_settings_or_cases_column(
        db: str, capsys: pytest.CaptureFixture[str]) -> None:
    store = open_store(db)
    try:
        first = store.list_runs()[-1].id
    finally:
        store.close()
    capsys.readouterr()
    assert main(["results", "--db", db, "--run", first]) == 0
    text = capsys.readouterr().out
    assert "settings" not in text and "note:" not in text and "cases" not in text.split(
        "\n\n")[0]


def test_baseline_names_the_settings(db: str) -> None:
    store = open_store(db)
    try:
        lines = baseline(store, humans_only=False)
    finally:
        store.close()
    assert sorted(b.doctor for b in lines) == ["scripted", "scripted (max turns 3)"]


def test_the_app_lists_only_the_consultations_of_a_rows_settings() -> None:
    from tui.app.screens.results import members

    consultations = [{"doctor": "scripted", "settings": "", "consultation_id": "a"},
                     {"doctor": "scripted", "settings": "max turns 3", "consultation_id": "b"}]
    row = {"model": "scripted", "doctor": "scripted", "settings": "max turns 3"}
    assert [c["consultation_id"] for c in members(row, "model", consultations)] == ["b"]
