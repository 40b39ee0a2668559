"""Collaborating doctors (AI Hospital's dispute resolution) through the real engine, a real
SQLite store and litellm against the local OpenAI-compatible server: three model doctors,
a model host, each doctor's own consultation linked and scored, every round stored, the
host's points in every doctor's request of every round, consensus ending it before M, and
the same run without dispute resolution differing only where it should."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from core.caseio import load_bundled_cases
from core.collaboration import summary_of
from core.llm import LLMClient
from core.usecases import runs
from core.usecases.plans import build_plan
from core.usecases.results import results_table, summarise
from db.store import open_store
from tests.fake_openai_server import FakeOpenAIServer, detect_role

CASE = next(c for c in load_bundled_cases() if c.id == "card-001")
#: Each doctor model's own diagnosis (B disagrees until the host's second reading).
OWN = {"doc-a": "Inferior STEMI", "doc-b": "Acute pericarditis", "doc-c": "Inferior STEMI"}


def _report(diagnosis: str) -> str:
    return (f"Symptoms: crushing chest pain\nExaminations: ECG\nDiagnostic results: "
            f"{diagnosis}\nDiagnostic rationale: ST changes\nTreatment plan: per guideline")


def _text(body: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content", "")) for m in body.get("messages", []))


def _doctor(body: dict[str, Any], n: int) -> str:
    return f"DIAGNOSIS READY: {OWN[body['model']]}"


def _report_reply(body: dict[str, Any], n: int) -> str:
    return _report(OWN[body["model"]])


def _host_assess(body: dict[str, Any], n: int) -> str:
    """Agreement when every report names the STEMI; else points numbered by the reading
    (each revision's rationale says 'I kept my view': three a round)."""
    text = _text(body)
    if "Acute pericarditis" not in text:
        return "CONSENSUS: yes"
    reading = text.count("I kept my view") // 3
    return (f"CONSENSUS: no\nSummary: Doctor B differs.\nDisputed points:\n"
            f"(a) Point-{reading}-a: STEMI or pericarditis?\n(b) Point-{reading}-b: the ECG")


def _revision(body: dict[str, Any], n: int) -> str:
    """A and C keep the STEMI; B keeps pericarditis until it reads the host's second
    points (Point-1-…), then takes up the STEMI."""
    text = _text(body)
    if body["model"] == "doc-b" and "Point-1-" not in text:
        return _report("Acute pericarditis").replace("ST changes", "I kept my view")
    return _report("Inferior STEMI").replace("ST changes", "I kept my view")


REPLIES = {"doctor": _doctor, "report": _report_reply, "host-assess": _host_assess,
           "host-agree": lambda body, n: ("CONSENSUS: yes" if "Acute pericarditis"
                                          not in _text(body) else "CONSENSUS: no"),
           "host-final": _report("Inferior STEMI"), "revision": _revision,
           "revision-plain": _revision}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Any, list[dict[str, Any]]]:
    """One run, two arms: with and without dispute resolution (M = 3)."""
    db = tmp_path_factory.mktemp("collab") / "c.db"
    with FakeOpenAIServer(replies=REPLIES) as server:
        plan = build_plan({"collaborate": ["openai/doc-a,openai/doc-b,openai/doc-c"],
                           "host": ["openai/host"], "dispute_resolution": ["yes,no"],
                           "rounds": ["3"], "max_turns": ["3"], "api_base": server.base_url})
        store = open_store(db)
        spec = runs.create(store, [CASE], plan.configs, concurrency=2)
        outcomes = asyncio.run(runs.execute(store, spec, llm=LLMClient(stream=False)))
        requests = list(server.requests)
    assert {o.status for o in outcomes} == {"finished"}
    return store, spec, requests


def _joint(store: Any, dispute_resolution: bool) -> Any:
    rows = [c for c in store.list_consultations() if c.origin == "collaborate"]
    (row,) = [c for c in rows if (c.config.get("solver_options") or {})
              .get("dispute_resolution", True) is dispute_resolution]
    return row


def test_every_round_and_every_doctors_own_consultation_is_stored(played: Any) -> None:
    store, spec, _ = played
    joint = _joint(store, True)
    t = store.get_transcript(joint.id)
    kinds = [(str(x.role), x.kind, x.meta.get("collaborator"), x.meta.get("round"))
             for x in t.turns]
    assert kinds == [
        ("doctor", "initial", "A", 0), ("doctor", "initial", "B", 0), ("doctor", "initial", "C", 0),
        ("host", "assessment", None, 0),
        ("doctor", "revision", "A", 1), ("doctor", "revision", "B", 1),
        ("doctor", "revision", "C", 1), ("host", "assessment", None, 1),
        ("doctor", "revision", "A", 2), ("doctor", "revision", "B", 2),
        ("doctor", "revision", "C", 2), ("host", "assessment", None, 2),
        ("host", "final", None, None)]
    points = [x.meta["points"] for x in t.turns if x.kind == "assessment"]
    assert points[0] == ["Point-0-a: STEMI or pericarditis?", "Point-0-b: the ECG"]
    assert points[2] == [] and t.turns[-2].meta["consensus"] is True
    # Consensus after round 2 of at most 3: it ended early; the joint answer is judged.
    summary = summary_of(joint.meta)
    assert summary is not None and (summary.rounds, summary.consensus_round,
                                    summary.max_rounds) == (2, 2, 3)
    assert joint.diagnosis == "Inferior STEMI" and joint.correct is True
    # Each doctor's own consultation: stored, finished, judged, linked by id and key.
    members = {m.label: store.get_consultation(str(m.consultation_id))
               for m in summary.doctors}
    assert [m.doctor for m in summary.doctors] == ["openai/doc-a", "openai/doc-b",
                                                   "openai/doc-c"]
    for label, row in members.items():
        assert row.origin == "collaborator" and row.status == "finished"
        assert row.config_key == f"{joint.config_key}~{label}" and row.run_id == spec.run_id
        assert row.report is not None  # each ends with its report
    assert members["B"].diagnosis == "Acute pericarditis" and members["B"].correct is False
    initial_b = t.turns[1]
    assert initial_b.meta["consultation_id"] == summary.doctors[1].consultation_id
    assert "Acute pericarditis" in initial_b.content


def test_the_hosts_points_reach_every_doctor_in_every_round(played: Any) -> None:
    store, _, requests = played
    revisions = [b for b in requests if detect_role(b) == "revision"]
    assert len(revisions) == 6  # three doctors, two rounds
    by_round: dict[int, set[str]] = {}
    for body in revisions:
        found = re.findall(r"Point-(\d)-a", _text(body))
        assert len(found) == 1, "each request carries that round's points only"
        by_round.setdefault(int(found[0]), set()).add(body["model"])
    assert by_round == {0: {"doc-a", "doc-b", "doc-c"}, 1: {"doc-a", "doc-b", "doc-c"}}
    # The doctors are Doctor A/B/C to each other and to the host, never their models.
    conference = [b for b in requests if detect_role(b).startswith(("host", "revision"))]
    assert conference and not any("doc-" in _text(b) for b in conference)


def test_without_dispute_resolution_only_the_host_and_revisions_differ(played: Any) -> None:
    store, _, requests = played
    with_dr, without = (store.get_transcript(_joint(store, v).id) for v in (True, False))
    plain = [b for b in requests if detect_role(b) == "revision-plain"]
    # No points anywhere: B never hears them, keeps its view, and M rounds pass.
    assert plain and not any("Point-" in _text(b) or "Disputed" in _text(b) for b in plain)
    assert [x.kind for x in without.turns].count("revision") == 9
    assessments = [x for x in without.turns if x.kind == "assessment"]
    assert [x.meta["points"] for x in assessments] == [[], [], [], []]
    assert not any(x.meta["consensus"] for x in assessments)
    summary = summary_of(_joint(store, False).meta)
    assert summary is not None and (summary.consensus, summary.rounds) == (False, 3)
    # What came before the conference is the same in both arms.
    assert [x.content for x in with_dr.turns if x.kind == "initial"] == \
        [x.content for x in without.turns if x.kind == "initial"]
    own = {m.label: store.get_transcript(str(m.consultation_id)).turns
           for m in summary.doctors}
    other = summary_of(_joint(store, True).meta)
    assert other is not None
    for m in other.doctors:
        assert [x.content for x in store.get_transcript(str(m.consultation_id)).turns] == \
            [x.content for x in own[m.label]]


def test_results_show_the_joint_result_beside_each_doctors_own(played: Any) -> None:
    store, spec, _ = played
    summarise(store, spec.run_id)
    rows = {(r["doctor"], r["mode"], r["settings"]): r
            for r in results_table(store, run_id=spec.run_id)}
    joint = [r for k, r in rows.items() if k[1] == "collaborate"]
    assert len(joint) == 2
    assert {r["doctor"] for r in joint} == {"openai/doc-a + openai/doc-b + openai/doc-c"}
    with_dr = next(r for r in joint if "dispute resolution no" not in r["settings"])
    without = next(r for r in joint if "dispute resolution no" in r["settings"])
    assert with_dr["accuracy"] == 1.0 and with_dr["rounds_to_consensus"] == "2:1"
    assert (with_dr["rounds"], with_dr["consensus"]) == (2.0, 1.0)
    assert without["rounds_to_consensus"] == "none:1" and without["consensus"] == 0.0
    assert all(r["mean_turns"] is None for r in joint)  # their doctors' rows have turns
    own = {r["doctor"]: r for r in rows.values() if r["mode"] == "interactive"}
    assert set(own) == {"openai/doc-a", "openai/doc-b", "openai/doc-c"}
    assert own["openai/doc-b"]["accuracy"] == 0.0 and own["openai/doc-a"]["accuracy"] == 1.0
    assert own["openai/doc-a"]["n"] == 2  # its own consultation in each arm
    assert own["openai/doc-a"]["mean_turns"] == 1.0


def test_a_run_of_collaborations_plans_and_counts_every_consultation(played: Any) -> None:
    store, spec, _ = played
    run = store.get_run(spec.run_id)
    assert runs.planned_size(run) == 8  # two arms x (joint + three doctors' own)
    assert sum(store.run_status_counts(spec.run_id).values()) == 8


def test_a_doctors_failed_consultation_fails_the_collaboration(tmp_path: Path) -> None:
    with FakeOpenAIServer(replies={**REPLIES}, fault_rule=lambda body, n: "500"
                          if body.get("model") == "doc-b" else None) as server:
        plan = build_plan({"collaborate": ["openai/doc-a,openai/doc-b"], "retries": 0,
                           "max_turns": ["2"], "api_base": server.base_url})
        store = open_store(tmp_path / "f.db")
        spec = runs.create(store, [CASE], plan.configs, concurrency=1)
        (outcome,) = asyncio.run(runs.execute(store, spec, llm=LLMClient(stream=False)))
        assert outcome.status == "failed"
        assert "Doctor B's own consultation failed" in (outcome.reason or "")

        def rows() -> dict[str, Any]:
            return {c.config_key.rsplit("~", 1)[-1] if "~" in (c.config_key or "")
                    else "joint": c for c in store.list_consultations(run_id=spec.run_id)}

        first = rows()
        assert first["A"].status == "finished" and first["B"].status == "failed"
        assert first["joint"].status == "failed"
        # Resumed with the failures retried, the collaboration is played again whole.
        server.fault_rule = None
        again = runs.resume(store, spec.run_id)
        (redone,) = asyncio.run(runs.execute(store, again, retry_failed=True,
                                             llm=LLMClient(stream=False)))
    assert redone.status == "finished"
    now = rows()
    assert {k: r.status for k, r in now.items()} == {"joint": "finished", "A": "finished",
                                                    "B": "finished"}
    assert {r.id for r in now.values()}.isdisjoint(r.id for r in first.values())
    every = store.list_consultations(run_id=spec.run_id, include_superseded=True)
    assert sorted(c.status for c in every if c.id in {r.id for r in first.values()}) == \
        ["superseded"] * 3  # kept, never deleted
