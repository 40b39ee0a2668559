"""`bedside cases import aihospital-collaboration`: AI Hospital's released collaboration
outputs as joint results linked to the doctors' imported dialogues, scored beside them
(our own fixture in the released format: tests/fixtures/peers/ai_hospital/collaboration)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.collaboration import summary_of
from core.errors import InputError
from core.usecases.importing import import_peer_file
from core.usecases.results import results_table
from core.usecases.scoring import compute_offline
from db.store import open_store
from tui.cli import main

PEERS = Path(__file__).resolve().parent / "fixtures" / "peers" / "ai_hospital"
COLLAB = PEERS / "collaboration"
RESULTS = COLLAB / "doctors_2_agent_gpt3_gpt4_parallel_with_critique_discussion_history.jsonl"


def _joint(store, patient: int):  # noqa: ANN001, ANN202 - a test helper
    (row,) = [c for c in store.list_consultations() if c.case_id == f"aihospital-{patient}"
              and c.origin == "import:aihospital-collaboration"]
    return row


@pytest.fixture
def store(tmp_path: Path):  # noqa: ANN201 - the store type is the SQLite one
    s = open_store(tmp_path / "i.db")
    s.path = tmp_path / "i.db"  # for the command-line tests
    import_peer_file(s, "aihospital", PEERS / "patients_zh_fixture.json")
    for name in ("dialog_history_gpt4.jsonl", "dialog_history_gpt3.jsonl"):
        import_peer_file(s, "aihospital-dialog", COLLAB / name)
    return s


def test_joint_results_are_linked_to_the_doctors_dialogues(store) -> None:  # noqa: ANN001
    done = import_peer_file(store, "aihospital-collaboration", RESULTS)
    assert (done.transcripts, done.added, done.skipped) == (3, 3, 0)
    # Patient 3105 has no dialogue here: both doctors unlinked, each said once.
    assert len(done.warnings) == 2 and all(":3: Doctor" in w for w in done.warnings)
    joint = _joint(store, 2107)
    summary = summary_of(joint.meta)
    assert summary is not None
    assert (summary.rounds, summary.consensus, summary.consensus_round) == (1, True, 1)
    assert summary.dispute_resolution is True  # "with_critique" in the file name
    assert [m.doctor for m in summary.doctors] == ["gpt-4", "gpt-3.5-turbo-16k"]
    own = {m.label: store.get_consultation(str(m.consultation_id)) for m in summary.doctors}
    assert own["A"].doctor == "gpt-4"
    # The released gpt-3.5 dialogues name no engine: linked by their file.
    assert own["B"].doctor == "Agent.Doctor.GPT" and own["B"].diagnosis == "急性支气管炎"
    t = store.get_transcript(joint.id)
    assert [(str(x.role), x.kind, x.meta.get("collaborator")) for x in t.turns] == [
        ("doctor", "initial", "A"), ("doctor", "initial", "B"), ("host", "summary", None),
        ("host", "final", None)]
    assert "急性支气管炎" in t.turns[1].content and t.turns[1].meta["consultation_id"] == own["B"].id
    assert joint.doctor == "gpt-4 + gpt-3.5-turbo-16k"
    assert joint.report is not None and "头孢曲松" in (joint.report.treatment_plan or "")
    unsaid = summary_of(_joint(store, 3105).meta)
    assert unsaid is not None and (unsaid.rounds, unsaid.consensus) == (4, None)
    assert [m.consultation_id for m in unsaid.doctors] == [None, None]


def test_they_are_scored_beside_each_doctors_own(store) -> None:  # noqa: ANN001
    import_peer_file(store, "aihospital-collaboration", RESULTS)
    compute_offline(store)
    rows = {r["doctor"]: r for r in results_table(store)}
    joint = rows["gpt-4 + gpt-3.5-turbo-16k"]
    assert (joint["mode"], joint["n"], joint["no_case_record"]) == ("collaborate", 2, 1)
    assert joint["accuracy"] == 1.0 and joint["rounds_to_consensus"] == "0:1 1:1"
    assert rows["Agent.Doctor.GPT"]["accuracy"] == 0.0 and rows["gpt-4"]["accuracy"] == 1.0


def test_importing_the_dialogues_later_links_them_on_a_second_import(store) -> None:  # noqa: ANN001
    import_peer_file(store, "aihospital-collaboration", RESULTS)
    import_peer_file(store, "aihospital-dialog", PEERS / "dialog_history_fixture.jsonl")
    again = import_peer_file(store, "aihospital-collaboration", RESULTS)
    assert (again.added, again.skipped, again.relinked) == (0, 2, 1)
    summary = summary_of(_joint(store, 3105).meta)
    assert summary is not None
    # No dialogue file of that name, but one gpt-4 dialogue of the patient: by its engine.
    linked = store.get_consultation(str(summary.doctors[0].consultation_id))
    assert linked.doctor == "gpt-4" and summary.doctors[1].consultation_id is None
    kinds = [x.kind for x in store.get_transcript(_joint(store, 3105).id).turns]
    assert kinds == ["initial", "summary", "final"]


@pytest.mark.parametrize("change, field", [
    ({"final_turn": "two"}, "final_turn"), ({"doctor_engine_names": []}, "doctor_engine_names"),
    ({"diagnosis": ""}, "diagnosis"), ({"doctor_ids": ["a.jsonl"]}, "doctor_ids"),
])
def test_a_bad_line_is_one_error_naming_file_line_and_field(
        tmp_path: Path, capsys, change: dict[str, object], field: str) -> None:
    lines = RESULTS.read_text(encoding="utf-8").splitlines()
    bad = {**json.loads(lines[1]), **change}
    path = tmp_path / "out.jsonl"
    path.write_text("\n".join([lines[0], json.dumps(bad, ensure_ascii=False)]) + "\n",
                    encoding="utf-8")
    db = tmp_path / "b.db"
    assert main(["cases", "import", "aihospital-collaboration", str(path), "--db",
                 str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}:2" in err and field in err
    with pytest.raises(InputError):
        import_peer_file(open_store(db), "aihospital-collaboration", path)


def test_a_joint_result_is_one_line_of_the_per_consultation_table(store, capsys) -> None:  # noqa: ANN001
    import_peer_file(store, "aihospital-collaboration", RESULTS)
    assert main(["results", "--per-consultation", "--db", str(store.path)]) == 0
    out = capsys.readouterr().out.split("-- metrics --")[0]
    joint = [line for line in out.splitlines() if "gpt-4 + gpt-3.5-turbo-16k" in line]
    # Its diagnosis is two numbered lines in the file: one row, the lines joined.
    assert len(joint) == 3 and any("(1) 社区获得性肺炎（右下肺） (2) 2" in line for line in joint)
