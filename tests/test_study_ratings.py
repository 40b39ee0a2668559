"""Ratings store, judge, export/import and the study CLI (headless)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from annotation.assignment import load_definition
from annotation.blinding import blind_item
from annotation.exchange import export_rows
from annotation.judge import judge_name, parse_answer, prompt_hash, run_judge, user_prompt
from core.errors import InputError, ModelError
from db.connection import open_db
from db.study_store import SqliteStudyStore
from tests.test_study_support import SECRET_DOCTOR, SECRET_VERDICT, make_study, seed_db
from tui.cli import main

FULL = {("realism_doctor", -1): ("7", None), ("realism_patient", -1): ("6", None),
        ("realism_examiner", -1): ("5", None), ("empathy_doctor", -1): ("4", "warm")}


@pytest.fixture
def study(tmp_path: Path):
    store = SqliteStudyStore(seed_db(tmp_path / "s.db"))
    sid = make_study(store.db, tmp_path)
    return store, sid, store.get_rater("alice").id


def test_edit_keeps_earlier_value_in_history_and_undo_is_a_stack(study) -> None:
    store, sid, alice = study
    db = store.db
    a = store.next_assignment(sid, alice).id
    store.save_ratings(a, FULL, at="2025-01-01T10:00:00.000Z")
    store.save_ratings(a, {("realism_doctor", -1): ("9", None)},
                       at="2025-01-01T10:05:00.000Z")
    history = [h for h in store.rating_history(a) if h.prev_value == "7"]
    assert [(h.action, h.value, h.at) for h in history] == [
        ("edit", "9", "2025-01-01T10:05:00.000Z")]
    row = db["ratings"].get(history[0].rating_id)
    assert (row["created_at"], row["updated_at"]) == ("2025-01-01T10:00:00.000Z",
                                                      "2025-01-01T10:05:00.000Z")
    undone = store.undo_last(sid, alice)
    assert undone.values == {("realism_doctor", -1): ("9", None)}
    assert store.assignment_ratings(a)[("realism_doctor", -1)] == ("7", None)
    undone = store.undo_last(sid, alice)
    assert undone.assignment_id == a and store.assignment_ratings(a) == {}
    assert store.get_assignment(a).status == "pending"
    assert store.undo_last(sid, alice) is None
    # nothing is forgotten: every step is in the history
    assert len(store.rating_history(a)) == 4 + 1 + 1 + 4


def test_undo_then_save_again_keeps_one_rating_with_continuous_history(study) -> None:
    store, sid, alice = study
    db = store.db
    a = store.next_assignment(sid, alice).id
    store.save_ratings(a, FULL, at="2025-01-01T10:00:00.000Z")
    rid = db.execute("SELECT id FROM ratings WHERE assignment_id = ? AND item ="
                     " 'realism_doctor'", [a]).fetchone()[0]
    store.undo_last(sid, alice)
    store.save_ratings(a, {**FULL, ("realism_doctor", -1): ("8", None)})
    # the same rating row, and its history reads set → undo → set with the values in between
    assert db.execute("SELECT count(*) FROM ratings WHERE assignment_id = ? AND item ="
                      " 'realism_doctor'", [a]).fetchone()[0] == 1
    assert db["ratings"].get(rid)["value"] == "8"
    steps = [(h.action, h.prev_value, h.value) for h in store.rating_history(a)
             if h.rating_id == rid]
    assert steps == [("set", None, "7"), ("undo", "7", None), ("set", None, "8")]
    assert db["ratings"].get(rid)["created_at"] == "2025-01-01T10:00:00.000Z"


def test_undone_answers_are_prefilled_from_history_even_after_two_undos(study) -> None:
    store, sid, alice = study
    first = store.next_assignment(sid, alice).id
    store.save_ratings(first, FULL)
    second = store.next_assignment(sid, alice).id
    other = {**FULL, ("realism_doctor", -1): ("2", None), ("patient_honesty", 2): ("no", "x")}
    store.save_ratings(second, other)
    assert store.undo_last(sid, alice).assignment_id == second
    assert store.undo_last(sid, alice).assignment_id == first
    # both are unrated again, and both still offer what had been saved
    assert store.assignment_ratings(first) == store.assignment_ratings(second) == {}
    assert store.form_answers(first) == FULL
    assert store.form_answers(second) == other
    assert store.next_assignment(sid, alice).id == first
    # an edit that is undone shows the undone value; the stored value is the earlier one
    store.save_ratings(first, FULL)
    store.save_ratings(first, {("realism_doctor", -1): ("9", None)})
    store.undo_last(sid, alice)
    assert store.assignment_ratings(first)[("realism_doctor", -1)] == ("7", None)
    assert store.form_answers(first)[("realism_doctor", -1)] == ("9", None)


def test_skip_needs_a_reason_and_can_be_undone(study) -> None:
    store, sid, alice = study
    a = store.next_assignment(sid, alice).id
    with pytest.raises(InputError, match="reason"):
        store.skip(a, "  ")
    store.skip(a, "garbled")
    assert store.next_assignment(sid, alice).id != a
    assert store.undo_last(sid, alice).kind == "skip"
    assert store.next_assignment(sid, alice).id == a


def test_progress_estimates_time_from_gaps_between_saves(study) -> None:
    store, sid, alice = study
    items = [x.id for x in store.assignments(sid, alice)]
    # saves at 0, 60 and 180 s: gaps 60 and 120, median 90 s per item
    for aid, t in zip(items, ("10:00:00", "10:01:00", "10:03:00"), strict=False):
        store.save_ratings(aid, FULL, at=f"2025-01-01T{t}.000Z")
    p = store.progress(sid, alice)
    assert (p.finished, p.total) == (3, len(items))
    assert p.seconds_left == 90 * (len(items) - 3)


def test_concurrent_raters_from_threads_lose_nothing(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    sid = make_study(db, tmp_path)
    errors: list[BaseException] = []

    def work(name: str) -> None:
        try:
            cstore = SqliteStudyStore(open_db(tmp_path / "s.db"))  # one connection per thread
            rid = cstore.get_rater(name).id
            while (a := cstore.next_assignment(sid, rid)) is not None:
                cstore.save_ratings(a.id, FULL)
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=work, args=(n,)) for n in ("alice", "bob", "carol")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert db["ratings"].count == db["assignments"].count * 4


# -- judge ----------------------------------------------------------------------------------

def _good(turn_honesty: str = "yes") -> str:
    return json.dumps({"transcript": {"realism_doctor": 6, "realism_patient": "7",
                                      "realism_examiner": 8, "empathy_doctor": 5},
                       "turns": {"2": {"patient_honesty": turn_honesty}}})


class Scripted:
    """A fake model: returns queued answers and records the messages it got."""

    def __init__(self, answers: list) -> None:
        self.answers, self.calls = list(answers), []

    async def __call__(self, messages, **params) -> str:
        self.calls.append((messages, params))
        answer = self.answers.pop(0) if self.answers else _good()
        if isinstance(answer, Exception):
            raise answer
        return answer


async def test_judge_rates_retries_and_records_failures(study) -> None:
    store, sid, _ = study
    db = store.db
    n = len(store.study_consultations(sid))
    fake = Scripted(["not json at all", "```json\n" + _good("no") + "\n```",
                     '{"transcript": {"realism_doctor": 11}}', "{}", "{}",
                     ModelError("rate limited")])
    steps = []
    summary = await run_judge(store, "pilot", "fake/model", fake, params={"temperature": 0},
                              on_step=steps.append)
    assert (summary.rated, summary.failed) == (n - 2, 2)
    definition = load_definition(store.get_study("pilot"))
    phash = prompt_hash(definition)
    assert summary.rater == judge_name("fake/model", {"temperature": 0}, phash)
    assert summary.rater.startswith("judge:fake/model#")
    judge = store.get_rater(summary.rater)
    assert judge.kind == "judge" and judge.model == "fake/model"
    assert judge.params == {"temperature": 0} and judge.prompt_hash == phash
    # one progress step per transcript, in order, with its outcome
    assert [(s.done, s.total) for s in steps] == [(i, n) for i in range(1, n + 1)]
    assert [s.status for s in steps][:3] == ["ok", "failed", "failed"]
    assert steps[2].error == "rate limited"
    calls = list(db["judge_calls"].rows_where(order_by="rowid"))
    assert [c["status"] for c in calls][:3] == ["ok", "failed", "failed"]
    assert calls[0]["attempts"] == 2 and calls[1]["attempts"] == 3
    assert calls[1]["error"].startswith("missing answers") and calls[1]["raw_response"] == "{}"
    assert calls[2]["error"] == "rate limited"
    assert {c["prompt_hash"] for c in calls} == {phash}
    # the judge saw the rubric and instructions but nothing a rater must not see
    system, user = fake.calls[0][0][0]["content"], fake.calls[0][0][1]["content"]
    assert "Rate each consultation carefully." in system and "realism_doctor" in system
    for secret in (SECRET_DOCTOR, SECRET_VERDICT):
        assert secret not in system + user
    # a second run with the same settings only redoes the failed ones
    again = await run_judge(store, "pilot", "fake/model", Scripted([]), params={"temperature": 0})
    assert (again.rated, again.already) == (2, n - 2) and again.rater == summary.rater


async def test_judge_settings_are_its_identity_and_never_relabelled(study) -> None:
    store, sid, _ = study
    n = len(store.study_consultations(sid))
    cool = await run_judge(store, "pilot", "fake/model", Scripted([]),
                           params={"temperature": 0.3, "seed": 5})
    warm = await run_judge(store, "pilot", "fake/model", Scripted([]),
                           params={"temperature": 0.9, "seed": 5})
    # another temperature is another rater that rates everything itself
    assert cool.rater != warm.rater and (cool.rated, warm.rated) == (n, n)
    stored = {r.name: r.params for r in store.study_raters(sid) if r.kind == "judge"}
    assert stored == {cool.rater: {"temperature": 0.3, "seed": 5},
                      warm.rater: {"temperature": 0.9, "seed": 5}}
    # the export says with which settings each judge rating was made
    rows = [r for r in export_rows(store, "pilot") if r.rater == cool.rater]
    assert rows and {json.dumps(r.judge_params, sort_keys=True) for r in rows} == {
        '{"seed": 5, "temperature": 0.3}'}
    assert {r.judge_model for r in rows} == {"fake/model"}
    assert {r.judge_prompt_hash for r in rows} == {
        prompt_hash(load_definition(store.get_study(sid)))}
    # a rater's settings cannot be rewritten behind its back
    with pytest.raises(InputError, match="other settings"):
        store.ensure_rater(cool.rater, "judge", model="fake/model",
                           params={"temperature": 0.9, "seed": 5}, prompt_hash="x")
    with pytest.raises(InputError, match="is a judge rater, not a human"):
        store.ensure_rater(cool.rater, "human")


async def test_judge_is_told_when_there_is_no_case_record(study) -> None:
    store, sid, alice = study
    item = blind_item(store, store.next_assignment(sid, alice))
    rubric = load_definition(store.get_study(sid)).effective_rubric()
    assert "CASE RECORD (patient)" in user_prompt(item, rubric)
    blinded = item.model_copy(update={"reference": None})
    assert "CASE RECORD: not available" in user_prompt(blinded, rubric)


def test_parse_answer_is_tolerant_of_near_misses(study) -> None:
    store, sid, alice = study
    item = blind_item(store, store.next_assignment(sid, alice))
    rubric = load_definition(store.get_study(sid)).effective_rubric()
    flat = ('Here you go: {"realism_doctor": 6, "realism_patient": 7, "realism_examiner": 8,'
            ' "empathy_doctor": 5}')
    assert parse_answer(flat, rubric, item)[("realism_doctor", -1)] == "6"
    keyed = json.dumps({"transcript": {"realism_doctor": 6, "realism_patient": 7,
                                       "realism_examiner": 8, "empathy_doctor": 5},
                        "turns": {"turn 2": {"patient_honesty": "No"}}})
    assert parse_answer(keyed, rubric, item)[("patient_honesty", 2)] == "no"


def test_parse_answer_rejects_wrong_units(study) -> None:
    store, sid, alice = study
    item = blind_item(store, store.next_assignment(sid, alice))
    rubric = load_definition(store.get_study(sid)).effective_rubric()
    bad = json.dumps({"transcript": {"realism_doctor": 5, "realism_patient": 5,
                                     "realism_examiner": 5, "empathy_doctor": 5},
                      "turns": {"1": {"patient_honesty": "yes"}}})
    with pytest.raises(ValueError, match="not an item for turn 1"):
        parse_answer(bad, rubric, item)


# -- CLI ------------------------------------------------------------------------------------

def test_cli_create_list_export_import(tmp_path: Path, capsys) -> None:
    db = seed_db(tmp_path / "c.db")
    db.close()
    f = tmp_path / "s.yaml"
    f.write_text("name: cli\nraters: [a, b]\noverlap: 1\n", encoding="utf-8")
    base = ["--db", str(tmp_path / "c.db")]
    assert main([*base, "study", "create", str(f)]) == 0
    assert "study 'cli' created: 6 transcripts" in capsys.readouterr().out
    assert main([*base, "study", "list"]) == 0
    assert "cli\t2 raters\t0/6 rated" in capsys.readouterr().out
    out = tmp_path / "r.jsonl"
    assert main([*base, "ratings", "export", "--study", "cli", "--format", "jsonl",
                 "-o", str(out)]) == 0
    assert main([*base, "ratings", "import", str(out)]) == 0
    assert main([*base, "ratings", "export", "--study", "nope"]) == 2
    assert "no study 'nope'" in capsys.readouterr().err
    f.write_text("name: cli2\nraters: [a]\noverlap: 2\n", encoding="utf-8")
    assert main([*base, "study", "create", str(f)]) == 2
    # The line of the field at fault (issue 16: study-file errors name their line).
    assert "s.yaml:3: field 'overlap': overlap 2 needs" in capsys.readouterr().err
