"""The Agent Hospital knowledge base: the bundled one is complete and sound; a broken one
gives one line per problem naming the file, line and field; the case library ignores it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.agenthospital.kb import LEVELS, bundled_kb, bundled_kb_dir, check_kb, load_kb
from core.caseio import iter_case_files, load_bundled_cases
from core.errors import InputError
from tui.cli import main


def test_bundled_base_has_sixteen_examinations_eight_diseases_three_levels() -> None:
    kb = bundled_kb()
    assert len(kb.examinations) == 16 and len(set(kb.exam_names)) == 16
    assert len(kb.diseases) == 8 and len(set(kb.disease_names)) == 8
    exam_ids = {e.id for e in kb.examinations}
    for d in kb.diseases:
        assert set(d.severities) == set(LEVELS)
        for level in LEVELS:
            suitable = d.suitable_at(level)
            assert suitable and set(suitable) <= exam_ids
            assert d.level(level).treatment
            # Every level can show at least two symptoms (the generator needs them).
            assert sum(s.share(level) > 0 for s in d.symptoms) >= 2
        # A suitable examination shows something of this disease at every level: a
        # finding of its own, not the examination's normal text (else it decides nothing);
        # vital signs are the one template, their values drawn from each level's ranges.
        for exam in d.suitable:
            if "{" in kb.exam(exam).normal:
                continue
            assert all(d.finding(kb.exam(exam), lv) != kb.exam(exam).normal for lv in LEVELS), \
                (d.id, exam)


def test_the_case_library_leaves_the_knowledge_base_alone() -> None:
    # The base lives under cases/ but is not a case: walking the library (loading it, or
    # `bedside cases validate cases/`) never reads its files as cases.
    files = list(iter_case_files(bundled_kb_dir().parent))
    assert files and not any("agenthospital" in p.parts for p in files)
    assert not any(c.source == "agenthospital" for c in load_bundled_cases())


@pytest.fixture
def kb_copy(tmp_path: Path) -> Path:
    target = tmp_path / "kb"
    shutil.copytree(bundled_kb_dir(), target)
    return target


def _break(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_every_problem_names_file_line_and_field(kb_copy: Path) -> None:
    covid, flu = kb_copy / "diseases" / "covid19.yaml", kb_copy / "diseases" / "influenza.yaml"
    _break(covid, "suitable: [sars_pcr, ct]", "suitable: [sars_pcr, ctt]")
    _break(covid, "SARS-CoV-2 RNA detected (cycle threshold 23).",
           "SARS-CoV-2 RNA detected (cycle threshold {ct}).")
    _break(flu, "{id: headache, frequency: 0.7}", "{id: head_ache, frequency: 0.7}")
    _break(flu, "{id: runny_nose, frequency: 0.45}", "{id: runny_nose, frequency: 1.45}")
    kb, problems = check_kb(kb_copy)
    assert kb is None
    text = [str(p) for p in problems]
    assert any(f"covid19.yaml:{_line_of(covid, 'ctt]')}: field 'suitable.1': 'ctt' is not an "
               "examination id" in t for t in text), text
    assert any(f"covid19.yaml:{_line_of(covid, '{ct}')}: field 'findings.sars_pcr': unknown "
               "placeholder {ct}" in t for t in text), text
    assert any(f"influenza.yaml:{_line_of(flu, 'head_ache')}: field 'symptoms.4.id': 'head_ache' "
               "is not a shared symptom" in t for t in text), text
    assert len(problems) >= 3 and all("\n" not in t for t in text)
    with pytest.raises(InputError, match=r"covid19.yaml:\d+: field 'suitable.1'.*\(and \d+ more\)"):
        load_kb(kb_copy)


def test_a_frequency_out_of_range_and_a_missing_level_are_caught(kb_copy: Path) -> None:
    flu = kb_copy / "diseases" / "influenza.yaml"
    _break(flu, "{id: runny_nose, frequency: 0.45}", "{id: runny_nose, frequency: 1.45}")
    _break(flu, "  severe:\n", "  worst:\n")
    _, problems = check_kb(kb_copy)
    text = " | ".join(str(p) for p in problems)
    assert "influenza.yaml:" in text and "frequency" in text and "from 0 to 1" in text
    assert "severities.worst" in text


def test_yaml_syntax_error_is_one_line_with_its_line(kb_copy: Path) -> None:
    exams = kb_copy / "examinations.yaml"
    exams.write_text(exams.read_text() + "\n  - id: [broken\n", encoding="utf-8")
    _, problems = check_kb(kb_copy)
    assert len(problems) == 1 and "examinations.yaml:" in str(problems[0])
    assert "not valid YAML" in str(problems[0])


def test_check_command_lists_problems_and_exits_one(kb_copy: Path, capsys) -> None:
    assert main(["agenthospital", "check"]) == 0
    assert "ok: 16 examinations, 8 diseases" in capsys.readouterr().out
    _break(kb_copy / "diseases" / "asthma.yaml", "suitable: [pef, vitals]",
           "suitable: [peak, vitals]")
    assert main(["agenthospital", "check", str(kb_copy)]) == 1
    err = capsys.readouterr().err
    assert "asthma.yaml:" in err and "'peak' is not an examination id" in err
    assert "Traceback" not in err
