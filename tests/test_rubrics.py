"""Built-in rubrics, versioned (issue 13 items 3-4): the default rubric's v2 adds AI
Hospital's doctor consistency (1-3, per transcript) while studies stored before keep theirs;
`aihospital-report` lets clinicians grade the report's five parts A-D, raters see the
report they grade, the LLM judge rates with that rubric, and `bedside analyze` compares
the report judge of `bedside score` with the clinicians (through the real engine, SQLite and
the local OpenAI-compatible server)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from annotation.assignment import create_study, load_definition
from annotation.blinding import blind_item, blind_turns, rating_units
from annotation.rubric_default import builtin_rubric, default_rubric
from annotation.study import load_study_file, parse_study
from core.errors import InputError
from core.transcript import EndReason, FinalReport, Role, Transcript, Turn
from db.connection import open_db
from db.study_store import SqliteStudyStore
from tests.fake_openai_server import METRIC_ROLES, FakeOpenAIServer
from tests.test_judges import CASES, GRADES, PARTS, cli, judge_replies
from tests.test_study_support import STUDY_TOML, make_study, seed_db


def test_default_rubric_v2_adds_doctor_consistency_and_v1_stays() -> None:
    v2, v1 = default_rubric(), builtin_rubric("default/v1")
    item = v2.item("doctor_consistency")
    assert v2.name == "default/v2" and v1.name == "default/v1"
    assert item is not None and (item.kind, item.unit, item.min, item.max) == (
        "scale", "transcript", 1, 3)
    assert v1.item("doctor_consistency") is None
    assert [i.id for i in v2.items if i.id != "doctor_consistency"] == [i.id for i in v1.items]
    with pytest.raises(ValueError, match="no built-in rubric 'nope'"):
        builtin_rubric("nope")


def test_a_study_stored_before_keeps_its_rubric(tmp_path: Path) -> None:
    """A study made before v2 stored the v1 items whole (and no rubric name): it still
    loads, and its raters are not asked the new question; a new study is."""
    db = seed_db(tmp_path / "s.db", n=3)
    old_id = make_study(db, tmp_path)
    store = SqliteStudyStore(db)
    stored = json.loads(db.execute("SELECT definition FROM studies WHERE id = ?",
                                   [old_id]).fetchone()[0])
    stored["rubric"] = {"items": builtin_rubric("default/v1").model_dump(mode="json")["items"]}
    db.execute("UPDATE studies SET definition = ? WHERE id = ?", [json.dumps(stored), old_id])
    db.conn.commit()
    old = load_definition(store.get_study(old_id)).effective_rubric()
    assert old.name is None and old.item("doctor_consistency") is None
    new = load_definition(store.get_study(make_study(
        db, tmp_path, STUDY_TOML.replace('"pilot"', '"pilot2"').format(
            doctor="secret-model-9000")))).effective_rubric()
    assert new.name == "default/v2" and new.item("doctor_consistency") is not None


def test_a_study_file_names_a_builtin_rubric(tmp_path: Path) -> None:
    text = 'name = "r"\nraters = ["a", "b"]\nrubric = "aihospital-report"\n'
    d = parse_study(text, "s.toml")
    assert d.effective_rubric().name == "aihospital-report/v1"
    assert [i.id for i in d.effective_rubric().items] == [*PARTS, "comment"]
    assert parse_study(text.replace("aihospital-report", "default/v1"),
                       "s.toml").effective_rubric().item("doctor_consistency") is None
    with pytest.raises(InputError) as err:
        parse_study(text.replace("aihospital-report", "nope"), "s.toml")
    assert str(err.value).startswith("s.toml:3: field 'rubric'")
    assert "no built-in rubric 'nope'" in str(err.value)


def _transcript(report: FinalReport | None, turns_text: list[str]) -> Transcript:
    turns = [Turn(index=i, role=Role.DOCTOR if i % 2 == 0 else Role.PATIENT,
                  kind="question" if i % 2 == 0 else "answer", content=text)
             for i, text in enumerate(turns_text)]
    return Transcript(case_id="x", turns=turns, report=report,
                      end_reason=EndReason.DIAGNOSIS)


def test_raters_see_the_report_they_grade() -> None:
    form = FinalReport(diagnostic_results="Acute appendicitis", rationale="RIF guarding",
                       treatment_plan="Appendicectomy")
    # A physician's diagnosis form: its report has no turn of its own → one more doctor turn.
    turns = blind_turns(_transcript(form, ["Where is the pain?", "Lower right",
                                           "DIAGNOSIS READY: Acute appendicitis"]))
    assert [(t.index, t.role, t.kind) for t in turns][-1] == (3, "doctor", "report")
    assert turns[-1].content == ("Diagnostic results: Acute appendicitis\nDiagnostic "
                                 "rationale: RIF guarding\nTreatment plan: Appendicectomy")
    # A report turn stored as JSON (scripted and human doctors) is written out as parts.
    t = _transcript(form, ["DIAGNOSIS READY: Acute appendicitis"])
    t.turns.append(Turn(index=1, role=Role.DOCTOR, kind="report",
                        content=form.model_dump_json()))
    shown = blind_turns(t)
    assert len(shown) == 2 and shown[1].content.startswith("Diagnostic results: Acute")
    # Every part already said in a turn (a one-step answer): nothing added.
    said = _transcript(FinalReport(diagnostic_results="Acute appendicitis"),
                       ["DIAGNOSIS READY: Acute appendicitis"])
    assert len(blind_turns(said)) == 1


HUMAN = {"alice": "judge-a", "bob": "judge-b"}  # whose grades each clinician gives


def _grade_as(judge: str, text: str) -> dict[str, int]:
    letters = next(g[judge] for name, g in GRADES.items() if name in text)
    return {p: "DCBA".index(x) + 1 for p, x in zip(PARTS, letters, strict=True)}


def replies(body: dict[str, Any], n: int) -> str:
    """Report judges as in test_judges; the reader-study judge grades as judge A would."""
    text = json.dumps(body.get("messages", []))
    if "You are rating a transcript" in text:
        return json.dumps({"transcript": _grade_as("judge-a", text)})
    return judge_replies(body, n)


def test_clinicians_grade_reports_and_analyze_compares_the_report_judge(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "r.db")
    code, out, _ = cli(capsys, "run", "--db", db, "--cases", CASES, "--final-report",
                       "--json")
    run_id = json.loads(out)["run_id"]
    study = tmp_path / "report.toml"
    study.write_text(f'name = "reports"\nraters = ["alice", "bob"]\noverlap = 2\n'
                     f'show_truth = true\nrubric = "aihospital-report"\n'
                     f'[select]\nruns = ["{run_id}"]\n', encoding="utf-8")
    assert cli(capsys, "study", "create", str(study), "--db", db)[0] == 0
    store = SqliteStudyStore(open_db(db))
    sid = store.get_study("reports").id
    for name, judge in HUMAN.items():  # each clinician grades every report
        rater = store.get_rater(name)
        for a in store.assignments(sid, rater.id):
            item = blind_item(store, a, True)
            report = item.turns[-1]
            assert (report.role, report.kind) == ("doctor", "report")
            assert report.content.startswith("Symptoms: ")  # written out, not JSON
            assert item.reference is not None and item.reference.treatment
            grades = _grade_as(judge, item.reference.truth or "")
            store.save_ratings(a.id, {(p, -1): (str(g), None) for p, g in grades.items()})
    with FakeOpenAIServer(replies=dict.fromkeys(METRIC_ROLES, replies)) as server:
        base = ["--api-base", server.base_url, "--retries", "0"]
        assert cli(capsys, "score", "--db", db, "--run", run_id, "--judge",
                   "openai/judge-a", *base)[0] == 0
        code, out, _ = cli(capsys, "judge", "--db", db, "--study", "reports", "--model",
                           "openai/reader", *base)
        assert code == 0 and "4 rated, 0 failed" in out
        reader = out.split(": ")[0]
        asked = [b for b in server.requests if "You are rating" in json.dumps(b)]
        prompt = json.dumps(asked[0])
        assert "Diagnostic rationale: " in prompt and "RECORD'S TREATMENT" in prompt
    # The report judge of `bedside score`, named by its model, against the two clinicians.
    code, out, err = cli(capsys, "analyze", "--db", db, "--study", "reports", "--judge",
                         "openai/judge-a", "--json", "--bootstrap", "0")
    assert code == 0, err
    report = json.loads(out)
    assert report["judge"].startswith("judge:openai/judge-a#")
    (scales,) = [r for r in report["reports"] if r["level"] == "ordinal"]
    items = {i["item"]: i for i in scales["items"]}
    assert set(items) == set(PARTS)
    # Alice gives judge A's grades: the judge's accuracy against her is exact; Bob differs
    # from both on the rationale only (3 of 4 reports one step lower).
    assert items["symptoms"]["agreement"]["percent_exact"]["value"] == 1.0
    assert items["rationale"]["agreement"]["percent_exact"]["value"] == 0.25
    assert items["symptoms"]["judge"] is not None and scales["overall"] is not None
    # The reader-study judge (bedside judge, same rubric) is a rater of the study as well.
    code, out, _ = cli(capsys, "analyze", "--db", db, "--study", "reports", "--judge",
                       reader, "--bootstrap", "0", "--json")
    assert code == 0 and json.loads(out)["judge"] == reader


def test_study_rubric_in_the_study_file_example(tmp_path: Path) -> None:
    d = load_study_file(Path("annotation/examples/report_study.toml"))
    assert d.effective_rubric().name == "aihospital-report/v1" and d.show_truth
    db = seed_db(tmp_path / "e.db", n=2)
    stored = load_definition(create_study(SqliteStudyStore(db), d.model_copy(
        update={"select": d.select.model_copy(update={"runs": [], "sample": None})})))
    assert stored.rubric is not None and stored.rubric.name == "aihospital-report/v1"
    units = rating_units(stored.effective_rubric(), [])
    assert [i.id for i, _ in units] == [*PARTS, "comment"]


def test_the_study_form_takes_a_builtin_rubric_by_name(tmp_path: Path) -> None:
    from tui.app.screens.study_form import build_definition

    d = build_definition({"name": "f", "raters": "a, b", "rubric": "aihospital-report"})
    assert d.effective_rubric().name == "aihospital-report/v1"
    with pytest.raises(InputError, match="cannot read a rubric"):
        build_definition({"name": "f", "raters": "a, b", "rubric": str(tmp_path / "none")})
