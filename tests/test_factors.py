"""The factor registry and the grid: every experimental factor declared once, a run is the
cartesian product of the values given (options repeated or comma-separated, or a TOML run
file that the options override, stored with the run), and `bedside results --by` groups by
any factor read back from each consultation's stored configuration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.config import ConsultationConfig, parse_config
from core.errors import InputError
from core.factors import FACTORS, grid, grouping_keys, parse_by, parse_values, read_value
from core.runfile import load
from core.usecases.plans import build_plan
from tui.cli import main


def test_every_factor_is_an_option_a_file_key_and_a_grouping_key() -> None:
    assert list(FACTORS)[:5] == ["doctor", "patient", "examiner", "moderator", "max_turns"]
    assert set(FACTORS) <= set(grouping_keys())
    assert FACTORS["max_turns"].option == "--max-turns"
    assert parse_by("doctor_bias,max_turns" if "doctor_bias" in FACTORS else "max_turns,doctor") \
        in (("doctor_bias", "max_turns"), ("max_turns", "doctor"))
    with pytest.raises(InputError, match="cannot group by 'colour'"):
        parse_by("max_turns,colour")


def test_the_grid_is_the_product_of_the_values_and_keeps_earlier_keys() -> None:
    values = parse_values({"doctor": ["scripted,openai/a", "openai/b"],
                           "max_turns": ["5", "10,5"]}, {"api_base": "http://x/v1"})
    configs = grid(values, ConsultationConfig())
    assert [(c.doctor.display(), c.max_turns) for c in configs] == [
        ("scripted", 5), ("scripted", 10), ("openai/a", 5), ("openai/a", 10),
        ("openai/b", 5), ("openai/b", 10)]
    assert len({c.config_key() for c in configs}) == 6
    # Nothing given: the one default configuration, with the key runs have always had.
    (default,) = grid(parse_values({}, {}), ConsultationConfig())
    assert default.config_key() == "scripted#7ef36358014b"
    # A model doctor built through the registry has the key the old options gave it.
    params = {"api_base": "http://x/v1", "temperature": 0.0, "max_tokens": 512,
              "timeout": 60.0, "retries": 3, "seed": 0}
    (model,) = build_plan({"doctor": ["openai/gpt-4o-mini"], "api_base": "http://x/v1"}).configs
    old = parse_config("openai/gpt-4o-mini", "retrieval", "retrieval", "exact", params=params,
                       max_turns=20, seed=0, final_report=False)
    assert model.config_key() == old.config_key()


def test_moderators_judging_together_are_one_value() -> None:
    values = parse_values({"moderator": ["exact,openai/judge", "exact"]}, {})
    assert [[m.display() for m in v] for v in values["moderator"]] == [
        ["exact", "openai/judge"], ["exact"]]
    assert read_value("moderator", {"config_key": "k", "moderators": [
        {"kind": "exact"}, {"kind": "llm", "model": "openai/judge"}]}) == "exact+openai/judge"
    assert read_value("max_turns", {}) == "unknown"  # stored without a description
    assert read_value("max_turns", {"config_key": "k", "doctor": {"kind": "scripted"}}) == "20"


@pytest.mark.parametrize("args, words", [
    (["--max-turns", "3,abc"], ["--max-turns", "whole number", "'abc'"]),
    (["--max-turns", "0"], ["--max-turns", "from 1 to 200"]),
    (["--doctor", "scripted,human:ann"], ["--doctor", "play as doctor in the app"]),
    (["--patient", "scripted"], ["--patient", "cannot play the patient"]),
    (["--moderator", "retrieval"], ["--moderator", "cannot play the moderator"]),
    (["--config", "/nope/run.toml"], ["/nope/run.toml", "cannot read the run file"]),
    (["--resume", "r", "--max-turns", "5"], ["--resume", "remove --max-turns"]),
])
def test_bad_factor_values_are_one_line_naming_the_option(tmp_path: Path, capsys,
                                                          args: list[str],
                                                          words: list[str]) -> None:
    db = tmp_path / "x.db"
    assert main(["run", "--db", str(db), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    for word in words:
        assert word in err
    assert not db.exists()  # checked before the database is even opened


def _run(db: Path, capsys, *args: str) -> dict:
    assert main(["run", "--db", str(db), "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)


def _results(db: Path, capsys, by: str) -> list[dict]:
    assert main(["results", "--db", str(db), "--by", by, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _cardiology() -> int:
    """How many bundled cases are cardiology cases (the library grows)."""
    from core.caseio import load_bundled_cases

    return sum(c.specialty == "cardiology" for c in load_bundled_cases())


def test_a_sweep_is_one_run_and_results_group_by_any_factor(tmp_path: Path, capsys) -> None:
    db = tmp_path / "x.db"
    n = _cardiology()
    out = _run(db, capsys, "--cases", "cardiology", "--max-turns", "2", "--max-turns", "30")
    from db.store import open_store

    run = open_store(db).get_run(out["run_id"])
    assert [c["max_turns"] for c in run.config["configurations"]] == [2, 30]
    rows = _results(db, capsys, "max_turns")
    assert [(r["max_turns"], r["doctor"], r["finished"]) for r in rows] == [
        ("2", "scripted", n), ("30", "scripted", n)]
    assert rows[0]["turns"] <= 2 < rows[1]["turns"]
    both = _results(db, capsys, "max_turns,specialty")
    assert [(r["max_turns"], r["specialty"]) for r in both] == [("2", "cardiology"),
                                                                  ("30", "cardiology")]
    assert main(["results", "--db", str(db), "--by", "max_turns,patient"]) == 0
    text = capsys.readouterr().out
    head = text.splitlines()[1:3]  # under '-- diagnosis --', the header split at '_'
    assert head[0].split()[0] == "max_"
    assert head[1].split()[:4] == ["turns", "patient", "doctor", "settings"]


RUN_FILE = """\
# A published experiment: the turn-budget sweep of the scripted doctor.
name = "budget sweep"
cases = ["card-*"]
max_turns = [2, 30]
doctor = "scripted"
seed = 0
"""


def test_a_run_file_is_the_run_and_is_stored_with_it(tmp_path: Path, capsys) -> None:
    path = tmp_path / "sweep.toml"
    path.write_text(RUN_FILE, encoding="utf-8")
    db = tmp_path / "x.db"
    out = _run(db, capsys, "--config", str(path))
    from db.store import open_store

    store = open_store(db)
    run = store.get_run(out["run_id"])
    assert run.name == "budget sweep"
    assert run.config["run_file"]["text"] == RUN_FILE
    assert run.config["run_file"]["path"] == "sweep.toml"
    assert [c["max_turns"] for c in run.config["configurations"]] == [2, 30]
    assert len(run.config["cases"]) == _cardiology()  # every card-* case
    # The command line overrides the file, key by key.
    again = _run(db, capsys, "--config", str(path), "--max-turns", "7", "--name", "other")
    run = store.get_run(again["run_id"])
    assert run.name == "other" and [c["max_turns"] for c in run.config["configurations"]] == [7]


@pytest.mark.parametrize("text, words", [
    ("max_turns = [2, 0]\n", ["bad.toml:1:", "field 'max_turns'", "from 1 to 200"]),
    ("seed = 0\ncolour = 'red'\n", ["bad.toml:2:", "field 'colour'", "unknown key"]),
    ("temperature = 9\n", ["bad.toml:1:", "field 'temperature'", "from 0 to 2"]),
    ("limit = 'all'\n", ["bad.toml:1:", "field 'limit'", "at most N cases"]),
    ("doctor = [[1]]\n", ["bad.toml:1:", "field 'doctor'", "a value or a list"]),
    ("max_turns = [2,\n", ["not valid TOML"]),
    ("# key: sk-abcdefghijklmnop\n", ["bad.toml:1:", "looks like an API key"]),
    ("[model_limit]\n'openai/x' = 0\n", ["bad.toml:1:", "field 'model_limit'", "at least 1"]),
])
def test_a_bad_run_file_is_one_line_naming_file_line_and_key(tmp_path: Path, capsys,
                                                             text: str, words: list[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    db = tmp_path / "x.db"
    assert main(["run", "--db", str(db), "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "Traceback" not in err
    for word in words:
        assert word in err
    assert not db.exists()


def test_run_file_values_are_checked_like_options() -> None:
    plan = build_plan({}, None)
    assert [c.config_key() for c in plan.configs] == ["scripted#7ef36358014b"]
    assert plan.concurrency == 8 and plan.run_file is None
    with pytest.raises(InputError, match="field '--concurrency': must be from 1 to 256"):
        build_plan({"concurrency": 0})
    with pytest.raises(InputError, match="--one-step.*model doctor"):
        build_plan({"one_step": True})


def test_load_reads_lists_and_scalars(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_text("max_turns = 5\ndoctor = ['scripted', 'openai/x']\n"
                    "final_report = true\n[model_limit]\n'openai/x' = 2\n", encoding="utf-8")
    run = load(path)
    assert run.factors() == {"doctor": ["scripted", "openai/x"], "max_turns": ["5"]}
    plan = build_plan({}, run)
    assert plan.model_limits == {"openai/x": 2}
    assert [(c.doctor.display(), c.final_report) for c in plan.configs] == [
        ("scripted", True), ("openai/x", True)]
