"""What trips a researcher on the command line (issue 16), each through the real CLI on
real files and a real SQLite database: a human named as the judge, the --cases example of
the help, a yes/no file given to `agreement`, a study sample larger than the selection,
study-file errors without a line, and `score` counting failures as scored."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from core.caseio import load_bundled_cases
from core.selection import select_cases
from tests.test_analysis_cli import _rated_study
from tests.test_cli_cases import bedside
from tests.test_study_support import STUDY_TOML, SECRET_DOCTOR, seed_db
from tui.cli import build_parser, main


def test_a_human_cannot_be_named_the_judge_and_no_judge_counts_as_a_human(tmp_path) -> None:
    db_path = _rated_study(tmp_path, judges=("judge:a", "judge:b"))
    out = bedside("analyze", "--study", "pilot", "--judge", "alice", "--db", str(db_path),
                  home=tmp_path)
    assert out.returncode == 2
    assert out.stderr.strip() == ("bedside: field '--judge': 'alice' is a human rater; "
                                  "--judge names an LLM judge (this study's: judge:a, "
                                  "judge:b)")
    out = bedside("analyze", "--study", "pilot", "--judge", "judge:a", "--json",
                  "--bootstrap", "0", "--db", str(db_path), home=tmp_path)
    assert out.returncode == 0, out.stderr
    (scale,) = json.loads(out.stdout)["reports"]
    for item in scale["items"]:  # the three humans, never judge:b
        assert sorted(item["humans"]) == ["alice", "bob", "carol"], item["item"]


def test_every_cases_example_in_the_help_selects_cases() -> None:
    parser = build_parser()
    run = next(a for a in parser._subparsers._group_actions[0].choices["run"]._actions
               if "--cases" in a.option_strings)
    examples = re.findall(r"'([^']+)'", run.help)
    assert examples and "or" in run.help.lower() and "and" in run.help.lower()
    cases = load_bundled_cases()
    for spec in examples:
        assert select_cases(cases, spec), spec
    chosen = select_cases(cases, "pediatrics,es")
    assert {(c.specialty, c.language) for c in chosen} == {("pediatrics", "es")}
    with pytest.raises(Exception, match="specialty cardiology and language es"):
        select_cases(cases, "cardiology,es")


def test_agreement_on_yes_no_values_needs_no_level(tmp_path) -> None:
    csv = tmp_path / "yn.csv"
    csv.write_text("unit,rater,value\nu1,A,yes\nu1,B,no\nu2,A,yes\nu2,B,yes\n"
                   "u3,A,no\nu3,B,no\n")
    out = bedside("agreement", str(csv), "--json", "--bootstrap", "0", home=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["level"] == "nominal"
    assert "level: nominal (the values are not all numbers" in out.stderr
    out = bedside("agreement", str(csv), "--level", "interval", home=tmp_path)
    assert out.returncode == 2 and "was asked" not in out.stderr
    assert "level interval needs numbers; --level nominal takes categories" in out.stderr


def _study_file(tmp_path: Path, **changes: Any) -> Path:
    text = STUDY_TOML.format(doctor=SECRET_DOCTOR)
    for old, new in changes.items():
        text = re.sub(rf"^{old} = .*$", f"{old} = {new}", text, flags=re.M)
        if f"{old} = " not in text:
            text += f"{old} = {new}\n"
    path = tmp_path / "study.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(("change", "field", "words"), [
    ({"overlap": "5"}, "overlap", "overlap 5 needs at least 5 raters"),
    ({"raters": '["alice", "Alice", "bob"]'}, "raters", "rater names must be unique"),
    ({"sample": "4000"}, "select.sample", "sample 4000 is more than the 6 finished"),
])
def test_study_file_errors_name_their_line(tmp_path, change, field, words) -> None:
    seed_db(tmp_path / "s.db").conn.close()
    path = _study_file(tmp_path, **change)
    key = next(iter(change))
    line = next(i for i, x in enumerate(path.read_text().splitlines(), 1)
                if x.startswith(f"{key} ="))
    out = bedside("study", "create", str(path), "--db", str(tmp_path / "s.db"), home=tmp_path)
    assert out.returncode == 2
    assert out.stderr.strip().startswith(f"bedside: {path}:{line}: field '{field}': {words}")


def test_score_never_counts_a_failure_as_scored(tmp_path, capsys, monkeypatch) -> None:
    from tests.fake_openai_server import FakeOpenAIServer

    db = str(tmp_path / "b.db")
    assert main(["run", "--db", db, "--cases", "card-00*", "--json"]) == 0
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    with FakeOpenAIServer(fault_rule=lambda body, n: "500") as server:
        code = main(["score", "--db", db, "--run", run_id, "--rating-patient",
                     "openai/patient", "--api-base", server.base_url, "--retries", "0"])
    out = capsys.readouterr().out
    assert code == 1
    assert "3 consultations: 0 scored" in out and "3 failed" in out
