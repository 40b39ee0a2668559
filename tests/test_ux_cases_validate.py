"""`bedside cases validate` reports every problem of a file at once (issue 16): a schema
problem no longer hides the rest; ICD-10 codes that are not WHO codes and accepted names
that accept the case's own differential are problems, each with its line and field."""

from __future__ import annotations

from pathlib import Path

from core.caseio import bundled_cases_dir
from tests.test_cli_cases import bedside

SOURCE = bundled_cases_dir() / "cardiology" / "card-001-inferior-stemi.yaml"


def _bad_case(tmp_path: Path) -> Path:
    text = SOURCE.read_text(encoding="utf-8")
    for old, new in (("id: card-001", "id: bad-001"),
                     ("expected_rounds: 8", "expected_rounds: 0"),  # a schema problem
                     ("  - symptom:sweating", "  - symptom:hiccups"),
                     ("  icd10: [I21.1]", "  icd10: [Z99.99X, banana, Z99.99, I21.1]"),
                     ("    - acute inferior STEMI\n",
                      "    - acute inferior STEMI\n    - myocardial infarction\n"
                      "    - pericarditis\n")):
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / "bad-001.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, x in enumerate(path.read_text().splitlines(), 1) if needle in x)


def test_every_problem_of_a_file_at_once_with_its_line(tmp_path: Path) -> None:
    path = _bad_case(tmp_path)
    out = bedside("cases", "validate", str(path), home=tmp_path)
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    assert lines[-1] == "1 files checked, 7 problems"
    got = {line.split(": ", 2)[1]: line for line in lines[:-1]}  # field → line
    codes, diff = _line_of(path, "  icd10: ["), _line_of(path, "  differential:")
    expected = {
        "field 'expected_rounds'": (_line_of(path, "expected_rounds"), "greater than"),
        "field 'expected_inquiry_order.1'": (_line_of(path, "symptom:hiccups"), "hiccups"),
        "field 'truth.icd10.0'": (codes, "'Z99.99X' is not an ICD-10 code"),
        "field 'truth.icd10.1'": (codes, "'banana' is not an ICD-10 code"),
        "field 'truth.icd10.2'": (codes, "'Z99.99' is not in the WHO ICD-10"),
        "field 'truth.differential.2'": (diff, "'acute pericarditis' would be accepted as "
                                               "the diagnosis (through the accepted name "
                                               "'pericarditis')"),
        "field 'truth.differential.4'": (diff, "'non-ST-elevation myocardial infarction' "
                                               "would be accepted"),
    }
    assert set(got) == set(expected)
    for field, (line, words) in expected.items():
        assert got[field].startswith(f"{path}:{line}: {field}: "), got[field]
        assert words in got[field], got[field]


def test_the_bundled_library_has_none_of_these_problems(tmp_path: Path) -> None:
    out = bedside("cases", "validate", str(bundled_cases_dir()), home=tmp_path)
    assert out.returncode == 0, out.stdout
    assert out.stdout.strip().endswith(" problems") and ", 0 problems" in out.stdout
