"""`bedside fidelity` on imported AgentClinic MedQA cases (the real samples in the peers
folder): the cases imported with `bedside cases import`, our MedQA probe files replayed
through the real offline agents (`bedside run --doctor replay:FILE`), and the report held
to the targets: 0 leaks, ≥ 95 % record-consistent patient answers, ≥ 99 % examiner
accuracy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.importer_support import real_samples
from tests.test_fidelity_report import assert_targets, cli_json, write_replay
from tui.cli import main

PROBES = Path(__file__).parent / "probes"


def test_the_medqa_probes_replayed_on_imported_cases_meet_the_targets(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    samples = real_samples()
    db = str(tmp_path / "x.db")
    assert main(["cases", "import", "agentclinic", str(samples.path(samples.medqa)),
                 "--db", db]) == 0
    capsys.readouterr()
    replay = write_replay(tmp_path / "medqa.jsonl", sorted(PROBES.glob("medqa*.jsonl")))
    cases = [json.loads(line)["case"] for line in replay.read_text().splitlines()]
    run = cli_json(capsys, "run", "--db", db, "--doctor", f"replay:{replay}", "--cases",
                   ",".join(cases), "--json")["run_id"]
    report = cli_json(capsys, "fidelity", "--db", db, "--run", run, "--json")
    (info,) = report["runs"]
    assert info["checked"] == info["consultations"] == len(cases) == 5
    assert_targets(report, patient_answers=70, examiner_answers=40)
