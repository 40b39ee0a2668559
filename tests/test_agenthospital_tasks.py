"""The three chained Agent Hospital tasks: reading answers, the verdict rules, the task as
a run (`bedside run --task agenthospital`) with the scripted doctor and with a model
through the local server, and its rows in `bedside results`, apart from the interactive
consultation's."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from core.agenthospital.generator import generate
from core.agenthospital.kb import bundled_kb
from core.agenthospital.tasks import Answers, Key, correct, grade, key_of, pick
from core.config import AgentSpec
from core.scorers.verdict import VerdictScorer
from tests.fake_openai_server import FakeOpenAIServer
from tui.cli import main

EXAMS = tuple(bundled_kb().exam_names)


@pytest.mark.parametrize("text, expected", [
    ("ANSWER: Chest X-ray", "Chest X-ray"),
    ("I think so.\nAnswer: **chest ct**", "Chest CT"),
    ("I would order a SARS-CoV-2 PCR first.", "SARS-CoV-2 PCR"),
    ("ANSWER: Chest X-ray and Chest CT", None),  # two options: no answer
    ("ANSWER: a urine dipstick", None),
    ("", None),
])
def test_an_answer_is_one_option_or_none(text: str, expected: str | None) -> None:
    assert pick(text, EXAMS) == expected


def test_treatment_is_wrong_whenever_the_diagnosis_is() -> None:
    key = Key("Influenza", "mild", ("Influenza A/B PCR",))
    assert grade(Answers("Influenza A/B PCR", "Influenza", "mild"), key) == \
        {"examination": True, "diagnosis": True, "treatment": True}
    assert grade(Answers("Chest X-ray", "COVID-19", "mild"), key) == \
        {"examination": False, "diagnosis": False, "treatment": False}
    assert not correct("treatment", Answers(None, None, "mild"), key)


def test_the_exact_moderator_agrees_with_the_options() -> None:
    # One case of each disease; every option given as the diagnosis: the deterministic
    # verdict (what the consultation stores) is right for its own disease only.
    kb = bundled_kb()
    cases = {}
    for case in generate(kb, 1, "train", 200):
        cases.setdefault(case.truth.diagnosis, case)
    assert len(cases) == 8
    judge = VerdictScorer(AgentSpec(kind="exact"))

    async def verdicts() -> list[tuple[str, str, bool | None]]:
        out = []
        for disease, case in cases.items():
            for option in kb.disease_names:
                verdict, _ = await judge.judge(case, option)
                out.append((disease, option, verdict.correct))
        return out

    for disease, option, verdict in asyncio.run(verdicts()):
        assert verdict is (disease == option), (disease, option)


def _generate(db: str, n: int, capsys: Any, seed: int = 3) -> None:
    assert main(["agenthospital", "generate", "--test", str(n), "--seed", str(seed),
                 "--db", db]) == 0
    capsys.readouterr()


def test_the_task_run_is_scored_per_task_and_never_pooled(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "t.db")
    _generate(db, 12, capsys)
    assert main(["run", "--db", db, "--task", "agenthospital", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["results"] == [] and [r["task"] for r in out["tasks"]] == \
        ["examination", "diagnosis", "treatment"]
    assert all(r["n"] == 12 and r["ci_low"] <= r["accuracy"] <= r["ci_high"]
               for r in out["tasks"])
    assert main(["run", "--db", db, "--cases", "card-001", "--json"]) == 0
    capsys.readouterr()
    assert main(["results", "--db", db, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    interactive = [r for r in rows if "task" not in r]
    tasks = [r for r in rows if "task" in r]
    # The consultation's table holds the interactive consultation only.
    assert [r["n"] for r in interactive] == [1] and len(tasks) == 3
    assert {r["settings"] for r in tasks} == {"task agenthospital"}
    assert main(["results", "--db", db]) == 0
    text = capsys.readouterr().out
    assert "-- Agent Hospital tasks --" in text and re.search(r"diagnosis +scripted", text)
    assert main(["results", "--db", db, "--task", "agenthospital", "--csv"]) == 0
    csv = capsys.readouterr().out.splitlines()
    assert csv[0].startswith("model,task,doctor,settings,n,correct,accuracy,ci_low")
    assert len(csv) == 4


def test_a_task_consultation_is_recorded_turn_by_turn(tmp_path: Path, capsys) -> None:
    from db.store import open_store

    db = str(tmp_path / "r.db")
    _generate(db, 1, capsys)
    assert main(["run", "--db", db, "--task", "agenthospital", "--json"]) == 0
    store = open_store(db)
    (row,) = store.list_consultations()
    case = store.get_case(row.case_id)
    turns = store.get_transcript(row.id).turns
    assert [(str(t.role), t.kind) for t in turns] == [
        ("patient", "answer"), ("doctor", "test_request"), ("examiner", "result"),
        ("doctor", "diagnosis"), ("doctor", "treatment")]
    assert turns[0].content == case.patient.opening
    exam = turns[1].meta["answer"]
    finding = next(i.value for i in [*case.physical_exam, *case.tests] if i.name == exam)
    assert finding in turns[2].content and turns[1].tests == [exam]
    assert [t.meta["task"] for t in turns if t.meta.get("step") == "answer"] == \
        ["examination", "diagnosis", "treatment"]
    assert row.diagnosis == turns[3].meta["answer"] and row.doctor_turns == 3
    verdicts = store.get_metrics(row.id)
    key = key_of(case)
    assert key is not None
    assert verdicts["task_examination"][0] == float(exam in key.suitable)


def _model_replies(kb: Any) -> dict[str, Any]:
    """A model doctor that orders a chest X-ray, diagnoses pneumonia, says 'severe'."""
    return {"ah-examination": "ANSWER: Chest X-ray",
            "ah-diagnosis": "I think this is a community-acquired pneumonia.\n"
                            "ANSWER: Community-acquired pneumonia",
            "ah-treatment": "ANSWER: severe"}


def test_a_model_takes_the_tasks_seeing_only_what_it_asked_for(tmp_path: Path,
                                                                capsys) -> None:
    from db.store import open_store

    db = str(tmp_path / "m.db")
    _generate(db, 2, capsys)
    kb = bundled_kb()
    with FakeOpenAIServer(replies=_model_replies(kb)) as server:
        assert main(["run", "--db", db, "--task", "agenthospital", "--doctor", "openai/fake",
                     "--api-base", server.base_url, "--json"]) == 0
        prompts = [b["messages"][-1]["content"] for b in server.requests]
    tasks = json.loads(capsys.readouterr().out)["tasks"]
    assert [r["doctor"] for r in tasks] == ["openai/fake"] * 3
    store = open_store(db)
    for row in store.list_consultations():
        case = store.get_case(row.case_id)
        mine = [p for p in prompts if (case.patient.opening or "") in p]
        assert [re.search(r"bedside/(ah-\w+)/v1", p).group(1) for p in mine] == \
            ["ah-examination", "ah-diagnosis", "ah-treatment"]  # type: ignore[union-attr]
        assert all(name in mine[0] for name in kb.exam_names)
        findings = {i.name: i.value for i in [*case.physical_exam, *case.tests]}
        # The diagnosis prompt has the chest X-ray's finding and no other finding.
        assert findings["Chest X-ray"] in mine[1]
        assert not any(v in mine[1] for n, v in findings.items()
                       if n != "Chest X-ray" and v not in findings["Chest X-ray"])
        assert case.truth.diagnosis not in mine[0]
        # The treatment prompt shows the diagnosed disease's three plans.
        pneumonia = kb.disease("pneumonia")
        assert all(pneumonia.level(lv).treatment in mine[2] for lv in ("mild", "severe"))
        assert row.diagnosis == "Community-acquired pneumonia"


@pytest.mark.parametrize("args, words", [
    (["--memory", "both"], ["--memory", "--task agenthospital"]),
    (["--task", "nope"], ["--task", "unknown task 'nope'", "agenthospital"]),
    (["--task", "agenthospital"], ["no generated Agent Hospital test patients",
                                   "bedside agenthospital generate"]),
    (["--task", "interactive,agenthospital"], ["--task", "one task per run"]),
    (["--task", "agenthospital", "--doctor", "openai/x", "--one-step"],
     ["--one-step", "interactive consultation"]),
])
def test_task_options_fail_in_one_line(tmp_path: Path, capsys, args: list[str],
                                       words: list[str]) -> None:
    assert main(["run", "--db", str(tmp_path / "e.db"), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    for word in words:
        assert word in err


def test_the_examination_is_named_once_when_the_examiner_names_it() -> None:
    """Through the engine the examiner's reply is 'Chest CT: …', and the hospital screen (and
    a model doctor's prompt) read 'Examination: Chest CT: Chest CT: …' under tmux."""
    from core.agenthospital.tasks import Encounter, Question

    enc = Encounter(case_id="c", who="70-year-old woman", account="I cough.", findings={})
    named = Question("diagnosis", enc, ("A", "B"), examination="Chest CT",
                     finding="Chest CT: 5.5 cm mass")
    assert "Examination: Chest CT: 5.5 cm mass" in named.context()
    assert "Chest CT: Chest CT" not in named.context()
    bare = Question("diagnosis", enc, ("A", "B"), examination="Chest CT", finding="a mass")
    assert "Examination: Chest CT: a mass" in bare.context()
