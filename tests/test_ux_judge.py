"""A judge run with a key the provider refuses (issue 16): litellm makes real HTTP calls to
the local fake server, which answers 401 as OpenAI does. The run stops at the first refusal;
a judge new to the study leaves it exactly as it was, a key refused mid-run keeps what was
rated before it and records nothing for the refused call."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from core.config import AgentSpec
from core.errors import CredentialError, ModelError
from core.llm import LLMClient
from db.connection import open_db
from tests.fake_openai_server import FakeOpenAIServer
from tests.test_study_judge_cli import GOOD, _judge
from tests.test_study_support import make_study, seed_db


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    db = seed_db(tmp_path / "s.db", n=4)
    make_study(db, tmp_path)
    db.close()
    return tmp_path / "s.db"


def _tables(db_path: Path) -> dict[str, object]:
    db = open_db(db_path)
    try:
        return {"raters": sorted(r["name"] for r in db["raters"].rows),
                "assignments": db["assignments"].count, "judge_calls": db["judge_calls"].count,
                "ratings": db["ratings"].count}
    finally:
        db.close()


def test_a_refused_key_stops_at_once_and_changes_nothing(db_path: Path, capsys) -> None:
    before = _tables(db_path)
    with FakeOpenAIServer(fault_rule=lambda body, n: "401") as server:
        # Default retries: a refused key is not retried.
        code = _judge(db_path, server, "--retries", "3")
        assert len(server.requests) == 1  # not one call per transcript
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err[-1].startswith("bedside: ") and "nothing was written to study 'pilot'" in err[-1]
    assert "Incorrect API key" in err[-1] and "sk-bad" not in err[-1]
    assert _tables(db_path) == before  # no judge rater, no assignment, no failed call


def test_a_key_refused_mid_run_keeps_what_was_rated(db_path: Path, capsys) -> None:
    with FakeOpenAIServer(replies={"unknown": GOOD},
                          fault_rule=lambda body, n: "401" if n >= 2 else None) as server:
        assert _judge(db_path, server) == 2
        assert len(server.requests) == 3
    err = capsys.readouterr().err
    assert "2 transcripts rated before it are kept" in err
    tables = _tables(db_path)
    assert tables["judge_calls"] == 2  # the refused call is not recorded as a failure
    db = open_db(db_path)
    judge = next(r for r in db["raters"].rows if r["name"].startswith("judge:"))
    statuses = [a["status"] for a in db["assignments"].rows_where("rater_id = ?",
                                                                   [judge["id"]])]
    assert statuses.count("done") == 2 and statuses.count("pending") == len(statuses) - 2
    db.close()
    # A good key later finishes the rest.
    with FakeOpenAIServer(replies={"unknown": GOOD}) as server:
        assert _judge(db_path, server) == 0
    assert "2 already rated" in capsys.readouterr().out


def test_the_model_client_tells_a_refused_key_from_other_failures() -> None:
    async def call(fault: str) -> BaseException:
        with FakeOpenAIServer(fault_rule=lambda body, n: fault) as server:
            spec = AgentSpec(kind="llm", model="openai/fake", api_base=server.base_url,
                             retries=1, backoff=0.0, stream=False)
            try:
                await LLMClient().complete(spec, [{"role": "user", "content": "hi"}])
            except ModelError as err:
                return err
        raise AssertionError("no error")

    assert isinstance(asyncio.run(call("401")), CredentialError)
    server_error = asyncio.run(call("500"))
    assert not isinstance(server_error, CredentialError)
