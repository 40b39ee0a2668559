"""Accuracy with its interval as a terminal chart (issue 16 "seeing instead of reading",
issue 17 item 3): `bedside results --plot [KEY]` and the results screen draw the rows of
the results table — the same rows, the same rules — from a real store.

The store: two replay doctors (one right on 2 of the 3 cardiology cases, one on none)
against a plain and a self-diagnosing patient, and the scripted doctor with 2 and 20 turns.
Hand derivation of the figures checked below (Wilson 95 %, z = 1.96, n = 3):
- 2 of 3: centre (2/3 + z²/6) / (1 + z²/3) = 1.3070 / 2.2805 = 0.5731, half width
  z·sqrt(2/27 + z²/36) / 2.2805 = 1.96 · 0.4252 / 2.2805 = 0.3654 → 20.8 % to 93.9 %;
- 0 of 3: 0 % to z²/3 / (1 + z²/3) = 1.2805 / 2.2805 = 56.2 %.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tui.cli import main
from tui.text.accuracy_chart import GRID, LEFT, LINE, POINT, RIGHT, position

GOOD = [{"case": "card-001", "say": ["What brings you in?"], "diagnosis": "Inferior STEMI"},
        {"case": "card-002", "say": ["What brings you in?"], "diagnosis": "Atrial fibrillation"},
        {"case": "card-003", "say": ["What brings you in?"], "diagnosis": "Pulmonary embolism"}]
POOR = [{"case": "*", "say": ["What brings you in?"], "diagnosis": "Acute pericarditis"}]


def _replay(path: Path, lines: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return f"replay:{path}"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("chart")
    path = str(root / "b.db")
    doctors = f"{_replay(root / 'good.jsonl', GOOD)},{_replay(root / 'poor.jsonl', POOR)}"
    assert main(["run", "--db", path, "--cases", "card-00*", "--doctor", doctors,
                 "--patient-bias", "none,self_diagnosis", "--json"]) == 0
    assert main(["run", "--db", path, "--cases", "card-00*", "--max-turns", "2,20",
                 "--json"]) == 0
    return path


def _out(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main(list(args)) == 0
    return capsys.readouterr().out


def _chart(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str,
           *args: str, width: int = 80) -> tuple[str, list[dict[str, Any]]]:
    """The chart as printed at `width` columns, and the JSON rows of the same grouping."""
    monkeypatch.setenv("COLUMNS", str(width))
    text = _out(capsys, "results", "--db", db, "--plot", *args)
    by = args[0] if args else "model"
    return text, json.loads(_out(capsys, "results", "--db", db, "--by", by, "--json"))


def _bars(text: str) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(label, track, figures) of each bar line, and the heading lines, in order. The track
    starts under the ruler's first '┬' and is as wide as the ruler; a label too long for
    its column is the line above its bar."""
    lines = text.splitlines()
    ruler = next(line for line in lines if line.lstrip().startswith("┬"))
    start, width = ruler.index("┬"), len(ruler.strip())
    bars: list[tuple[str, str, str]] = []
    headings: list[str] = []
    pending: list[str] = []
    for line in lines[lines.index(ruler) + 1:lines.index("")]:
        track = line[start:start + width]
        if len(track) < width or not set(track) <= {GRID, LINE, LEFT, RIGHT, POINT, " "}:
            pending.append(line.strip())
            continue
        name = line[:start].strip() or pending.pop()  # a long label: the line above
        headings += pending
        pending = []
        bars.append((name, track, line[start + width:].strip()))
    return bars, headings


def _check_marks(track: str, row: dict[str, Any]) -> None:
    """● at the accuracy, ├ and ┤ at the interval's ends (● may sit on one), ─ between,
    nothing else drawn outside."""
    width = len(track)
    acc, low, high = (position(row[k], width) for k in ("accuracy", "ci_low", "ci_high"))
    assert track[acc] == POINT, (track, row)
    assert track[low] in (LEFT, POINT) and track[high] in (RIGHT, POINT), (track, row)
    assert all(c in (LINE, POINT) for c in track[low + 1:high]), (track, row)
    assert set(track[:low] + track[high + 1:]) <= {" ", GRID}, (track, row)


def test_plot_by_doctor_draws_every_row_of_the_table_with_its_interval(
        db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    text, rows = _chart(capsys, monkeypatch, db)
    bars, headings = _bars(text)
    assert headings == [] and len(bars) == len(rows) == 6  # never pooled across settings
    for (name, track, figures), row in zip(bars, rows, strict=True):
        assert name.startswith(row["model"].split("@")[0][:10]), (name, row)
        assert ("patient bias self_diagnosis" in name) == ("self_diagnosis" in row["settings"])
        assert ("max turns 2" in name) == ("max turns 2" in row["settings"])
        assert figures == (f"{row['accuracy'] * 100:.1f}% {row['ci_low'] * 100:.0f}-"
                           f"{row['ci_high'] * 100:.0f}% n {row['n']}")
        _check_marks(track, row)
    # The hand-derived figures (module docstring): the good replay doctor, both patients.
    assert [f for n, _, f in bars if "good" in n] == ["66.7% 21-94% n 3"] * 2
    assert [f for n, _, f in bars if "poor" in n] == ["0.0% 0-56% n 3"] * 2
    assert "Wilson 95 %" in text and max(map(len, text.splitlines())) <= 80


@pytest.mark.parametrize(("key", "headings"), [
    ("patient_bias", ["patient_bias none", "patient_bias self_diagnosis"]),
    ("max_turns", ["max_turns 2", "max_turns 20"])])
def test_plot_by_a_factor_heads_each_value_and_labels_its_doctors(
        db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        key: str, headings: list[str]) -> None:
    text, rows = _chart(capsys, monkeypatch, db, key, width=120)
    bars, shown = _bars(text)
    assert shown == headings and text.startswith(f"Accuracy with its Wilson 95 % interval, "
                                                 f"by {key}")
    assert len(bars) == len(rows)
    for (name, track, _), row in zip(bars, rows, strict=True):
        _check_marks(track, row)
        # What the heading says is not repeated in the label ('max turns 2').
        assert key.replace("_", " ") not in name, name
    assert max(map(len, text.splitlines())) <= 120


def test_plot_takes_the_keys_of_by_and_refuses_what_it_cannot_draw(
        db: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["results", "--db", db, "--plot", "max_turns", "--json"]) == 2
    assert main(["results", "--db", db, "--plot", "max_turns", "--by", "doctor"]) == 2
    assert main(["results", "--db", db, "--plot", "nonsense"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and all(line.startswith("bedside: ") for line in err), err
    assert "--json" in err[0] and "--by" in err[1] and "max_turns" in err[2]
    # `--plot` alone draws by --by; the same chart as `--plot KEY`.
    assert _out(capsys, "results", "--db", db, "--by", "max_turns", "--plot") == \
        _out(capsys, "results", "--db", db, "--plot", "max_turns")


async def test_the_results_screen_charts_its_rows_at_80x24(db: str) -> None:
    from textual.widgets import Select

    from tests.app_support import home_loaded, wait_until
    from tui.app.application import BedsideApp
    from tui.app.screens.results import ResultsScreen
    from tui.app.widgets.accuracy_chart import AccuracyChart

    app = BedsideApp(Path(db))
    async with app.run_test(size=(80, 24)) as pilot:
        await home_loaded(pilot)
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, ResultsScreen)
        await wait_until(pilot, lambda: screen.rows is not None)
        await pilot.press("c")
        chart = screen.query_one("#results-chart", AccuracyChart)
        await wait_until(pilot, lambda: chart.display and chart.region.width > 0)
        bars, _ = _bars(chart.text)
        assert len(bars) == len(screen.rows or []) == 6
        screen.query_one("#results-by", Select).value = "patient_bias"
        await wait_until(pilot, lambda: screen.rows_by == "patient_bias"
                         and "by patient_bias" in chart.text)
        bars, headings = _bars(chart.text)
        assert headings == ["patient_bias none", "patient_bias self_diagnosis"]
        for (_, track, figures), row in zip(bars, screen.rows or [], strict=True):
            _check_marks(track, row)
            assert figures.endswith(f"n {row['n']}")
        assert max(map(len, chart.text.splitlines())) <= 78
        # The chart is what is painted, marks and all.
        assert re.search(r"66\.7% 21-94% n 3", str(chart.render()))
        await pilot.press("c")  # back to the consultations of the row
        await wait_until(pilot, lambda: not screen.has_class("-chart") and bool(screen.shown))
        assert all(c["patient_bias"] == screen.rows[0]["patient_bias"]  # type: ignore[index]
                   for c in screen.shown)


def test_a_replay_doctors_file_is_its_label_not_a_setting_and_a_sweep_says_so(
        db: str, capsys: pytest.CaptureFixture[str]) -> None:
    rows = json.loads(_out(capsys, "results", "--db", db, "--json"))
    assert sorted({r["settings"] for r in rows}) == [
        "", "max turns 2", "patient bias self_diagnosis, max turns 2"]
    runs = json.loads(_out(capsys, "runs", "list", "--db", db, "--json"))
    settings = {tuple(r["doctors"])[0].split(":")[0]: r["settings"] for r in runs}
    # Neither run has one setting for all its configurations besides the fitted budget;
    # the listing says they are sweeps instead of reading as the defaults.
    assert settings == {"replay": ["max turns 2", "a sweep of 4 configurations"],
                        "scripted": ["a sweep of 2 configurations"]}


def test_a_reader_that_stops_reading_gets_no_traceback(db: str) -> None:
    """`bedside results --plot | head -3`: head leaves, the write fails (EPIPE); the command
    ends quietly with 141 as a shell reports it, not with a traceback."""
    import os
    import subprocess
    import sys

    read, write = os.pipe()
    os.close(read)  # nobody will ever read: the first write fails, whatever its size
    try:
        proc = subprocess.run([sys.executable, "-m", "tui.cli", "results", "--db", db,
                               "--plot"], stdout=write, stderr=subprocess.PIPE,
                              timeout=300, check=False)
    finally:
        os.close(write)
    assert proc.returncode == 141 and b"Traceback" not in proc.stderr, proc.stderr
