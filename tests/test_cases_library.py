"""The bundled library: every file loads, and the library meets its coverage targets."""

from __future__ import annotations

from collections import Counter

from core.caseio import bundled_cases_dir, iter_case_files, load_case_file, load_bundled_cases


def test_every_bundled_file_loads() -> None:
    files = list(iter_case_files(bundled_cases_dir()))
    assert len(files) >= 30
    ids = [load_case_file(p).id for p in files]
    assert len(ids) == len(set(ids))


def test_library_coverage() -> None:
    cases = load_bundled_cases()
    specialties = Counter(c.specialty for c in cases)
    languages = Counter(c.language for c in cases)
    assert len(cases) >= 30
    assert len(specialties) >= 6
    assert len(languages) >= 4 and sum(n for lang, n in languages.items() if lang != "en") >= 3
    pathway = [c for c in cases if c.expected_inquiry_order and c.expected_rounds
               and any(i.weight for _, _, i in c.findings())]
    assert len(pathway) >= 5


def test_cases_are_self_consistent() -> None:
    for case in load_bundled_cases():
        assert case.source == "bedside" and case.licence
        assert case.patient.symptoms(), case.id
        assert case.tests, case.id
        assert case.truth.diagnosis.lower() not in case.title.lower(), case.id
        assert case.truth.diagnosis.lower() not in case.objective.lower(), case.id
        names = {i.name for _, _, i in case.findings()}
        for step in case.expected_inquiry_order:
            if step.category in ("exam", "test") and step.name:
                assert step.name in names, (case.id, step.name)
