"""Failures not hidden, replies bounded (issue 18, item 8), through `bedside run` against the
local fake server (real HTTP through litellm, a real SQLite file).

- A run any of whose consultations failed exits 1 and says how many and why (one line per
  distinct reason); 0 only when every consultation finished.
- A server that ignores `max_tokens` cannot fill the database: what is stored and re-sent
  of a reply is cut to the cap, and the cut is recorded in the turn's meta.
"""

from __future__ import annotations

import json
import socket
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.fake_openai_server import FakeOpenAIServer
from tui.cli import main


def _run(db: Path, server_url: str, *extra: str) -> list[str]:
    return ["run", "--db", str(db), "--doctor", "openai/fake", "--api-base", server_url,
            "--retries", "0", "--timeout", "10", "--concurrency", "1", "--json", *extra]


def test_a_failed_consultation_makes_the_run_fail(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    def first_fails(body: dict[str, Any], n: int) -> str | None:
        return "500" if n == 0 else None

    db = tmp_path / "x.db"
    with FakeOpenAIServer(fault_rule=first_fails) as server:
        code = main(_run(db, server.base_url, "--cases", "card-001,card-002"))
    out, err = capsys.readouterr()
    assert code == 1
    (row,) = json.loads(out)["results"]  # the summary is still printed
    assert row["failed"] == 1 and row["finished"] == 1
    lines = err.splitlines()
    assert "bedside: 1 of 2 consultations failed" in lines[-2], err
    assert lines[-1].startswith("  1× ") and "server error" in lines[-1], err


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_server_fails_the_run(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    code = main(_run(tmp_path / "x.db", url, "--cases", "card-001"))
    err = capsys.readouterr().err
    assert code == 1
    assert "bedside: 1 of 1 consultations failed" in err
    assert "Connection" in err.splitlines()[-1], err


def test_a_resumed_run_with_old_failures_still_fails(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "x.db"
    with FakeOpenAIServer(fault_rule=lambda body, n: "500" if n == 0 else None) as server:
        assert main(_run(db, server.base_url, "--cases", "card-001,card-002")) == 1
        run_id = json.loads(capsys.readouterr().out)["run_id"]
        argv = ["run", "--db", str(db), "--resume", run_id, "--json"]
        assert main(argv) == 1  # the failure stays until retried
        assert "--retry-failed" in capsys.readouterr().err
        assert main([*argv, "--retry-failed"]) == 0


def test_the_cap_follows_max_tokens() -> None:
    from core.config import AgentSpec
    from core.llm import reply_cap

    spec = AgentSpec(kind="llm", model="openai/x", max_tokens=512)
    assert reply_cap(spec) == 8 * 512
    assert reply_cap(spec.model_copy(update={"max_tokens": None})) == 8 * 4096


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_a_huge_reply_is_cut_and_the_cut_recorded(tmp_path: Path, stream: bool,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Every patient reply is 1 MB; the doctor asks three questions. Uncut, the file held
    each reply three times and re-sent it in every later prompt (tens of MB)."""
    import asyncio

    from core.config import AgentSpec
    from core.llm import LLMClient

    def patient_huge(body: dict[str, Any], n: int) -> str | None:
        return "huge" if "bedside/patient/" in json.dumps(body) else None

    db = tmp_path / "x.db"
    with FakeOpenAIServer(fault_rule=patient_huge, huge_chars=1_000_000,
                          chunk_words=10_000) as server:
        if stream:  # the app streams; `bedside run` does not
            spec = AgentSpec(kind="llm", model="openai/fake", api_base=server.base_url,
                             max_tokens=100, retries=0, stream=True)
            reply = asyncio.run(LLMClient().complete(
                spec, [{"role": "user", "content": "bedside/patient/v1"}]))
            assert len(reply.text) == 800 and reply.meta["truncated"] is True
            assert reply.meta["original_chars"] >= 1_000_000
            assert len(json.dumps(reply.raw_response)) < 2_000
            return
        code = main(_run(db, server.base_url, "--cases", "card-001", "--patient",
                         "openai/fake", "--max-turns", "4", "--max-tokens", "100"))
    capsys.readouterr()
    assert code == 0
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the write-ahead log into the file
    assert db.stat().st_size < 1_000_000  # uncut: 10.2 MB
    stored = con.execute("SELECT sum(length(content) + length(raw_request) + "
                         "length(raw_response)) FROM turns").fetchone()[0]
    assert stored < 100_000  # uncut: 10.0 MB
    rows = con.execute("SELECT content, meta, raw_response FROM turns WHERE role = 'patient'"
                       ).fetchall()
    assert len(rows) >= 2
    for content, meta, raw in rows:
        assert len(content) == 800
        assert json.loads(meta)["truncated"] is True
        assert json.loads(meta)["original_chars"] >= 1_000_000
        assert len(raw) < 2_000
