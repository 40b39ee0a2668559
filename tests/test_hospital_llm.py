"""The whole hospital through a model: an LLM triage nurse and LLM doctors (one of them
MedAgent-Zero, learning as the hospital runs) on the local OpenAI-compatible server, end
to end through litellm and the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.agenthospital.kb import bundled_kb
from db.store import open_store
from tests.fake_openai_server import FakeOpenAIServer, message_text
from tui.cli import main

SMALL = ["--residents", "6", "--days", "3", "--seed", "1", "--onset", "0.5"]


def _role(body: dict) -> str:
    found = re.search(r"bedside/(ah-[a-z]+)/v1", message_text(body["messages"][-1]["content"]))
    return found.group(1) if found else "?"


def test_a_model_nurse_and_model_doctors_run_a_small_hospital(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "h.db")
    with FakeOpenAIServer() as server:
        assert main(["hospital", "--db", db, *SMALL, "--triage", "openai/nurse",
                     "--doctor", "all=openai/doctor", "--doctor", "emergency=zero:openai/doctor",
                     "--api-base", server.base_url, "--json"]) == 0
        requests = list(server.requests)
    got = json.loads(capsys.readouterr().out)
    store = open_store(db)
    events = store.hospital_events(got["run"])
    triage = [e for e in events if e.station == "triage"]
    asked = [b for b in requests if _role(b) == "ah-triage"]
    assert got["patients"] >= 2 and len(asked) == len(triage) == got["triaged"]
    assert got["triage_fallbacks"] == 0 and got["failed_consultations"] == 0
    # The nurse went by the saturation (the fake server's rule), graded against the routes.
    assert {e.department for e in triage} <= {"emergency", "respiratory"}
    right = sum(e.detail["correct"] for e in triage)
    assert got["triage_accuracy"] == pytest.approx(right / len(triage))
    # The nurse sees what the patient says and the vital signs, never the diagnosis.
    kb = bundled_kb()
    names = [d.name for d in kb.diseases] + ["mild", "moderate", "severe"]
    for body in asked:
        text = message_text(body["messages"][-1]["content"])
        assert "SpO2" in text and "Thoracic oncology" in text
        assert not any(n in text.split("Departments:")[0] + text.split("measured:")[-1]
                       for n in names)
    # Every consultation is the model's, recorded turn by turn with its prompts.
    rows = store.list_consultations(run_id=got["run"])
    assert len(rows) == got["consultations"] > 0
    for row in rows:
        turns = store.get_transcript(row.id).turns
        answers = [t for t in turns if (t.meta or {}).get("step") == "answer"]
        assert [t.meta["task"] for t in answers] == ["examination", "diagnosis", "treatment"]
        assert {t.model for t in answers} == {"openai/doctor"}
    # The fake doctor always says pneumonia: the diagnosis accuracy is pneumonia's share.
    ill = {e.patient: e.detail["disease"] for e in events if e.what == "ill"}
    seen = [e for e in events if e.station == "diagnosis"]
    share = sum(ill[e.patient] == "Community-acquired pneumonia" for e in seen) / len(seen)
    assert got["diagnosis_accuracy"] == pytest.approx(share)
    # MedAgent-Zero in the emergency department reflected on its wrong answers.
    emergency = [r for r in rows if r.config["department"] == "emergency"]
    if emergency:
        assert all(r.config["solver"] == "medagent_zero" for r in emergency)
        assert any(_role(b) == "ah-reflect" for b in requests)


def test_a_triage_reply_that_names_no_department_is_said_and_fails_the_command(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeOpenAIServer(replies={"ah-triage": "I am not sure where to send them."}) as server:
        code = main(["hospital", "--db", str(tmp_path / "h.db"), "--residents", "3",
                     "--days", "1", "--onset", "1", "--triage", "openai/nurse",
                     "--api-base", server.base_url])
    out, err = capsys.readouterr()
    assert code == 1
    assert "3 triage call(s) failed or named no department" in err
    assert "every patient is accounted for" in out


def test_a_failed_consultation_is_counted_the_patient_goes_on_and_the_command_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "h.db")

    def broken(body: dict, n: int) -> str | None:
        return "500" if _role(body) == "ah-diagnosis" else None

    with FakeOpenAIServer(fault_rule=broken) as server:
        code = main(["hospital", "--db", db, "--residents", "4", "--days", "3", "--onset", "1",
                     "--doctor", "all=openai/doctor", "--retries", "0",
                     "--api-base", server.base_url, "--json"])
    out, err = capsys.readouterr()
    got = json.loads(out)
    assert "8 consultation(s) failed" in err
    assert code == 1 and got["failed_consultations"] == got["consultations"] == 4 + 4
    assert got["balanced"] and got["revisits"] == 4  # no prescription: all come back worse
    store = open_store(db)
    events = store.hospital_events(got["run"])
    failed = [e for e in events if e.station == "diagnosis"]
    assert all(e.detail["answer"] is None and "server error" in e.detail["failed"]
               for e in failed)
    assert all(e.what == "nothing" for e in events if e.station == "dispensary")
    assert {r.status for r in store.list_consultations(run_id=got["run"])} == {"failed"}
