"""The bias arms through the real engine, litellm and the local OpenAI-compatible server:
each bias paragraph reaches its own agent's requests and nobody else's; the biases are
configuration recorded with the consultation (config key, description, prompt hashes) and
shown by `bedside runs show` and `bedside results`; and a sweep of 2 doctors × 2 doctor
biases × 2 turn budgets is one resumable run whose results group into 8 cells.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.caseio import load_bundled_cases
from core.engine import run_consultation
from core.events import ListSink
from core.llm import LLMClient
from core.prompts import PROMPTS
from core.prompts.bias import prompt_id
from core.usecases.plans import build_plan
from tests.fake_openai_server import TEST_KEY, FakeOpenAIServer, detect_role
from tui.cli import main

ROOT = Path(__file__).resolve().parents[1]
KEY = TEST_KEY
CASE = next(c for c in load_bundled_cases() if c.id == "card-001")
CONFIRMATION = PROMPTS[prompt_id("doctor", "confirmation")].text
SELF_DIAGNOSIS = PROMPTS[prompt_id("patient", "self_diagnosis")].text.split("{condition}")[0]
GENDER = PROMPTS[prompt_id("patient", "gender")].text


@pytest.fixture(scope="module")
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


def _texts(server: FakeOpenAIServer, since: int) -> dict[str, list[str]]:
    """Each role's requests since `since`, as the text of all their messages."""
    out: dict[str, list[str]] = {}
    for body in server.requests[since:]:
        text = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
        out.setdefault(detect_role(body), []).append(text)
    return out


def _play(server: FakeOpenAIServer, **given: list[str]) -> tuple[Any, dict[str, list[str]]]:
    (config,) = build_plan({"doctor": ["openai/doc"], "patient": ["openai/pat"],
                            "examiner": ["openai/exa"], "moderator": ["exact,openai/mod"],
                            "api_base": server.base_url, **given}).configs
    since = len(server.requests)
    sink = ListSink()
    transcript = asyncio.run(run_consultation(CASE, config, sink, consultation_id="c-1",
                                              llm=LLMClient(api_key=KEY)))
    assert transcript.end_reason == "diagnosis", transcript.meta
    return transcript, _texts(server, since)


def test_each_bias_reaches_its_own_agent_and_nobody_else(server: FakeOpenAIServer) -> None:
    transcript, texts = _play(server, doctor_bias=["confirmation"],
                              patient_bias=["self_diagnosis+gender"])
    assert set(texts) == {"doctor", "patient", "examiner", "moderator"}
    for text in texts["doctor"]:
        assert CONFIRMATION in text
        assert SELF_DIAGNOSIS not in text and GENDER not in text
    for text in texts["patient"]:
        assert SELF_DIAGNOSIS in text and GENDER in text and CONFIRMATION not in text
        # The illness is drawn from the differential, never the diagnosis; the paragraphs
        # sit before the prompt's own id line, which still ends the system prompt.
        assert "convinced yourself that you have acute pericarditis" in text
        assert "Prompt id: bedside/patient/v2" in text
        assert text.index(GENDER) < text.index("Prompt id: bedside/patient/v2")
    for role in ("examiner", "moderator"):
        for text in texts[role]:
            assert CONFIRMATION not in text and SELF_DIAGNOSIS not in text \
                and GENDER not in text
    described = transcript.meta["config"]
    assert described["doctor"]["bias"] == "confirmation"
    assert described["patient"]["bias"] == "self_diagnosis+gender"
    for name, role in (("confirmation", "doctor"), ("self_diagnosis", "patient"),
                       ("gender", "patient")):
        pid = prompt_id(role, name)
        assert described["prompts"][pid] == PROMPTS[pid].sha256


def test_every_bias_reaches_its_own_agent_only(server: FakeOpenAIServer) -> None:
    """All eleven patient biases and all twelve doctor biases at once ('+'-joined): each
    paragraph in every request of its own agent and in no other request."""
    from core.biases import DOCTOR_BIASES, PATIENT_BIASES

    transcript, texts = _play(server, patient_bias=["+".join(PATIENT_BIASES)],
                              doctor_bias=["+".join(DOCTOR_BIASES)])
    mine = {role: [PROMPTS[prompt_id(role, n)].text.split("{condition}")[0]
                   for n in table] for role, table in (("patient", PATIENT_BIASES),
                                                       ("doctor", DOCTOR_BIASES))}
    for role, role_texts in texts.items():
        for text in role_texts:
            for owner, paragraphs in mine.items():
                for paragraph in paragraphs:
                    assert (paragraph in text) == (role == owner), (role, paragraph[:40])
    assert len(transcript.meta["config"]["prompts"]) >= 23 + 7


def test_without_biases_the_requests_and_keys_are_as_before(server: FakeOpenAIServer) -> None:
    transcript, texts = _play(server)
    biased = [p.text.split("{")[0][:60] for i, p in PROMPTS.items() if i.startswith("bias/")]
    for role_texts in texts.values():
        for text in role_texts:
            assert not any(b in text for b in biased)
    described = transcript.meta["config"]
    assert "bias" not in described["doctor"] and "bias" not in described["patient"]
    assert not any(k.startswith("bias/") for k in described["prompts"])
    # `none` is the default value: the same configuration, the same key.
    (none,) = build_plan({"doctor": ["openai/doc"], "patient": ["openai/pat"],
                          "examiner": ["openai/exa"], "moderator": ["exact,openai/mod"],
                          "api_base": server.base_url, "patient_bias": ["none"],
                          "doctor_bias": ["none"]}).configs
    assert none.config_key() == described["config_key"]


def test_the_one_step_upper_bound_of_a_biased_doctor_is_biased(
        server: FakeOpenAIServer) -> None:
    from core.engine import run_one_step_consultation

    (config,) = build_plan({"doctor": ["openai/doc"], "doctor_bias": ["confirmation"],
                            "patient_bias": ["self_diagnosis"],
                            "api_base": server.base_url}).configs
    since = len(server.requests)
    transcript = asyncio.run(run_one_step_consultation(
        CASE, config, ListSink(), consultation_id="c-2", llm=LLMClient(api_key=KEY)))
    (body,) = server.requests[since:]
    text = body["messages"][0]["content"]
    assert CONFIRMATION in text and SELF_DIAGNOSIS not in text
    assert prompt_id("doctor", "confirmation") in transcript.meta["config"]["prompts"]


# -- the sweep: 2 doctors × 2 doctor biases × 2 budgets, one resumable run -----------------

SWEEP = ["--cases", "card-001", "--doctor", "openai/doc-a,openai/doc-b", "--doctor-bias",
         "none", "--doctor-bias", "confirmation", "--max-turns", "2,4", "--concurrency", "2",
         "--timeout", "30", "--name", "bias sweep"]


def _query(db: Path, sql: str) -> list[tuple[Any, ...]]:
    if not db.exists():
        return []
    conn = sqlite3.connect(db, timeout=30)
    try:
        return conn.execute(sql).fetchall()
    except sqlite3.OperationalError:  # not created yet
        return []
    finally:
        conn.close()


def test_a_bias_sweep_is_one_resumable_run_with_eight_cells(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.db"
    with FakeOpenAIServer(latency=0.3) as slow:
        args = [*SWEEP, "--api-base", slow.base_url]
        env = {**os.environ, "BEDSIDE_HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}
        proc = subprocess.Popen([sys.executable, "-m", "tui.cli", "run", "--db", str(db),
                                 *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 300  # a hang guard, not a timing
        while not _query(db, "SELECT 1 FROM consultations WHERE status = 'finished'"):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)  # interrupted mid-run, as by Ctrl+C
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 130, err
        (run_id,), = _query(db, "SELECT id FROM runs")
        done = _query(db, "SELECT count(*) FROM consultations WHERE status = 'finished'")[0][0]
        assert 1 <= done < 8
        assert main(["run", "--db", str(db), "--resume", run_id, "--json"]) == 0
    capsys.readouterr()
    live = _query(db, "SELECT config_key, status FROM consultations "
                      "WHERE status != 'superseded'")
    assert len(live) == 8 and {s for _, s in live} == {"finished"}
    assert main(["results", "--db", str(db), "--by", "doctor_bias,max_turns", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    cells = {(r["doctor_bias"], r["max_turns"], r["doctor"]): r["n"] for r in rows}
    assert cells == {(b, t, d): 1 for b in ("none", "confirmation") for t in ("2", "4")
                     for d in ("openai/doc-a", "openai/doc-b")}
    assert main(["runs", "show", "--db", str(db), run_id]) == 0
    shown = capsys.readouterr().out
    assert "doctor bias confirmation" in shown and "max turns 2" in shown
    # The settings column names the bias, as `bedside runs` does.
    assert all(("doctor bias confirmation" in r["settings"]) == (r["doctor_bias"] ==
                                                                  "confirmation") for r in rows)


def test_a_doctor_bias_needs_a_model_doctor(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "x.db"
    assert main(["run", "--db", str(db), "--doctor-bias", "confirmation"]) == 2
    err = capsys.readouterr().err
    assert "field '--doctor-bias'" in err and "model doctor" in err and err.count("\n") == 1
    path = tmp_path / "run.toml"
    path.write_text('doctor = "scripted"\ndoctor_bias = ["none", "recency"]\n')
    assert main(["run", "--db", str(db), "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:2: field 'doctor_bias'" in err
    assert main(["run", "--db", str(db), "--patient-bias", "gender+none"]) == 2
    assert "'none' cannot be joined" in capsys.readouterr().err
    assert main(["run", "--db", str(db), "--patient", "human:ann"]) == 2
    assert "play the patient in the app" in capsys.readouterr().err
    assert not db.exists()
