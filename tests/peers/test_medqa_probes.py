"""Our probe suite over imported AgentClinic MedQA cases (the real samples in the peers
folder, read through tests/importer_support.py), through the real offline agents and the
fidelity checks: `medqa_tune` (tuned on), `medqa_heldout` (kept aside) and
`medqa_heldout_v2` (frozen before its first run), `medqa_heldout_v3` and `medqa_heldout_v5`
(phase 3, frozen before its first run: patient 12/26, examiner 17/21; one label a right
answer failed corrected after it; after the phase-3 fixes 25/26 and 21/21). The samples
hold five cases, so the files
are pooled for the targets (one answer is five points of a 19-probe file); each file must
still leak nothing. The default run may exclude this folder; CI runs it with the samples."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.case import Case
from core.fidelity.suite import figures
from core.importers import import_file
from tests.importer_support import real_samples
from tests.probe_support import assert_targets, run

PROBES = Path(__file__).parent / "probes"
FILES = sorted(PROBES.glob("medqa*.jsonl"))


@pytest.fixture(scope="module")
def medqa() -> dict[str, Case]:
    return {c.id: c for c in import_file("agentclinic", real_samples().path(real_samples().medqa)).cases}


def test_the_probes_answer_right_on_imported_medqa_cases(medqa: dict[str, Case]) -> None:
    results = []
    for path in FILES:
        probes, found, _ = run(path, medqa)
        assert {p.case for p in probes} == set(medqa), path.name  # every case probed
        assert [r.probe.id for r in found if r.finding.outcome("leak") == "fail"] == []
        results += found
    assert len(results) >= 100
    assert_targets(results, figures(results))
