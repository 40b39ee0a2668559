"""`bedside run --router FILE`: litellm's Router over two local servers (real HTTP, a real
SQLite file): calls spread over both deployments, a failing one falls back to the other,
each stored model call names the deployment that answered, a resume uses the stored file;
and a bad file is one line naming file and field (a literal key never echoed)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.fake_openai_server import FakeOpenAIServer
from tui.cli import main

KEY_A, KEY_B = "fleet-secret-aaaa-1234", "fleet-secret-bbbb-5678"


def _deployment(name: str, server: FakeOpenAIServer, env: str) -> str:
    return (f"  - model_name: {name}\n    litellm_params: {{model: openai/llama, "
            f"api_base: '{server.base_url}', api_key: os.environ/{env}}}\n    rpm: 6000\n")


def _write(path: Path, deployments: str, settings: str = "") -> str:
    path.write_text("model_list:\n" + deployments + "router_settings:\n  num_retries: 0\n"
                    + settings)
    return str(path)


def _run(db: Path, router: str, *extra: str) -> int:
    return main(["run", "--db", str(db), "--limit", "3", "--doctor", "fleet/llama",
                 "--patient", "fleet/llama", "--retries", "0", "--router", router,
                 "--json", *extra])


def _deployments(db: Path) -> list[str]:
    """The api_base of the deployment named by each stored model call."""
    with sqlite3.connect(db) as con:
        metas = [json.loads(m) for (m,) in con.execute(
            "SELECT meta FROM turns WHERE model IS NOT NULL AND meta IS NOT NULL")]
    return [m["deployment"]["api_base"] for m in metas if "deployment" in m]


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FLEET_A", KEY_A)
    monkeypatch.setenv("FLEET_B", KEY_B)


def test_calls_spread_over_both_deployments_and_are_named(tmp_path: Path, keys: None,
                                                         capsys: Any) -> None:
    with FakeOpenAIServer() as a, FakeOpenAIServer() as b:
        router = _write(tmp_path / "fleet.yaml", _deployment("fleet/llama", a, "FLEET_A")
                        + _deployment("fleet/llama", b, "FLEET_B"))
        assert _run(tmp_path / "x.db", router) == 0
        assert a.requests and b.requests  # ~20 calls shuffled over two: both got some
        assert {h.get("authorization") for h in a.headers} == {f"Bearer {KEY_A}"}
        assert {h.get("authorization") for h in b.headers} == {f"Bearer {KEY_B}"}
        named = _deployments(tmp_path / "x.db")  # every call is a turn (exact moderator)
        assert named.count(a.base_url) == len(a.requests)
        assert named.count(b.base_url) == len(b.requests)
    out = capsys.readouterr()
    with sqlite3.connect(tmp_path / "x.db") as con:
        stored = con.execute("SELECT config FROM runs").fetchone()[0]
    assert "os.environ/FLEET_A" in stored and KEY_A not in stored
    assert KEY_A not in out.out + out.err


def test_a_failing_deployment_falls_back_and_a_resume_uses_the_stored_file(
        tmp_path: Path, keys: None, capsys: Any) -> None:
    db = tmp_path / "x.db"
    with FakeOpenAIServer(fault_rule=lambda body, n: "500") as a, FakeOpenAIServer() as b:
        fallback = "  fallbacks: [{fleet/llama: [fleet/backup]}]\n"
        router = _write(tmp_path / "fleet.json.yaml", _deployment("fleet/llama", a, "FLEET_A")
                        + _deployment("fleet/backup", b, "FLEET_B"), fallback)
        assert _run(db, router) == 0  # every call failed on a, answered by b
        assert a.requests and b.requests
        assert set(_deployments(db)) == {b.base_url}
        run_id = json.loads(capsys.readouterr().out)["run_id"]
        # Without the fallback, the same run fails; its resume (no --router) routes again.
        bare = _write(tmp_path / "bare.yaml", _deployment("fleet/llama", a, "FLEET_A"))
        assert _run(tmp_path / "y.db", bare) == 1
        failed = json.loads(capsys.readouterr().out)["run_id"]
        a.fault_rule = None
        before = len(a.requests)
        assert main(["run", "--db", str(tmp_path / "y.db"), "--resume", failed,
                     "--retry-failed", "--json"]) == 0
        assert len(a.requests) > before
        assert set(_deployments(tmp_path / "y.db")) == {a.base_url}
    assert run_id


@pytest.mark.parametrize("text, words", [
    (None, ["no such file", "field '--router'"]),
    ("model_list: [unclosed", ["not valid YAML/JSON"]),
    ("router_settings: {num_retries: 1}\n", ["field 'model_list'", "missing"]),
    ("model_list:\n  - model_name: other/model\n    litellm_params: {model: openai/x}\n",
     ["field 'model_list'", "fleet/llama", "doctor"]),
    ("model_list:\n  - model_name: fleet/llama\n    litellm_params: {model: openai/x, "
     "api_key: plain-literal-key-99}\n",
     ["field 'model_list[0].litellm_params.api_key'", "os.environ/VAR"]),
    ("model_list:\n  - model_name: fleet/llama\n    litellm_params: {model: openai/x}\n"
     "routing_stratagem: fast\n", ["field 'routing_stratagem'", "not a litellm Router"]),
])
def test_a_bad_router_file_is_one_line_naming_file_and_field(
        tmp_path: Path, capsys: Any, text: str | None, words: list[str]) -> None:
    path = tmp_path / "fleet.yaml"
    if text is not None:
        path.write_text(text)
    db = tmp_path / "x.db"
    assert main(["run", "--db", str(db), "--limit", "1", "--doctor", "fleet/llama",
                 "--router", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "Traceback" not in err
    assert "plain-literal-key-99" not in err
    for word in words:
        assert word in err
    assert not db.exists() or sqlite3.connect(db).execute(
        "SELECT count(*) FROM runs").fetchone()[0] == 0
