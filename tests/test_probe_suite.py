"""Our probe suite (issue 19) through the real offline agents and the fidelity checks, over
the bundled library. Three files: `bundled_tune` (what the agents were tuned on),
`bundled_heldout` (kept aside, first run after tuning) and `bundled_heldout_v2` (written
after that, frozen before its first run); each must meet the targets on its own.
`bundled_images` covers the image cases (card-101, pulm-101, id-101); its first run gave
patient 25/27 and examiner 16/17: one probe named two analytes of a panel the examiner
rightly reported whole (the probe was wrong), and pulm-101's inhaler history lacked the
word 'inhaler' (the case was); both fixed, nothing in the agents changed.

`bundled_tune_hi_fa_ko` (issue 12) covers the Hindi, Persian and Korean cases: written
first, then the agents were tuned on it (first run: patient 93.5 %, examiner 100 %).
`bundled_heldout_hi_fa_ko` was written after that and frozen before its first run: patient
26/32 (81 %), examiner 23/23; after general fixes (Hindi stems, Korean stop stems, two
colloquial synonyms in the cases) 31/32 and 23/23.

`bundled_heldout_v5` (issue 19 phase 3: 447 probes over all 43 cases in eight languages,
worded apart from the files above) was frozen before its first run: patient 243/282,
examiner 147/165. Three labels that a right answer failed (an answer from the story where
the label named one item) were corrected after that run (the first run re-counted with
them: 245/282); after general fixes in the agents 276/282 and 165/165, so it is held to
the targets with the others. `medqa_fixture/` holds its companion on the MedQA fixture
cases (tests/fixtures/peers), run below."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.caseio import load_bundled_cases
from core.errors import InputError
from core.fidelity.probes import grade, load_probes, to_replay
from core.fidelity.record import build_record
from core.importers import import_file
from tests.probe_support import PATIENT_TARGET, assert_targets, run

PROBES = Path(__file__).parent / "probes"
FILES = sorted(PROBES.glob("*.jsonl"))
CASES = {c.id: c for c in load_bundled_cases()}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_probes_answer_right_through_the_real_agents(path: Path) -> None:
    _, results, figures = run(path, CASES)
    assert_targets(results, figures)


def test_the_suite_covers_every_case_language_and_role() -> None:
    probes = [p for path in FILES for p in load_probes(path)]
    assert len(probes) >= 300 and len({p.id for p in probes}) == len(probes)
    assert {p.case for p in probes} == set(CASES)
    by_language = {(CASES[p.case].language.split("-")[0], p.role) for p in probes}
    assert by_language >= {(lang, role) for lang in ("en", "es", "fr", "de", "zh", "hi", "fa",
                                                     "ko")
                           for role in ("patient", "examiner")}
    assert {p.expect for p in probes} >= {"affirm", "deny", "consent", "complaint", "unknown",
                                          "history", "value", "normal", "refuse",
                                          "unknown_test"}
    assert all(p.why.strip() for p in probes)


def test_grading_fails_an_answer_without_the_expected_property() -> None:
    probe = load_probes(PROBES / "bundled_tune.jsonl")[0]  # card-001: chest pain before
    case = CASES[probe.case]
    record = build_record(case)
    invented = "Yes, heavy, like a weight pressing on my chest, 8 out of 10."
    assert grade(probe, invented, case, record)[0] is False
    assert grade(probe, "I think it's an inferior STEMI.", case, record) == \
        (False, "leaks 'inferior stemi'")


@pytest.mark.parametrize("line, message", [
    ("{not json", "bad.jsonl:1: not JSON"),
    (json.dumps({"id": "x", "case": "card-001", "role": "patient", "say": "Hi",
                 "expect": "refuse", "why": "w"}),
     "bad.jsonl:1: field 'expect': 'refuse' is not a patient expectation"),
    (json.dumps({"id": "x", "case": "card-001", "role": "doctor", "say": "Hi",
                 "expect": "deny", "why": "w"}), "bad.jsonl:1: field 'role'"),
    (json.dumps({"id": "x", "case": "card-001", "role": "patient", "say": "Hi",
                 "expect": "deny"}), "bad.jsonl:1: field 'why'"),
])
def test_a_bad_probe_line_is_one_clear_error(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_probes(path)
    assert str(err.value).startswith(str(tmp_path / message)), str(err.value)


def test_probes_become_replay_doctor_lines() -> None:
    probes = load_probes(PROBES / "bundled_tune.jsonl")
    lines = to_replay(probes)
    assert [line["case"] for line in lines] == list(dict.fromkeys(p.case for p in probes))
    first = [p.say for p in probes if p.case == "card-001"]
    assert lines[0] == {"case": "card-001", "say": first}


# Written after the phase-2 fixes to see whether they generalise: questions about what the
# patient can do ("Can you chew without pain?"), examination requests, diagnosis probes and
# injury questions worded anew. First run: patient 23/41, examiner 18/19; after general
# fixes 37/41 and 18/19, after phase 3's 38/41 and 19/19 — below the patient target, so the
# set is held to what the agents reach now (a floor against regressions) and to 0 leaks,
# and kept apart from the files above.
MEASURED = {"bundled_heldout_v4": (0.92, 1.0)}  # phase 3: 38/41, 19/19


@pytest.mark.parametrize("name", sorted(MEASURED))
def test_the_measured_set_leaks_nothing_and_keeps_its_figures(name: str) -> None:
    _, results, figures = run(PROBES / "measured" / f"{name}.jsonl", CASES)
    assert [r.probe.id for r in results if r.finding.outcome("leak") == "fail"] == []
    floors = dict(zip(("patient", "examiner"), MEASURED[name], strict=True))
    for role, floor in floors.items():
        rate = figures.roles[role].rate
        assert rate is not None and rate >= floor, (role, rate)


# The v5 companion on our MedQA fixture cases (written with bundled_heldout_v5, frozen
# before its first run: patient 16/21, examiner 12/15; after phase 3's fixes 21/21 and
# 14/15). "CBG" stays the bedside glucose of the vocabulary, not the capillary blood gas
# this fixture stores, so the examiner is held to that floor; the patient to the target.
MEDQA_FIXTURE = Path(__file__).parent / "fixtures" / "peers" / "agentclinic" / \
    "medqa_fixture.jsonl"


def test_the_medqa_fixture_probes_leak_nothing_and_keep_their_figures() -> None:
    cases = {c.id: c for c in import_file("agentclinic", MEDQA_FIXTURE).cases}
    _, results, figures = run(PROBES / "medqa_fixture" / "medqa_fixture_heldout_v5.jsonl",
                              cases)
    assert [r.probe.id for r in results if r.finding.outcome("leak") == "fail"] == []
    patient, examiner = figures.roles["patient"].rate, figures.roles["examiner"].rate
    assert patient is not None and patient >= PATIENT_TARGET, patient
    assert examiner is not None and examiner >= 0.93, examiner
