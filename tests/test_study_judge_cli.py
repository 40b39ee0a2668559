"""`bedside judge` end to end: litellm makes real HTTP calls to the local fake
OpenAI-compatible server; answers are parsed, retried, recorded; settings make the rater."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from db.study_store import SqliteStudyStore
from db.connection import open_db
from tests.fake_openai_server import FakeOpenAIServer
from tests.test_study_support import make_study, seed_db
from tui.cli import main

GOOD = "```json\n" + json.dumps({"transcript": {"realism_doctor": 6, "realism_patient": 7,
                                                "realism_examiner": 8, "empathy_doctor": 5},
                                 "turns": {"2": {"patient_honesty": "yes"}}}) + "\n```"


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    db = seed_db(tmp_path / "s.db", n=3)
    make_study(db, tmp_path)
    db.close()
    return tmp_path / "s.db"


def _judge(db_path: Path, server: FakeOpenAIServer, *extra: str) -> int:
    return main(["--db", str(db_path), "judge", "--study", "pilot", "--model", "openai/fake",
                 "--api-base", server.base_url, "--retries", "0", *extra])


def test_judge_rates_with_progress_lines_and_settings_as_identity(db_path, capsys) -> None:
    with FakeOpenAIServer(replies={"unknown": GOOD}) as server:
        assert _judge(db_path, server, "--temperature", "0.3", "--seed", "5") == 0
        out, err = capsys.readouterr()
        first = server.requests[0]
        assert first["response_format"] == {"type": "json_object"}
        assert (first["temperature"], first["seed"]) == (0.3, 5) and not first.get("stream")
        assert len(server.requests) == 3
        lines = [x for x in err.splitlines() if x.startswith("[")]
        assert [x.split("]")[0] for x in lines] == ["[1/3", "[2/3", "[3/3"]
        assert all(x.endswith(": ok (1 attempt)") for x in lines)
        assert out.startswith("judge:openai/fake#") and "3 rated, 0 failed" in out
        cool = out.split(": ")[0]  # the rater: judge:openai/fake#<hash of the settings>
        # same settings again: nothing to do; another temperature: another rater
        assert _judge(db_path, server, "--temperature", "0.3", "--seed", "5") == 0
        assert "0 rated, 0 failed, 3 already rated" in capsys.readouterr().out
        assert _judge(db_path, server, "--temperature", "0.9", "--seed", "5") == 0
        warm = capsys.readouterr().out
        assert "3 rated" in warm and warm.split(": ")[0] != cool
    db = open_db(db_path)
    judges = {r["name"]: (r["model"], json.loads(r["params"]), r["prompt_hash"])
              for r in db["raters"].rows_where("kind = 'judge'")}
    assert sorted(p["temperature"] for _, p, _ in judges.values()) == [0.3, 0.9]
    assert all(m == "openai/fake" and p["seed"] == 5 and h for m, p, h in judges.values())
    store = SqliteStudyStore(db)
    sid = store.get_study("pilot").id
    for rater in store.study_raters(sid):
        if rater.kind == "judge":
            assert {a.status for a in store.assignments(sid, rater.id)} == {"done"}


def test_garbage_answers_are_retried_then_recorded_as_failed(db_path, capsys) -> None:
    with FakeOpenAIServer(replies={"unknown": "I think the doctor was fine."}) as server:
        assert _judge(db_path, server, "--attempts", "2") == 1
        assert len(server.requests) == 3 * 2
        # the retry shows the model its answer and what was wrong with it
        retry = server.requests[1]["messages"]
        assert retry[-2] == {"role": "assistant", "content": "I think the doctor was fine."}
        assert "not usable" in retry[-1]["content"]
    out, err = capsys.readouterr()
    assert "0 rated, 3 failed" in out
    assert err.count("FAILED after 2 attempt(s): not the expected JSON object") == 3
    db = open_db(db_path)
    calls = list(db["judge_calls"].rows)
    assert len(calls) == 3 and {(c["status"], c["attempts"]) for c in calls} == {("failed", 2)}
    assert {c["raw_response"] for c in calls} == {"I think the doctor was fine."}
    assert db["ratings"].count == 0


def test_server_errors_are_recorded_and_the_run_goes_on(db_path, capsys) -> None:
    with FakeOpenAIServer(replies={"unknown": GOOD}) as server:
        server.faults.append("500")  # the first transcript's only call fails
        assert _judge(db_path, server) == 1
    out, err = capsys.readouterr()
    assert "2 rated, 1 failed" in out
    assert "[1/3]" in err and "FAILED after 1 attempt(s): openai/fake:" in err
    calls = list(open_db(db_path)["judge_calls"].rows_where(order_by="rowid"))
    assert [c["status"] for c in calls] == ["failed", "ok", "ok"]


def test_api_key_env_is_used_and_never_stored(db_path, capsys, monkeypatch) -> None:
    secret = "sk-test-judge-key-0451"
    monkeypatch.setenv("BEDSIDE_JUDGE_KEY", secret)
    with FakeOpenAIServer(replies={"unknown": GOOD}) as server:
        assert _judge(db_path, server, "--api-key-env", "BEDSIDE_JUDGE_KEY") == 0
        assert server.headers[0]["authorization"] == f"Bearer {secret}"
    capsys.readouterr()
    dump = "\n".join(open_db(db_path).conn.iterdump())
    assert secret not in dump and "BEDSIDE_JUDGE_KEY" not in dump
    monkeypatch.delenv("BEDSIDE_JUDGE_KEY")
    with FakeOpenAIServer() as server:
        assert _judge(db_path, server, "--api-key-env", "BEDSIDE_JUDGE_KEY") == 2
        assert server.requests == []
    assert "field '--api-key-env': the environment variable BEDSIDE_JUDGE_KEY is not set" \
        in capsys.readouterr().err


@pytest.mark.parametrize("option, value, message", [
    ("--temperature", "3", "field '--temperature': Input should be less than or equal to 2"),
    ("--retries", "-1", "field '--retries': Input should be greater than or equal to 0"),
    ("--attempts", "0", "field '--attempts': must be at least 1"),
])
def test_bad_settings_are_one_line_errors_before_any_call(db_path, capsys, option, value,
                                                          message) -> None:
    with FakeOpenAIServer(replies={"unknown": GOOD}) as server:
        assert main(["--db", str(db_path), "judge", "--study", "pilot", "--model",
                     "openai/fake", "--api-base", server.base_url, option, value]) == 2
        assert server.requests == []
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
