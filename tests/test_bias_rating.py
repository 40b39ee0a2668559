"""After the consultation the patient rates the doctor as the patient it was (AgentClinic's
patient-reported measures): `bedside score --rating-patient own` asks each consultation's
own model patient, its biases included, and says the offline patient gives none;
`--rating-patient MODEL` plays each consultation's patient with its biases. The biases are
a parameter of the rater: recorded with each value and part of the cache key. Through the
real engine, litellm and the local OpenAI-compatible server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.prompts import PROMPTS
from core.prompts.bias import prompt_id
from core.usecases.rating_patient import OFFLINE_PATIENT
from db.store import open_store
from tests.fake_openai_server import FakeOpenAIServer, detect_role
from tui.cli import main

SELF_DIAGNOSIS = PROMPTS[prompt_id("patient", "self_diagnosis")].text.split("{condition}")[0]


def _ratings(server: FakeOpenAIServer, since: int) -> list[tuple[str, str]]:
    """(model, text) of each rating request since `since`."""
    return [(b["model"], "\n".join(str(m["content"]) for m in b["messages"]))
            for b in server.requests[since:] if detect_role(b) == "rating_patient"]


def test_the_consultations_own_patient_rates_with_its_bias(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "r.db")
    with FakeOpenAIServer() as server:
        assert main(["run", "--db", db, "--cases", "card-001", "--patient",
                     "openai/pat,retrieval", "--patient-bias", "none,self_diagnosis",
                     "--api-base", server.base_url, "--json"]) == 0
        run_id = json.loads(capsys.readouterr().out)["run_id"]
        store = open_store(db)
        rows = {(c.patient, (c.config["patient"].get("bias") or "none")): c.id
                for c in store.list_consultations(run_id=run_id)}
        assert len(rows) == 4

        since = len(server.requests)
        assert main(["score", "--db", db, "--run", run_id, "--rating-patient", "own"]) == 0
        out = capsys.readouterr().out
        assert "2 whose patient gives no ratings" in out
        asked = _ratings(server, since)
        # Only the two model patients are asked, each with its own model; the biased one is
        # told its bias paragraph (with the illness it consulted with), the other is not.
        assert sorted(m for m, _ in asked) == ["pat", "pat"]  # the server sees the bare name
        assert sorted(SELF_DIAGNOSIS in t for _, t in asked) == [False, True]
        assert all("acute pericarditis" in t for _, t in asked if SELF_DIAGNOSIS in t)
        metrics = store.get_metrics(rows[("openai/pat", "self_diagnosis")])
        value, detail = metrics["pr_confidence"]
        assert value == 8.0 and detail["rater"]["params"]["patient_bias"] == "self_diagnosis"
        assert prompt_id("patient", "self_diagnosis") in detail["rater"]["bias_prompts"]
        plain = store.get_metrics(rows[("openai/pat", "none")])["pr_confidence"][1]
        assert "patient_bias" not in plain["rater"]["params"]
        assert store.get_metrics(rows[("retrieval", "self_diagnosis")])["pr_confidence"] == \
            (None, {"reason": OFFLINE_PATIENT})

        # A model named in its place rates the offline patients too, with their biases.
        since = len(server.requests)
        assert main(["score", "--db", db, "--run", run_id, "--rating-patient",
                     "openai/rater", "--api-base", server.base_url]) == 0
        asked = _ratings(server, since)
        assert len(asked) == 4 and {m for m, _ in asked} == {"rater"}
        assert sorted(SELF_DIAGNOSIS in t for _, t in asked) == [False, False, True, True]
        rated = store.get_metrics(rows[("retrieval", "self_diagnosis")])["pr_confidence"]
        assert rated[0] == 8.0 and rated[1]["rater"]["params"]["patient_bias"] == \
            "self_diagnosis"
        # Stored with the bias in the key: asking again costs nothing.
        capsys.readouterr()
        since = len(server.requests)
        assert main(["score", "--db", db, "--run", run_id, "--rating-patient",
                     "openai/rater", "--api-base", server.base_url]) == 0
        assert _ratings(server, since) == []
        assert "4 already scored" in capsys.readouterr().out


def test_who_rates_each_kind_of_patient_with_own() -> None:
    from core.records.runs import ConsultationSummary
    from core.usecases.rating_patient import HUMAN_PATIENT, NO_PATIENT_CONFIG, own

    made: list[str] = []

    def make(spec):  # type: ignore[no-untyped-def]
        made.append(f"{spec.model} stream={spec.stream}")
        return lambda messages: None

    resolve = own(make)

    def summary(patient: dict | None) -> ConsultationSummary:
        return ConsultationSummary(id="c", case_id="card-001", status="finished",
                                   config={"patient": patient} if patient else {})

    assert resolve(summary({"kind": "retrieval", "bias": "gender"})) == OFFLINE_PATIENT
    assert resolve(summary({"kind": "human", "label": "human:sam"})) == HUMAN_PATIENT
    assert resolve(summary(None)) == NO_PATIENT_CONFIG
    got = resolve(summary({"kind": "llm", "model": "openai/p", "temperature": 0.3,
                           "bias": "religion"}))
    assert not isinstance(got, str)
    assert got[1].model == "openai/p" and got[1].params["patient_bias"] == "religion"
    assert got[1].params["temperature"] == 0.3
    resolve(summary({"kind": "llm", "model": "openai/p", "temperature": 0.3,
                     "bias": "religion"}))
    assert made == ["openai/p stream=False"]  # one caller per model spec, not streamed
