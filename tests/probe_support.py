"""Shared helpers for the probe-suite tests (tests/test_probe_suite.py and
tests/peers/test_medqa_probes.py): the real offline agents, built from the role views as
core/agents/factory.py builds them, and one assertion of the targets."""

from __future__ import annotations

import asyncio
from pathlib import Path

from core.agents.base import Examiner, Patient
from core.agents.retrieval_examiner import RetrievalExaminer
from core.agents.retrieval_patient import RetrievalPatient
from core.case import Case
from core.fidelity.probes import Probe, load_probes, missing_items
from core.fidelity.suite import ProbeResult, SuiteFigures, run_suite
from core.views import examiner_view, patient_view

PATIENT_TARGET = 0.95  # share of patient answers with the expected property (issue 19)
EXAMINER_TARGET = 0.99  # share of examiner answers with the expected property


def offline_agents(case: Case, strict: bool) -> tuple[Patient, Examiner]:
    """The retrieval patient and examiner, each from its own view of the case."""
    return (RetrievalPatient(patient_view(case)),
            RetrievalExaminer(examiner_view(case), strict_unknown=strict))


def run(path: Path, cases: dict[str, Case]) -> tuple[list[Probe], list[ProbeResult],
                                                     SuiteFigures]:
    """Load a probe file, check it names real cases and items, and ask every probe."""
    probes = load_probes(path)
    assert {p.case for p in probes} <= set(cases), "probes name cases that are not loaded"
    typos = {p.id: missing_items(p, cases[p.case]) for p in probes}
    assert not {k: v for k, v in typos.items() if v}, "probe items the cases do not hold"
    results, figures = asyncio.run(run_suite(probes, cases, offline_agents))
    return probes, results, figures


def assert_targets(results: list[ProbeResult], figures: SuiteFigures) -> None:
    """0 leaks, and the patient and examiner shares at or above their targets; the wrong
    answers are listed in the failure message."""
    wrong = [f"{r.probe.id} {r.probe.say!r} -> {r.answer[:120]!r} ({r.reason})"
             for r in results if not r.ok]
    leaks = [r.probe.id for r in results if r.finding.outcome("leak") == "fail"]
    assert leaks == []
    for role, target in (("patient", PATIENT_TARGET), ("examiner", EXAMINER_TARGET)):
        rate = figures.roles[role].rate
        assert rate is not None and rate >= target, (role, rate, wrong)
    for check in figures.checks:  # the label-free checks agree where they decide
        name = "consistent" if check.role == "patient" else "accuracy"
        rate = check.rate(name)
        assert rate is not None and rate >= PATIENT_TARGET, (check.role, name, rate)
