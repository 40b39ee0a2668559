"""`bedside run` option checking: one line naming the option and what it allows, nothing
written; and a plain offline run end to end through the CLI entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tui.cli import main


@pytest.mark.parametrize("args, words", [
    (["--max-turns", "0"], ["--max-turns", "from 1 to 200", "got 0"]),
    (["--max-turns", "500"], ["--max-turns", "from 1 to 200"]),
    (["--temperature", "5"], ["--temperature", "from 0 to 2"]),
    (["--max-tokens", "0"], ["--max-tokens", "at least 1"]),
    (["--retries", "50"], ["--retries", "from 0 to 10"]),
    (["--timeout", "0"], ["--timeout", "above 0"]),
    (["--concurrency", "0"], ["--concurrency", "from 1"]),
    (["--limit", "0"], ["--limit", "at least 1"]),
    (["--model-limit", "openai/x=0"], ["--model-limit", "MODEL=N"]),
    (["--doctor", "human"], ["--doctor", "play as doctor in the app"]),
    (["--doctor", "human:ann"], ["--doctor", "play as doctor in the app"]),
    (["--one-step"], ["--one-step", "model doctor"]),
    (["--retry-failed"], ["--retry-failed", "--resume"]),
    (["--resume", "nope"], ["no run 'nope'"]),
])
def test_bad_options_are_one_line_and_write_nothing(tmp_path: Path, capsys, args: list[str],
                                                    words: list[str]) -> None:
    db = tmp_path / "x.db"
    assert main(["run", "--db", str(db), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bedside: ") and "Traceback" not in err
    for word in words:
        assert word in err
    if db.exists():  # opened at most: no run, no consultation
        from db.connection import open_db

        assert open_db(db)["runs"].count == 0


def test_an_unopenable_database_path_is_one_line(capsys) -> None:
    assert main(["run", "--db", "/proc/nope/x.db"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/proc/nope/x.db" in err and "does not exist" in err


def test_offline_run_prints_json_and_resume_does_nothing_more(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "x.db")
    assert main(["run", "--db", db, "--cases", "cardiology", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    (row,) = out["results"]
    from core.caseio import load_bundled_cases

    n = sum(c.specialty == "cardiology" for c in load_bundled_cases())
    assert row["finished"] == row["consultations"] == n and row["failed"] == 0
    assert main(["run", "--db", db, "--resume", out["run_id"], "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["results"][0]["consultations"] == n
