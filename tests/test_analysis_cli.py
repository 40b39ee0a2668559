"""`bedside agreement` and `bedside analyze` as a user runs them, on real files."""

from __future__ import annotations

import json

import pytest

from db.study_store import SqliteStudyStore
from tests.test_cli_cases import bedside
from tests.test_study_support import make_study, seed_db

# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", 4 observers x 12 units.
K2011 = {"A": "1 2 3 3 2 1 4 1 2 . . .", "B": "1 2 3 3 2 2 4 1 2 5 . 3",
         "C": ". 3 3 3 2 3 4 2 2 5 1 .", "D": "1 2 3 3 2 4 4 1 2 5 1 ."}


def _write_k2011(path) -> None:
    lines = ["unit,rater,value"]
    for rater, values in K2011.items():
        lines += [f"u{i},{rater},{v}" for i, v in enumerate(values.split()) if v != "."]
    path.write_text("\n".join(lines) + "\n")


def test_agreement_csv_reproduces_published_alpha(tmp_path) -> None:
    csv = tmp_path / "k.csv"
    _write_k2011(csv)
    out = bedside("agreement", str(csv), "--level", "interval", "--json", home=tmp_path)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    levels = report["items"][0]["agreement"]["alpha_levels"]
    got = {k: round(v["value"], 3) for k, v in levels.items()}
    assert got == {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849, "ratio": 0.797}
    text = bedside("agreement", str(csv), "--judge", "D", home=tmp_path)
    assert "Judge 'D' versus the mean of humans" in text.stdout


def test_agreement_bad_csv_is_one_line(tmp_path) -> None:
    csv = tmp_path / "bad.csv"
    csv.write_text("unit,rater,value\nu1,A,3\nu1,B,high\n")
    out = bedside("agreement", str(csv), "--level", "interval", home=tmp_path)
    assert out.returncode == 2
    assert f"{csv}:3" in out.stderr and "\n" not in out.stderr.strip()


def _rated_study(tmp_path, judges=("judge:fake",), judge_items=("empathy_doctor",
                                                                  "realism_doctor")):
    """The pilot study rated by three humans (who agree closely) and lenient judge(s)."""
    db_path = tmp_path / "p.db"
    db = seed_db(db_path, n=6)
    study_id = make_study(db, tmp_path)
    store = SqliteStudyStore(db)
    for name in judges:
        judge = store.ensure_rater(name, "judge", model="openai/fake")
        store.add_assignments(study_id, judge.id, [(f"c{i:02d}", False) for i in range(6)])
    for offset, name in enumerate(["alice", "bob", "carol", *judges]):
        rater_id = store.get_rater(name).id
        is_judge = name in judges
        for a in store.assignments(study_id, rater_id):
            n = int(a.consultation_id[1:])
            # Humans agree closely (score tracks the transcript number); the judge is lenient.
            score = min(10, 2 + n + (offset % 2) + (2 if is_judge else 0))
            items = judge_items if is_judge else ("empathy_doctor", "realism_doctor")
            store.save_ratings(a.id, {(item, -1): (str(score), None) for item in items})
    db.conn.close()
    return db_path


def test_analyze_a_rated_study_with_a_judge(tmp_path) -> None:
    db_path = _rated_study(tmp_path)
    out = bedside("analyze", "--study", "pilot", "--json", "--db", str(db_path),
                  "--bootstrap", "200", home=tmp_path)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["judge"] == "judge:fake" and report["judge_reason"] is None
    (scale,) = report["reports"]  # only scale items were rated
    items = {i["item"]: i for i in scale["items"]}
    assert {"empathy_doctor", "realism_doctor"} <= set(items)
    empathy = items["empathy_doctor"]
    assert empathy["agreement"]["alpha"]["value"] > 0.8
    assert "NaN" not in out.stdout
    # The pooled block over both scale items (1-10, so one point is 1/9 rescaled): the
    # judge is 2 to 3 points above the humans' mean → 2/9 to 3/9 rescaled.
    overall = scale["overall"]
    assert overall["items"] == ["empathy_doctor", "realism_doctor"]
    bias = overall["judge"]["item_level"]["mean_diff"]["value"]
    assert 2 / 9 <= bias <= 3 / 9
    assert overall["n_clusters"] == 6 and overall["alt_test"]["winning_rate"] is not None
    text = bedside("analyze", "--study", "pilot", "--db", str(db_path), "--bootstrap", "0",
                   home=tmp_path)
    assert "Judge 'judge:fake'" in text.stdout and "All items pooled" in text.stdout
    assert "rescaled to 0–1" in text.stdout and "Human–human ceiling" in text.stdout
    md = bedside("analyze", "--study", "pilot", "--db", str(db_path), "--markdown",
                 "--bootstrap", "0", home=tmp_path)
    assert "## All items pooled" in md.stdout and "### Alternative annotator test" in md.stdout


def test_analyze_with_two_judges_or_a_missing_item_says_why(tmp_path) -> None:
    db_path = _rated_study(tmp_path, judges=("judge:a", "judge:b"),
                           judge_items=("empathy_doctor",))
    out = bedside("analyze", "--study", "pilot", "--json", "--db", str(db_path),
                  "--bootstrap", "0", home=tmp_path)
    report = json.loads(out.stdout)
    assert report["judge"] is None
    assert "2 LLM judges (judge:a, judge:b)" in report["judge_reason"]
    text = bedside("analyze", "--study", "pilot", "--db", str(db_path), "--bootstrap", "0",
                   home=tmp_path)
    assert "name one (--judge NAME" in text.stdout
    # Naming one: realism_doctor was not rated by it, and the report says so.
    out = bedside("analyze", "--study", "pilot", "--json", "--judge", "judge:b", "--db",
                  str(db_path), "--bootstrap", "0", home=tmp_path)
    items = {i["item"]: i for i in json.loads(out.stdout)["reports"][0]["items"]}
    assert items["empathy_doctor"]["judge"] is not None
    assert "did not rate this item" in items["realism_doctor"]["judge_reason"]


@pytest.mark.parametrize("args,words", [
    (("--bootstrap", "-5"), "-5 resamples: use 0 (no intervals) to 100,000"),
    (("--bootstrap", "100001"), "use 0 (no intervals) to 100,000"),
    (("--bootstrap", "many"), "not a whole number"),
    (("--epsilon", "nan"), "outside 0 ≤ ε < 1"),
    (("--epsilon", "1"), "outside 0 ≤ ε < 1"),
    (("--epsilon", "-0.1"), "outside 0 ≤ ε < 1"),
    (("--epsilon", "novice"), "neither a number nor a preset"),
])
def test_bad_bootstrap_or_epsilon_is_refused_by_argparse(tmp_path, args, words) -> None:
    csv = tmp_path / "k.csv"
    _write_k2011(csv)
    out = bedside("agreement", str(csv), *args, home=tmp_path)
    assert out.returncode == 2 and words in out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""


def test_epsilon_presets_and_db_are_accepted(tmp_path) -> None:
    csv = tmp_path / "k.csv"
    _write_k2011(csv)
    out = bedside("agreement", str(csv), "--judge", "D", "--epsilon", "crowd", "--bootstrap",
                  "0", "--json", "--db", str(tmp_path / "x.db"), home=tmp_path)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["epsilon"] == 0.1 and report["items"][0]["alt_test"]["epsilon"] == 0.1
    assert not (tmp_path / "x.db").exists()  # accepted, and unused


def test_duplicate_rating_error_names_the_file(tmp_path) -> None:
    csv = tmp_path / "dup.csv"
    csv.write_text("unit,rater,value\nu1,A,3\nu1,A,4\nu1,B,4\n")
    out = bedside("agreement", str(csv), home=tmp_path)
    assert out.returncode == 2
    assert f"{csv}:3: field 'value'" in out.stderr and "\n" not in out.stderr.strip()


def test_malformed_csv_is_one_line(tmp_path) -> None:
    csv = tmp_path / "quote.csv"
    csv.write_text('unit,rater,value\nu1,A,"3\nu1,B,4\n')
    out = bedside("agreement", str(csv), home=tmp_path)
    assert out.returncode == 2 and f"{csv}:2" in out.stderr and "never closed" in out.stderr
    assert "\n" not in out.stderr.strip()


def test_analyze_unknown_study_is_one_line(tmp_path) -> None:
    out = bedside("analyze", "--study", "nope", "--db", str(tmp_path / "p.db"), home=tmp_path)
    assert out.returncode == 2 and "nope" in out.stderr
