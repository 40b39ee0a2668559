"""`bedside agreement` and `bedside analyze` as a user runs them, on real files."""

from __future__ import annotations

import json

from db.studies import add_assignments, assignments, ensure_rater, get_rater, save_ratings
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


def test_analyze_a_rated_study_with_a_judge(tmp_path) -> None:
    db_path = tmp_path / "p.db"
    db = seed_db(db_path, n=6)
    study_id = make_study(db, tmp_path)
    judge_id = ensure_rater(db, "judge:fake", "judge", model="openai/fake")
    add_assignments(db, study_id, judge_id, [(f"c{i:02d}", False) for i in range(6)])
    for offset, name in enumerate(["alice", "bob", "carol", "judge:fake"]):
        rater_id = get_rater(db, name)["id"]
        for a in assignments(db, study_id, rater_id):
            n = int(a["consultation_id"][1:])
            # Humans agree closely (score tracks the transcript number); the judge is lenient.
            score = min(10, 2 + n + (offset % 2) + (2 if name.startswith("judge") else 0))
            save_ratings(db, a["id"], {("empathy_doctor", -1): (str(score), None),
                                       ("realism_doctor", -1): (str(score), None)})
    out = bedside("analyze", "--study", "pilot", "--json", "--db", str(db_path),
                  home=tmp_path)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["judge"] == "judge:fake"
    items = {r["items"][0]["item"]: r["items"][0] for r in report["reports"]}
    assert {"empathy_doctor", "realism_doctor"} <= set(items)
    empathy = items["empathy_doctor"]
    assert empathy["agreement"]["alpha"]["value"] > 0.8
    diff = [s for s in json.dumps(empathy)]  # serialisable, no NaN
    assert "NaN" not in "".join(diff)
    text = bedside("analyze", "--study", "pilot", "--db", str(db_path), home=tmp_path)
    assert "Judge 'judge:fake'" in text.stdout


def test_analyze_unknown_study_is_one_line(tmp_path) -> None:
    out = bedside("analyze", "--study", "nope", "--db", str(tmp_path / "p.db"), home=tmp_path)
    assert out.returncode == 2 and "nope" in out.stderr
