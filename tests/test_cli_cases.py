"""`bedside cases ...` driven as a user would: a real process, a real database file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def bedside(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = {"BEDSIDE_HOME": str(home), "PATH": "/usr/bin:/bin", "HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_cases_list_json_shows_the_library(tmp_path) -> None:
    out = bedside("cases", "list", "--json", home=tmp_path)
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert len(rows) >= 30
    assert len({r["specialty"] for r in rows}) >= 6
    assert len({r["language"] for r in rows}) >= 4
    assert set(rows[0]) == {"id", "title", "specialty", "language", "source"}
    assert not (tmp_path / "bedside.db").exists()  # listing never creates a database


def test_validate_reports_every_problem_with_file_line_field(tmp_path) -> None:
    good = (ROOT / "cases" / "cardiology" / "card-001-inferior-stemi.yaml").read_text()
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "a.yaml").write_text(good.replace("expected_rounds: 8", "expected_rounds: zero")
                                   .replace("specialty: cardiology", "specialty: [x]"))
    (folder / "b.yaml").write_text("id: b\ntitle: [oops\n")
    out = bedside("cases", "validate", str(folder), home=tmp_path)
    assert out.returncode == 1
    lines = out.stdout.strip().splitlines()
    assert any(f"{folder / 'a.yaml'}:" in ln and "field 'expected_rounds'" in ln for ln in lines)
    assert any("field 'specialty'" in ln for ln in lines)
    assert any(f"{folder / 'b.yaml'}:" in ln and "not valid YAML" in ln for ln in lines)
    assert lines[-1] == "2 files checked, 3 problems"
    assert "Traceback" not in out.stderr


def test_validate_the_bundled_library_is_clean(tmp_path) -> None:
    out = bedside("cases", "validate", str(ROOT / "cases"), home=tmp_path)
    assert out.returncode == 0, out.stdout
    assert out.stdout.strip().endswith("0 problems")


def test_show_unknown_case_is_one_line(tmp_path) -> None:
    out = bedside("cases", "show", "no-such-case", home=tmp_path)
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0 and "no-such-case" in out.stderr


def test_import_missing_file_is_one_line(tmp_path) -> None:
    out = bedside("cases", "import", "agentclinic", str(tmp_path / "nope.jsonl"),
                  home=tmp_path)
    assert out.returncode == 2
    assert "nope.jsonl" in out.stderr and "Traceback" not in out.stderr
