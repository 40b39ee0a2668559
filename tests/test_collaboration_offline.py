"""The offline collaboration: scripted doctors of different styles (seeds) that disagree
sometimes, the rule host whose disputed points are the differing diagnosis entities, the
scripted doctor's revision rule, and `bedside run --collaborate …` through the command
line with its rows in `bedside results`."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from core.agents.base import DoctorState
from core.agents.host import RuleHost, TeamReport, disputed_points
from core.agents.scripted_doctor import ScriptedDoctor
from core.caseio import load_bundled_cases
from core.config import ConsultationConfig, parse_agent
from core.engine import run_consultation
from core.errors import InputError
from core.events import ListSink
from core.views import doctor_view
from tui.cli import main

CASES = {c.id: c for c in load_bundled_cases()}


def _questions(doctor: ScriptedDoctor) -> list[str]:
    plan = doctor._plan("")
    return [p for p in plan if not p.startswith("REQUEST TEST")]


def test_seed_zero_is_the_reference_and_other_seeds_are_other_styles() -> None:
    view = doctor_view(CASES["card-003"])
    reference, other = ScriptedDoctor(view, 0), ScriptedDoctor(view, 2)
    assert len(_questions(reference)) == 8  # every history question, in the table's order
    assert 6 <= len(_questions(other)) < 8
    assert reference.label == "scripted" and other.label == "scripted:seed=2"
    # The same seed is the same doctor: its transcript is fixed.
    again = ScriptedDoctor(view, 2)
    state = DoctorState(turns=[], doctor_turn=1, max_turns=20)
    assert asyncio.run(other.act(state, print)).text == asyncio.run(again.act(state, print)).text


def test_two_seeds_disagree_on_a_case() -> None:
    async def diagnosis(seed: int) -> str | None:
        t = await run_consultation(CASES["card-003"], ConsultationConfig(seed=seed), ListSink(),
                                   consultation_id="c")
        return t.diagnosis

    assert asyncio.run(diagnosis(0)) == "Pulmonary embolism"
    assert asyncio.run(diagnosis(2)) == "ST-elevation myocardial infarction"


def test_scripted_seed_is_an_agent_of_its_own() -> None:
    spec = parse_agent("scripted:seed=2", "doctor")
    assert (spec.kind, spec.seed, spec.display()) == ("scripted", 2, "scripted:seed=2")
    for bad in ("scripted:seed=x", "scripted:colour=2"):
        with pytest.raises(InputError, match="scripted:seed=N"):
            parse_agent(bad, "doctor")
    with pytest.raises(InputError, match="cannot play the patient"):
        parse_agent("scripted:seed=2", "patient")


def test_the_scripted_doctor_concedes_more_as_rounds_pass() -> None:
    doctor = ScriptedDoctor(doctor_view(CASES["card-003"]), 0)
    heard = "breathless, calf swelling after a long flight; pleuritic chest pain"
    mine, theirs = (doctor.score(d, heard) for d in ("Pulmonary embolism",
                                                     "ST-elevation myocardial infarction"))
    assert mine is not None and theirs is not None and theirs < mine
    kept, why = doctor.revise("Pulmonary embolism", ["ST-elevation myocardial infarction"],
                              heard, 1)
    assert kept == "Pulmonary embolism" and why.startswith("I keep my diagnosis")
    taken, why = doctor.revise("Pulmonary embolism", ["ST-elevation myocardial infarction"],
                               heard, 4)
    assert taken == "ST-elevation myocardial infarction" and why.startswith("I take up")
    # A diagnosis it cannot weigh (not in its table) is never taken up.
    assert doctor.revise("Pulmonary embolism", ["Sarcoidosis"], heard, 4)[0] == \
        "Pulmonary embolism"


def test_the_rule_host_disputes_the_differing_entities_only() -> None:
    same = [TeamReport("A", "Inferior STEMI"),
            TeamReport("B", "inferior ST-elevation myocardial infarction")]
    assert disputed_points(same) == []
    differ = [TeamReport("A", "Pulmonary embolism"), TeamReport("B", "Pneumonia; sepsis"),
              TeamReport("C", None), TeamReport("D", "pulmonary embolism")]
    points = disputed_points(differ)
    assert points[0] == "Doctor C gives no diagnosis."
    assert "Pulmonary embolism: held by Doctor A and Doctor D, not by Doctor B and Doctor C." \
        in points
    reading = asyncio.run(RuleHost().assess(differ, True, print))
    assert reading.meta["consensus"] is False and len(reading.meta["points"]) == 3
    assert reading.text.count("\n(") == 3  # at most three points, as AI Hospital's host
    quiet = asyncio.run(RuleHost().assess(differ, False, print))
    assert quiet.meta["points"] == [] and quiet.text == "The doctors do not agree yet."
    final = asyncio.run(RuleHost().conclude(differ, print))
    assert final.report is not None and final.report.diagnostic_results == "Pulmonary embolism"
    assert "Doctor A and Doctor D (2 of 4 doctors)" in (final.report.rationale or "")


def test_offline_collaboration_through_the_command_line(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "o.db")
    assert main(["run", "--db", db, "--collaborate", "scripted,scripted:seed=2",
                 "--cases", "card-00*", "--json"]) == 0
    capsys.readouterr()
    assert main(["results", "--db", db, "--json"]) == 0
    rows = {r["doctor"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) == {"scripted", "scripted:seed=2", "scripted + scripted:seed=2"}
    joint = rows["scripted + scripted:seed=2"]
    assert (joint["mode"], joint["n"], joint["doctor_kind"]) == ("collaborate", 3, "team")
    # card-003: A says pulmonary embolism, B a STEMI; B takes up A's in round 1.
    assert joint["rounds_to_consensus"] == "0:2 1:1" and joint["consensus"] == 1.0
    assert rows["scripted"]["n"] == rows["scripted:seed=2"]["n"] == 3
    assert rows["scripted"]["rounds"] is None
    assert main(["results", "--db", db]) == 0
    text = capsys.readouterr().out
    assert "-- collaboration --" in text and "0:2 1:1" in text
    assert main(["run", "--db", db, "--rounds", "2"]) == 2
    assert "--rounds" in capsys.readouterr().err
    assert main(["transcripts", "export", "--db", db, "--format", "jsonl"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    (joint3,) = [r for r in records if "collaboration" in r and r["case_id"] == "card-003"]
    assert joint3["collaboration"]["consensus_round"] == 1
    assert [t["speaker"] for t in joint3["turns"]][:3] == ["Doctor A", "Doctor B", "Host"]


def test_the_scripted_report_reads_as_its_five_parts() -> None:
    from core.agents.llm_agents import parse_report

    t = asyncio.run(run_consultation(CASES["card-003"], ConsultationConfig(final_report=True),
                                     ListSink(), consultation_id="c"))
    turn = t.turns[-1]
    assert turn.kind == "report" and turn.content.startswith("Symptoms: ")
    assert "\\n" not in turn.content and "{" not in turn.content  # no JSON
    assert t.report is not None
    assert parse_report(turn.content).diagnostic_results == t.report.diagnostic_results


def test_the_joint_result_is_graded_and_its_doctors_rated_by_their_patients(
        tmp_path: Path) -> None:
    from core.metrics.llmcall import JudgeInfo
    from core.metrics.names import JOINT_NO_PATIENT
    from core.usecases.scoring import compute_llm
    from db.store import open_store

    db = tmp_path / "g.db"
    assert main(["run", "--db", str(db), "--collaborate", "scripted,scripted:seed=2",
                 "--cases", "card-003", "--json"]) == 0
    store = open_store(db)
    asked: list[str] = []

    async def judge(messages: list[dict[str, str]]) -> str:
        return ('{"symptoms": "A", "examinations": "B", "diagnostic_results": "C", '
                '"rationale": "B", "treatment_plan": "D"}')

    async def patient(messages: list[dict[str, str]]) -> str:
        asked.append(messages[-1]["content"])
        return '{"confidence": 6, "compliance": 7, "consult_again": 5}'

    summary = asyncio.run(compute_llm(store, judge=judge, judge_info=JudgeInfo("j"),
                                      patient=patient, patient_info=JudgeInfo("p")))
    assert summary.failures == []
    by_origin = {c.origin: store.get_metrics(c.id) for c in store.list_consultations()}
    joint = by_origin["collaborate"]
    assert joint["report_score"][0] is not None
    assert joint["pr_confidence"] == (None, {"reason": JOINT_NO_PATIENT})
    assert by_origin["collaborator"]["pr_confidence"][0] == 6.0
    assert len(asked) == 2  # the two doctors' own consultations, never the conference


@pytest.mark.parametrize("argv, expected", [
    (["--collaborate", "scripted,scripted:seed=2", "--no-dispute-resolution", "--intent-end"],
     [("no", "yes", "4")]),
    (["--collaborate", "scripted+scripted:seed=2", "--dispute-resolution", "yes,no",
      "--intent-end", "no", "--rounds", "2"], [("yes", "no", "2"), ("no", "no", "2")]),
])
def test_the_flags_give_the_factors_values(argv: list[str], expected: list[tuple[str, ...]]
                                           ) -> None:
    from core.factors import read_value
    from core.usecases.plans import build_plan
    from tui.cli import build_parser
    from tui.cli.run import _given

    configs = build_plan(_given(build_parser().parse_args(["run", *argv]))).configs
    got = [tuple(read_value(k, c.describe()) for k in ("dispute_resolution", "intent_end",
                                                       "rounds")) for c in configs]
    assert got == expected
    assert {read_value("collaborate", c.describe()) for c in configs} == \
        {"scripted + scripted:seed=2"}
