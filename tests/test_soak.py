"""A run is the sum of its parts (issue 18, the soak; `benchmarks/bench_soak.py` runs it at
20,000 consultations): a grid of offline doctors and turn budgets over some cases, run whole
in one `bedside run`, gives per configuration the same totals as the same grid run in two
parts split by case selection, each in its own database, and every consultation the same
outcome. Lean: 12 cases, short consultations (2-5 turns), 240 consultations whole.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from benchmarks.bench_soak import add, grid, totals
from tui.cli import main

CASES = ["card-001", "card-003", "derm-001", "endo-001", "gi-001", "gi-004", "heme-001",
         "id-001", "renal-001", "neuro-001", "pulm-001", "uro-003"]
GRID = ["--doctor", "scripted:seed=1,scripted:seed=2,scripted:seed=3,scripted:seed=4,"
        "scripted:seed=5", "--max-turns", "2,3,4,5"]
KEEP = ("case_id", "doctor", "settings", "status", "end_reason", "diagnosis", "correct",
        "doctor_turns", "tests_ordered", "information_gathered")


def _bedside(*argv: str) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0
    data = json.loads(out.getvalue())
    return data["results"] if isinstance(data, dict) else data


def _consultations(db: Path) -> list[tuple]:
    rows = _bedside("results", "--db", str(db), "--per-consultation", "--json")
    return sorted(tuple(r[k] for k in KEEP) for r in rows)


def test_the_grid_run_whole_equals_the_sum_of_its_parts(tmp_path: Path) -> None:
    whole = _bedside("run", "--db", str(tmp_path / "whole.db"), "--cases", ",".join(CASES),
                     *GRID, "--json")
    parts = [_bedside("run", "--db", str(tmp_path / f"part{i}.db"), "--cases", ",".join(chunk),
                      *GRID, "--json") for i, chunk in enumerate((CASES[:5], CASES[5:]))]
    assert sum(r["n"] for r in whole) == 240 and len(whole) == 20
    summed = add(totals(p) for p in parts)
    assert summed == totals(whole)
    assert sum(t["correct"] for t in summed.values()) > 0  # the totals say something
    # Not only the totals: each consultation ended the same way whole or in a part.
    assert _consultations(tmp_path / "whole.db") == sorted(
        _consultations(tmp_path / "part0.db") + _consultations(tmp_path / "part1.db"))


def test_the_totals_see_a_difference() -> None:
    row = {"doctor": "scripted:seed=1", "settings": "max turns 2", "n": 3, "correct": 1,
           "no_diagnosis": 0, "failed": 0, "finished": 3, "turns": 2.0, "tests": 1.0}
    one, other = totals([row]), totals([{**row, "correct": 2}])
    assert one != other and add([one, one]) == totals([{**row, "n": 6, "correct": 2,
                                                        "finished": 6}])


def test_the_grid_has_the_consultations_asked_for() -> None:
    options = grid(20_000, 43)
    doctors, budgets = options[1].split(","), options[3].split(",")
    assert 20_000 <= len(doctors) * len(budgets) * 43 < 20_000 + 10 * 43
