"""The agreement report: long CSV loading and its errors, the JSON-safe dict, the renderings."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from annotation.analysis.data import Row, build_matrix, load_long_csv
from annotation.analysis.report import agreement_report, render_markdown, render_text
from core.errors import InputError

# Krippendorff (2011) data in long form, with the '.' cells left out.
K2011 = {"A": "1 2 3 3 2 1 4 1 2 . . .", "B": "1 2 3 3 2 2 4 1 2 5 . 3",
         "C": ". 3 3 3 2 3 4 2 2 5 1 .", "D": "1 2 3 3 2 4 4 1 2 5 1 ."}


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "ratings.csv"
    p.write_text(text, encoding="utf-8")
    return p


def _k2011_csv(tmp_path: Path) -> Path:
    lines = ["unit,rater,value"]
    for rater, vals in K2011.items():
        lines += [f"u{i + 1},{rater},{v}" for i, v in enumerate(vals.split()) if v != "."]
    return _write(tmp_path, "\n".join(lines) + "\n")


def test_csv_to_report_reproduces_published_alpha(tmp_path: Path) -> None:
    rows = load_long_csv(_k2011_csv(tmp_path), level="interval")
    rep = agreement_report(rows, level="interval", n_boot=200)
    item = rep["items"][0]
    assert item["agreement"]["alpha"]["value"] == pytest.approx(0.849, abs=5e-4)
    assert item["agreement"]["alpha_levels"]["nominal"]["value"] == pytest.approx(0.743, abs=5e-4)
    assert item["agreement"]["alpha"]["low"] is not None
    assert item["scale"] == [1.0, 2.0, 3.0, 4.0, 5.0]
    json.dumps(rep, allow_nan=False)  # no NaN anywhere


def test_csv_errors_name_file_line_and_field(tmp_path: Path) -> None:
    with pytest.raises(InputError) as err:
        load_long_csv(_write(tmp_path, "unit,value\nu1,3\n"))
    assert err.value.field == "rater" and err.value.line == 1
    with pytest.raises(InputError) as err:
        load_long_csv(_write(tmp_path, "unit,rater,value\nu1,a,3\nu1,b,high\n"), level="ordinal")
    assert (err.value.line, err.value.field) == (3, "value")
    assert "ratings.csv:3" in str(err.value) and "not a number" in str(err.value)
    # The same file is fine at the nominal level.
    assert len(load_long_csv(tmp_path / "ratings.csv", level="nominal")) == 2
    with pytest.raises(InputError) as err:
        load_long_csv(_write(tmp_path, "unit,rater,value\n,a,3\n"))
    assert err.value.field == "unit"
    with pytest.raises(InputError):
        load_long_csv(tmp_path / "absent.csv")
    with pytest.raises(InputError):
        load_long_csv(_write(tmp_path, ""))


def test_conflicting_duplicate_is_an_input_error(tmp_path: Path) -> None:
    rows = load_long_csv(_write(tmp_path, "unit,rater,value\nu1,a,3\nu1,a,4\nu1,b,4\n"))
    with pytest.raises(InputError) as err:
        agreement_report(rows, level="ordinal")
    assert err.value.line == 3


def test_report_errors() -> None:
    rows = [Row("u1", "a", 1), Row("u1", "b", 2)]
    with pytest.raises(InputError):
        agreement_report(rows, level="bogus")
    with pytest.raises(InputError):
        agreement_report(rows, judge="gpt", level="ordinal")
    with pytest.raises(InputError):
        agreement_report([], level="ordinal")
    with pytest.raises(InputError):
        agreement_report([Row("u1", "a", "x"), Row("u1", "b", 2)], level="interval")


def test_degenerate_data_gives_reasons_not_nan() -> None:
    # Every rating identical, one unit, two raters: nothing crashes, nothing is NaN.
    rows = [{"unit": "u1", "rater": r, "value": 3} for r in ("a", "b", "j")]
    rep = agreement_report(rows, judge="j", level="ordinal", n_boot=20)
    text = json.dumps(rep, allow_nan=False)
    ag = rep["items"][0]["agreement"]
    assert ag["alpha"]["value"] is None and "same value" in ag["alpha"]["reason"]
    assert ag["icc"]["forms"]["ICC(1,1)"]["reason"]
    assert rep["items"][0]["alt_test"]["passed"] is not True
    assert "NaN" not in text
    out = render_text(rep)
    assert "same value" in out and "nan" not in out.lower()


def test_nominal_labels_and_full_scale() -> None:
    rows = [Row(u, r, v) for u, r, v in [("u1", "a", "yes"), ("u1", "b", "yes"),
                                         ("u2", "a", "no"), ("u2", "b", "yes")]]
    m = build_matrix(rows, level="nominal", scale=["no", "yes", "unsure"])
    assert m.labels == ["no", "yes", "unsure"]
    rep = agreement_report(rows, level="nominal", scale=["no", "yes", "unsure"], n_boot=0)
    item = rep["items"][0]
    assert item["scale"] == ["no", "yes", "unsure"]
    assert item["agreement"]["icc"] is None
    assert item["agreement"]["percent_exact"]["value"] == pytest.approx(0.5)
    assert item["agreement"]["percent_within_1"]["value"] is None


def _study_rows(seed: int = 1) -> list[dict[str, object]]:
    rng = np.random.default_rng(seed)
    rows = []
    for item in ("empathy", "realism"):
        for u in range(36):
            truth = int(rng.integers(1, 6))
            for rater in ("ann", "bob", "cat", "judge"):
                v = int(np.clip(truth + rng.integers(-1, 2), 1, 5))
                rows.append({"unit": f"t{u}", "rater": rater, "value": v, "item": item,
                             "system": f"model{u % 4}"})
    return rows


def test_report_with_judge_has_items_and_overall() -> None:
    rep = agreement_report(_study_rows(), judge="judge", level="ordinal", n_boot=100)
    assert [i["item"] for i in rep["items"]] == ["empathy", "realism"]
    item = rep["items"][0]
    assert item["humans"] == ["ann", "bob", "cat"]
    assert len(item["agreement"]["cohen"]) == 3
    assert item["judge"]["n_systems"] == 4
    assert len(item["judge"]["ceiling"]) == 3
    assert len(item["alt_test"]["humans"]) == 3
    assert rep["overall"]["judge"]["item_level"]["n_units"] == 72
    json.dumps(rep, allow_nan=False)


def test_renderings_show_aligned_tables() -> None:
    rep = agreement_report(_study_rows(), judge="judge", level="ordinal", n_boot=50)
    text = render_text(rep)
    assert "Krippendorff alpha" in text and "Alternative annotator test" in text
    assert "All items pooled" in text
    # Alignment: in the first table, every line has a blank wherever the dashed rule under
    # the header has the gap between two columns.
    lines = text.splitlines()
    rule_at = next(i for i, line in enumerate(lines) if line.startswith("  -----"))
    rule = lines[rule_at]
    gaps = [i for i, ch in enumerate(rule) if ch == " " and i > 2]
    table = [lines[rule_at - 1]]
    for line in lines[rule_at + 1:]:
        if not line.startswith("  ") or line.startswith("  *"):
            break
        table.append(line)
    assert len(table) > 10
    for line in table:
        assert all(i >= len(line) or line[i] == " " for i in gaps), line
    md = render_markdown(rep)
    assert md.startswith("# Agreement report")
    assert "| statistic | value | 95% interval | n |" in md
    assert "|---|---:|" in md


def test_judge_missing_from_an_item() -> None:
    rows = _study_rows()
    rows = [r for r in rows if not (r["item"] == "realism" and r["rater"] == "judge")]
    rep = agreement_report(rows, judge="judge", level="ordinal", n_boot=0)
    assert rep["items"][1]["judge"] is None
    assert "did not rate" in rep["items"][1]["judge_reason"]
    assert "did not rate" in render_text(rep)
