"""Escape sequences never reach the terminal (issue 18, item 6): a case title, a model
string, a rater's name and a CSV's cells carrying ESC/CSI/OSC/BEL/C1 bytes are printed by
every command as visible, harmless text, and CSV cells that a spreadsheet would run as a
formula are neutralised.

One database holds the hostile names (a case saved as an import would, a run made with
`bedside run` against the fake server with a hostile model string, a study whose raters and
ratings carry them); each command's stdout and stderr is checked for raw control bytes.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from core.caseio import load_bundled_cases
from tests.fake_openai_server import FakeOpenAIServer
from tui.cli import main

ESC, BEL, CSI, OSC = "\x1b", "\x07", "\x9b", "\x9d"
TITLE = f"Chest pain {ESC}[2J{ESC}]0;pwned{BEL} {CSI}31m{OSC}x \u202egnp.exe"
MODEL = f"openai/fake{ESC}[31m{ESC}]8;;http://evil{BEL}"  # no space: a valid model string
RATER = f'=HYPERLINK("http://evil"){ESC}[5m'
COMMENT = f"@SUM(1+1){ESC}[8m hidden"
# Any C0 control but newline and tab, DEL, any C1 control, and the bidi overrides.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _study_toml() -> str:
    raters = ", ".join(json.dumps(r) for r in ("alice", RATER))
    return (f'name = "evil"\nraters = [{raters}]\noverlap = 2\ncalibration = 0\n'
            f'[select]\nend_reasons = []\n')


@pytest.fixture(scope="module")
def hostile_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from db.study_store import SqliteStudyStore
    from db.store import open_store

    tmp = tmp_path_factory.mktemp("hostile")
    db = tmp / "x.db"
    case = load_bundled_cases()[0].model_copy(update={"id": "evil-001", "title": TITLE})
    store = open_store(db)
    store.save_cases([case])
    with FakeOpenAIServer() as server:
        main(["run", "--db", str(db), "--cases", "evil-001,card-002", "--doctor", MODEL,
              "--api-base", server.base_url, "--name", "evil"])
    (tmp / "study.toml").write_text(_study_toml())
    assert main(["study", "create", "--db", str(db), str(tmp / "study.toml")]) == 0
    studies = SqliteStudyStore(store.db)
    study = studies.get_study("evil")
    for n, name in enumerate(["alice", RATER]):
        rater = studies.get_rater(name)
        for a in studies.assignments(study.id, rater.id):
            studies.save_ratings(a.id, {("realism_doctor", -1): (str(5 + n), COMMENT)})
    return db


def _said(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


COMMANDS = [
    ["results"], ["results", "--per-consultation"], ["results", "--csv"], ["results", "--json"],
    ["results", "--by", "doctor,specialty"], ["results", "--per-consultation", "--csv"],
    ["cases", "list"], ["cases", "list", "--json"], ["cases", "show", "evil-001"],
    ["runs", "list"], ["runs", "show", "evil"], ["study", "list"],
    ["analyze", "--study", "evil", "--bootstrap", "0"],
    ["analyze", "--study", "evil", "--bootstrap", "0", "--markdown"],
    ["analyze", "--study", "evil", "--bootstrap", "0", "--json"],
    ["ratings", "export", "--study", "evil"],
    ["ratings", "export", "--study", "evil", "--format", "jsonl"],
    ["transcripts", "export"], ["transcripts", "export", "--format", "md"],
    ["fidelity", "--run", "evil"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_no_raw_control_bytes_reach_the_terminal(hostile_db: Path, argv: list[str],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _said([*argv, "--db", str(hostile_db)], capsys)
    assert code in (0, 1), err
    for stream in (out, err):
        found = RAW.findall(stream)
        assert not found, (argv, found[:5])
    if "--json" in argv or "jsonl" in argv or argv == ["transcripts", "export"]:
        text = out if "--json" in argv else out.splitlines()[0]
        json.loads(text)  # still valid JSON: escapes are JSON escapes


def test_the_run_summary_and_errors_are_harmless(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    with FakeOpenAIServer() as server:
        code, out, err = _said(["run", "--db", str(tmp_path / "x.db"), "--cases", "card-001",
                                "--doctor", MODEL, "--api-base", server.base_url], capsys)
    assert code == 0 and "openai/fake␛[31m␛]8;;http://evil␇" in out
    code, out, err = _said(["cases", "show", f"no{ESC}[2Jcase"], capsys)
    assert code == 2 and not RAW.findall(err) and "no␛[2Jcase" in err
    # `bedside rate` hands the terminal to the app, so its output is not wrapped; its
    # error line is made harmless all the same
    code, out, err = _said(["rate", "--study", f"no{ESC}]0;x{BEL}", "--rater", "a",
                            "--db", str(tmp_path / "x.db")], capsys)
    assert code == 2 and not RAW.findall(err) and "no␛]0;x␇" in err, err


def test_json_keeps_the_text_itself(hostile_db: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """JSON is data: the exact title comes back from `json.loads`, escaped, never raw."""
    _, out, _ = _said(["cases", "list", "--json", "--db", str(hostile_db)], capsys)
    titles = {r["id"]: r["title"] for r in json.loads(out)}
    assert titles["evil-001"] == TITLE


def test_csv_cells_are_no_formulas_and_import_back_unchanged(
        hostile_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _said(["ratings", "export", "--study", "evil", "--db", str(hostile_db)],
                      capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows
    for row in rows:
        for value in row.values():
            assert not value or value[0] not in "=+-@\t\r" or _number(value), value
    assert {r["rater"] for r in rows} == {"alice", "'=HYPERLINK(\"http://evil\")␛[5m"}
    assert {r["comment"] for r in rows} == {"'@SUM(1+1)␛[8m hidden"}
    # the file goes back in: the apostrophe that kept the formula from running is dropped
    from annotation.exchange import read_rows

    path = tmp_path / "r.csv"
    path.write_text(out)
    back = [r for _, r in read_rows(path)]
    assert {r.comment for r in back} == {"@SUM(1+1)␛[8m hidden"}


def _number(value: str) -> bool:
    return re.fullmatch(r"[+-]?\d+(\.\d+)?([eE][+-]?\d+)?", value) is not None


def test_results_csv_neutralises_a_formula_model(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from tui.text.exports import csv_cell

    assert csv_cell("=1+2") == "'=1+2" and csv_cell("-2.5") == "-2.5"
    assert csv_cell("+cmd|' /C calc'!A0") == "'+cmd|' /C calc'!A0"
    assert csv_cell(f"ok{ESC}[1m") == "ok␛[1m" and csv_cell(3) == 3 and csv_cell(None) == ""


def test_exported_files_hold_no_raw_control_bytes(hostile_db: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Files are read with `cat` too; JSON Lines keep the exact text as JSON escapes."""
    db = str(hostile_db)
    files = {name: tmp_path / name for name in ("t.jsonl", "t.md", "r.csv", "r.jsonl")}
    for argv in (["transcripts", "export", "-o", str(files["t.jsonl"])],
                 ["transcripts", "export", "--format", "md", "-o", str(files["t.md"])],
                 ["ratings", "export", "--study", "evil", "-o", str(files["r.csv"])],
                 ["ratings", "export", "--study", "evil", "--format", "jsonl",
                  "-o", str(files["r.jsonl"])],
                 ["study", "sheet", "--study", "evil", "-o", str(tmp_path / "sheets")]):
        assert main([*argv, "--db", db]) == 0
    capsys.readouterr()
    written = [*files.values(), *(tmp_path / "sheets").iterdir()]
    assert len(written) == 8  # four files, and a CSV and a Markdown sheet per rater
    for path in written:
        assert not RAW.findall(path.read_text()), path
    titles = {json.loads(line)["case_title"] for line in files["t.jsonl"].read_text().splitlines()}
    assert TITLE in titles
    raters = {json.loads(line)["rater"] for line in files["r.jsonl"].read_text().splitlines()}
    assert RATER in raters
