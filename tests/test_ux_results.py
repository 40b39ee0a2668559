"""The results tables read the same everywhere (issue 16): every column of the text table
is headed by the name its JSON key and CSV header use, in words a clinician reads, with a
legend; the tables fit 120 columns; `--per-consultation` shows the diagnosis given."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from core.metrics.names import LEGEND
from tui.cli import main

#: Text cells that combine JSON fields (accuracy_ci is ci_low–ci_high).
COMBINED = {"accuracy_ci": ("ci_low", "ci_high")}


def _names(header: list[str]) -> list[str]:
    """The column names of a (multi-line) header: words that start at the same column
    belong to one name."""
    columns: dict[int, str] = {}
    for line in header:
        for m in re.finditer(r"\S+", line):
            columns[m.start()] = columns.get(m.start(), "") + m.group()
    return [columns[x] for x in sorted(columns)]


def _blocks(text: str) -> list[tuple[list[str], list[str]]]:
    """(header lines, data lines) of each block of a text table."""
    out = []
    for chunk in re.split(r"\n\n", text):
        lines = [x for x in chunk.splitlines() if x and not x.startswith("--")]
        if not lines or re.match(r"^[\w#]+: ", lines[0]):
            continue  # the legend
        # The first data line: a number standing alone (headers hold none).
        first_data = next(i for i, x in enumerate(lines)
                          if re.search(r"(^|\s)-?\d+(\.\d+)?%?(\s|$)", x))
        out.append((lines[:first_data], lines[first_data:]))
    return out


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("results") / "b.db")
    assert main(["run", "--db", path, "--cases", "cardiology,gastroenterology",
                 "--json"]) == 0
    return path


def _out(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("by", ["model", "specialty"])
def test_headers_are_the_json_and_csv_names_and_fit_120_columns(
        db: str, capsys: pytest.CaptureFixture[str], by: str) -> None:
    text = _out(capsys, "results", "--db", db, "--by", by)
    keys = set(json.loads(_out(capsys, "results", "--db", db, "--by", by, "--json"))[0])
    header = next(csv.reader(io.StringIO(_out(capsys, "results", "--db", db, "--by", by,
                                              "--csv"))))
    assert set(header) == keys  # the CSV header is the JSON keys
    assert max(len(line) for line in text.splitlines()) <= 120
    shown: list[str] = []
    for head, _ in _blocks(text):
        shown += _names(head)
    assert {"accuracy", "inquiry_order", "inquiry_steps", "information_gathered",
            "diagnosis_f1"} <= set(shown)
    for name in shown:
        assert name in keys or set(COMBINED.get(name, ("?",))) <= keys, name
        assert name in (by, "doctor") or f"\n{name}: " in text, f"{name} not in the legend"
    # The old headers and names are gone from every output.
    for old in ("ORDER", "STEPS", "ROUNDS", "ENT-F1", "behaviour_standardization",
                "info_completeness"):
        assert old not in text and old not in keys


def test_per_consultation_shows_the_diagnosis_given_and_fits(
        db: str, capsys: pytest.CaptureFixture[str]) -> None:
    text = _out(capsys, "results", "--db", db, "--per-consultation")
    rows = json.loads(_out(capsys, "results", "--db", db, "--per-consultation", "--json"))
    assert max(len(line) for line in text.splitlines()) <= 120
    given = [r["diagnosis"] for r in rows if r["diagnosis"]]
    assert given and all(d[:40] in text for d in given)
    assert "diagnosis: the diagnosis the doctor gave, verbatim" in text
    keys = set(rows[0])
    for head, _ in _blocks(text):
        for name in _names(head):
            assert name in keys or name in ("#", "consultation", "case"), name
    assert {"inquiry_order", "diagnosis_f1"} <= keys and "entity_f1" not in keys


def test_every_legend_line_fits_and_every_public_name_is_explained() -> None:
    from core.metrics.names import PUBLIC_NAMES
    from tui.text.results_table import legend

    assert all(len(line) <= 120 for line in legend(list(LEGEND)))
    missing = [n for n in set(PUBLIC_NAMES.values()) - set(LEGEND)
               if n not in ("diagnosis_precision", "diagnosis_recall", "diagnosis_f1_per_case")]
    assert missing == []
