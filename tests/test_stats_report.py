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


def test_conflicting_duplicate_names_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "unit,rater,value\nu1,a,3\nu1,a,4\nu1,b,4\n")
    rows = load_long_csv(path)
    with pytest.raises(InputError) as err:
        agreement_report(rows, level="ordinal", path=str(path))
    assert err.value.line == 3 and str(err.value).startswith(f"{path}:3: field 'value'")
    assert "twice with different values" in str(err.value)


@pytest.mark.parametrize("text,line,words", [
    ('unit,rater,value\nu1,a,"3\nu1,b,4\n', 2, "never closed"),      # unterminated quote
    ('unit,rater,value\nu1,a,3\nu2,a,"4"x\n', 3, "malformed quoting"),  # text after a quote
    ("unit,rater,value,Rater\nu1,a,3,b\n", 1, "appears twice"),         # duplicate column
])
def test_malformed_csv_is_rejected_with_its_line(tmp_path: Path, text: str, line: int,
                                                 words: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(InputError) as err:
        load_long_csv(path, level="ordinal")
    assert err.value.line == line and words in str(err.value)
    assert str(err.value).startswith(f"{path}:{line}")


def test_quoted_field_spanning_lines_keeps_line_numbers(tmp_path: Path) -> None:
    # The record starting on line 2 spans lines 2-3; the bad value is on line 4.
    path = _write(tmp_path, 'unit,rater,value\n"u\n1",a,3\nu2,a,oops\n')
    with pytest.raises(InputError) as err:
        load_long_csv(path, level="interval")
    assert err.value.line == 4 and "\n" not in str(err.value)


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
    overall = rep["overall"]
    assert overall["judge"]["item_level"]["n_units"] == 72
    assert overall["items"] == ["empathy", "realism"] and overall["rescaled"] is True
    # Clustered by transcript: 36 transcripts, each with its two items.
    assert overall["n_clusters"] == 36
    assert {h["n_units"] for h in overall["alt_test"]["humans"]} == {36}
    assert {h["n_instances"] for h in overall["alt_test"]["humans"]} == {72}
    json.dumps(rep, allow_nan=False)


def test_pooled_block_rescales_each_item_by_its_scale() -> None:
    # Item "short" (scale 1-5) and item "long" (scale 1-10), 12 units each. Humans agree; the
    # judge is one point above them everywhere. Rescaled, one point is 1/4 of the short
    # scale and 1/9 of the long one, so the pooled mean difference is (1/4 + 1/9) / 2 =
    # 13/72 and the MAE the same; without rescaling it would be 1.
    rows = []
    for item, top in (("short", 5), ("long", 10)):
        for u in range(12):
            v = 1 + u % (top - 1)
            rows += [{"unit": f"t{u}", "rater": r, "value": v, "item": item}
                     for r in ("ann", "bob", "cat")]
            rows.append({"unit": f"t{u}", "rater": "judge", "value": v + 1, "item": item})
    rep = agreement_report(rows, judge="judge", level="ordinal", n_boot=0,
                           scales={"short": range(1, 6), "long": range(1, 11)})
    item_level = rep["overall"]["judge"]["item_level"]
    assert item_level["mean_diff"]["value"] == pytest.approx(13 / 72)
    assert item_level["mae"]["value"] == pytest.approx(13 / 72)
    assert rep["items"][0]["judge"]["item_level"]["mae"]["value"] == pytest.approx(1.0)
    text = render_text(rep)
    assert "All items pooled" in text and "rescaled to 0–1" in text


def test_single_rater_item_says_why_cohen_is_missing() -> None:
    rows = [{"unit": f"u{i}", "rater": "ann", "value": i % 3 + 1} for i in range(5)]
    rep = agreement_report(rows, level="ordinal", n_boot=0)
    ag = rep["items"][0]["agreement"]
    assert ag["cohen"] == [] and "two or more human raters" in ag["cohen_reason"]
    assert "two or more human raters; this item has 1" in render_text(rep)


def test_judge_not_required_marks_every_item() -> None:
    rows = [r for r in _study_rows() if r["rater"] != "judge"]
    with pytest.raises(InputError):
        agreement_report(rows, judge="judge", level="ordinal", n_boot=0)
    rep = agreement_report(rows, judge="judge", level="ordinal", n_boot=0,
                           judge_required=False)
    assert all("did not rate" in i["judge_reason"] for i in rep["items"])
    assert rep["overall"] is None and "rated 0 item" in rep["overall_reason"]


def test_renderings_show_aligned_tables() -> None:
    rep = agreement_report(_study_rows(), judge="judge", level="ordinal", n_boot=50)
    text = render_text(rep)
    assert "Krippendorff α" in text and "Alternative annotator test" in text
    assert "Human–human ceiling (leave one out)" in text and "System level" in text
    assert "verdict: the judge" in text
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
