"""`bedside cases ...` driven as a user would: the command line, a real database file. The
first test starts a real process; the others run the same command line in this process
(`tests.cli_support.run_cli`: return code, stdout and stderr as a process gives them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.cli_support import run_cli
from tests.importer_support import FIXTURES

ROOT = Path(__file__).resolve().parents[1]


def bedside_process(*args: str, home: Path) -> subprocess.CompletedProcess:
    """`bedside ARGS` as a process of its own (`python -m tui.cli`)."""
    env = {"BEDSIDE_HOME": str(home), "PATH": "/usr/bin:/bin", "HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "tui.cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def bedside(*args: str, home: Path) -> subprocess.CompletedProcess:
    """`bedside ARGS` in this process (`tests.cli_support.run_cli`)."""
    return run_cli(*args, home=home)


def test_cases_list_json_shows_the_library(tmp_path) -> None:
    out = bedside_process("cases", "list", "--json", home=tmp_path)
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert len(rows) >= 30
    assert len({r["specialty"] for r in rows}) >= 6
    assert len({r["language"] for r in rows}) >= 4
    assert set(rows[0]) == {"id", "title", "specialty", "language", "source", "placeholder",
                            "translated_from", "machine_translated", "needs_review"}
    assert not any(r["placeholder"] for r in rows)
    assert not (tmp_path / "bedside.db").exists()  # listing never creates a database


def _columns(line: str) -> list[int]:
    """Display columns where each field after the first starts (fields are 2+ spaces apart)."""
    import re

    from tui.cli.cases import display_width

    return [display_width(line[:m.end()]) for m in re.finditer(r"\S\s{2,}(?=\S)", line)]


def check_cases_list_aligns_cjk_and_sets_placeholders_apart(samples, tmp_path: Path,
                                                           cjk_ids: tuple[str, str], who: str,
                                                           placeholder: str) -> None:
    """Chinese records, an RJUA sheet and five dialogues imported, then `cases list`: CJK
    titles keep the columns in line; the dialogues' placeholder cases are listed apart."""
    db = tmp_path / "p.db"
    for fmt, sample in (("aihospital", samples.aih_zh), ("rjua", samples.rjua),
                        ("aihospital-dialog", samples.dialog)):
        assert bedside("cases", "import", fmt, str(samples.path(sample)), "--db", str(db),
                       home=tmp_path).returncode == 0
    out = bedside("cases", "list", "--db", str(db), home=tmp_path)
    assert out.returncode == 0, out.stderr
    table, _, rest = out.stdout.partition("\n\n")
    lines = table.splitlines()
    assert lines[0].split() == ["ID", "TITLE", "SPECIALTY", "LANGUAGE", "SOURCE"]
    cjk = [ln for ln in lines if ln.startswith(cjk_ids)]
    assert len(cjk) == 2 and who in cjk[0]
    for line in lines[1:]:
        assert _columns(line) == _columns(lines[0]), line  # every column starts in line
    summary, _, placeholders = rest.partition("\n\n")
    assert summary.startswith(f"{len(lines) - 1} cases, ")  # placeholders are not counted
    assert placeholders.startswith("5 placeholder cases")
    assert placeholder in placeholders and placeholder not in table
    listed = json.loads(bedside("cases", "list", "--json", "--db", str(db),
                                home=tmp_path).stdout)
    marked = {r["id"] for r in listed if r["placeholder"]}
    assert len(marked) == 5 and placeholder in marked
    assert {r["language"] for r in listed if r["placeholder"]} == {"zh-Hans"}  # the dialogues'


def test_cases_list_aligns_cjk_titles_and_sets_placeholders_apart(tmp_path) -> None:
    check_cases_list_aligns_cjk_and_sets_placeholders_apart(
        FIXTURES, tmp_path, cjk_ids=("aihospital-2107", "rjua-sp_fixture"), who="女，67岁",
        placeholder="aihospital-3105")


def test_display_width_and_fit() -> None:
    from tui.cli.cases import display_width, fit

    assert display_width("男，54岁") == 8 and display_width("e\u0301") == 1
    assert fit("膀胱癌", 5) == "膀胱…" and display_width(fit("膀胱癌", 5)) == 5
    assert fit("abc", 5) == "abc  "


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
