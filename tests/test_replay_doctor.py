"""The replay doctor (`bedside run --doctor replay:FILE`): it says exactly a file's messages
for each case, in order, then `DIAGNOSIS READY:` with the line's diagnosis or none; a case's
own line wins over a glob; bad lines are one line naming file and line; the file's content
hash is recorded with each consultation, so a changed file is a new configuration and a run
whose file changed stops with a message; it works in batches, through the CLI and the
app's batch form."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input

from core.caseio import load_bundled_cases
from core.config import parse_agent, parse_config
from core.errors import InputError
from core.replay import load_replay
from db.store import open_store
from tests.app_support import wait_until
from tui.app.application import BedsideApp
from tui.app.screens.forms_batch import StartBatchScreen, parse_batch
from tui.app.screens.home import HomeScreen
from tui.app.screens.live import LiveScreen
from tui.cli import main

CARD = ["What brings you in today?", "REQUEST TEST: ECG, troponon",
        "Have you had any chest pain like this before?"]
EVERY = ["Do you smoke?", "REQUEST TEST: please provide the most recent examination details"]


def _write(path: Path, *lines: object) -> Path:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n"
                            for x in lines), encoding="utf-8")
    return path


def _doctor_turns(store, run_id: str) -> dict[str, tuple[list[str], str | None, str | None]]:
    out = {}
    for c in store.list_consultations(run_id=run_id):
        t = store.get_transcript(c.id)
        said = [turn.content for turn in t.turns if turn.role == "doctor"]
        out[c.case_id] = (said, c.diagnosis, c.end_reason)
    return out


def test_the_doctor_says_the_lines_in_order_then_its_diagnosis_or_none(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replay = _write(tmp_path / "r.jsonl",
                    {"case": "*", "say": EVERY},
                    {"case": "card-001", "say": CARD, "diagnosis": "Inferior STEMI"},
                    {"case": "CARD-*", "say": ["Any palpitations?"]})
    db = str(tmp_path / "x.db")
    assert main(["run", "--db", db, "--doctor", f"replay:{replay}", "--cases",
                 "card-001,card-002,pulm-001", "--max-turns", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    store = open_store(db)
    said = _doctor_turns(store, out["run_id"])
    # card-001's own line wins over both globs; card-002 matches '*' and 'CARD-*', and the
    # first of them in the file ('*') wins.
    assert said["card-001"] == (CARD + ["DIAGNOSIS READY: Inferior STEMI"], "Inferior STEMI",
                                "diagnosis")
    assert said["card-002"][0] == EVERY + ["DIAGNOSIS READY:"]
    assert said["pulm-001"][0] == EVERY + ["DIAGNOSIS READY:"]
    assert said["pulm-001"][1:] == (None, "diagnosis")  # ended with no diagnosis
    (row,) = out["results"]
    assert row["no_diagnosis"] == 2 and row["doctor_kind"] == "replay"
    # --max-turns does not cut a replay: the budget fits the longest line (3) + diagnosis.
    c = store.list_consultations(run_id=out["run_id"])[0]
    assert c.config["max_turns"] == 4
    assert c.config["doctor"]["script_hash"] == load_replay(replay).digest
    assert c.doctor.startswith("replay:r.jsonl@")


def test_globs_apply_in_file_order_and_a_case_line_beats_them(tmp_path: Path) -> None:
    script = load_replay(_write(tmp_path / "r.jsonl", {"case": "card-*", "say": ["a"]},
                                {"case": "*", "say": ["b"]}, {"case": "Card-002", "say": ["c"]}))
    assert [script.for_case(c).say for c in ("card-001", "card-002", "pulm-001")] == \
        [["a"], ["c"], ["b"]]


@pytest.mark.parametrize("lines, where, words", [
    (["{not json"], 1, "not JSON"),
    ([{"case": "card-001"}], 1, "field 'say'"),
    ([{"case": "card-001", "say": "hello"}], 1, "field 'say'"),
    ([{"case": "card-001", "say": ["hi"], "extra": 1}], 1, "field 'extra'"),
    ([{"case": "", "say": ["hi"]}], 1, "field 'case'"),
    (["[1, 2]"], 1, "JSON object"),
    ([{"case": "card-001", "say": ["hi"]}, "", {"case": "CARD-001", "say": ["x"]}], 3,
     "second line for 'CARD-001' (the first is line 1)"),
    ([{"case": "*", "say": ["hi", "DIAGNOSIS READY: flu"]}], 1, "field 'say.1'"),
    ([{"case": "*", "say": ["  "]}], 1, "an empty message"),
    ([{"case": "*", "say": ["q"] * 200}], 1, "at most 199"),
])
def test_a_bad_line_is_one_error_naming_file_and_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[object], where: int,
        words: str) -> None:
    replay = _write(tmp_path / "bad.jsonl", *lines)
    db = tmp_path / "x.db"
    assert main(["run", "--db", str(db), "--doctor", f"replay:{replay}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"bedside: {replay}:{where}: ") and words in err, err
    assert not db.exists() or open_store(db).list_runs() == []


def test_an_empty_missing_or_uncovering_file_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "x.db")
    empty = _write(tmp_path / "empty.jsonl", "")
    assert main(["run", "--db", db, "--doctor", f"replay:{empty}"]) == 2
    assert "no line in the replay file" in capsys.readouterr().err
    assert main(["run", "--db", db, "--doctor", f"replay:{tmp_path / 'nope.jsonl'}"]) == 2
    assert "cannot read the replay file" in capsys.readouterr().err
    assert main(["run", "--db", db, "--doctor", "replay:"]) == 2
    assert "replay:FILE" in capsys.readouterr().err
    some = _write(tmp_path / "some.jsonl", {"case": "card-001", "say": ["hi"]})
    assert main(["run", "--db", db, "--doctor", f"replay:{some}", "--cases", "card-00*"]) == 2
    err = capsys.readouterr().err
    assert "has no line for 2 case(s): card-002, card-003" in err and "'*'" in err
    with pytest.raises(InputError, match="only the doctor"):
        parse_agent(f"replay:{some}", "patient")


def test_a_changed_file_is_a_new_configuration_and_stops_a_run_begun_on_the_old(
        tmp_path: Path) -> None:
    import asyncio

    from core.usecases import runs

    replay = _write(tmp_path / "r.jsonl", {"case": "*", "say": ["Where does it hurt?"]})
    before = parse_config(f"replay:{replay}")
    _write(replay, {"case": "*", "say": ["Where does it hurt now?"]})
    after = parse_config(f"replay:{replay}")
    assert before.config_key() != after.config_key()
    assert before.doctor.script_hash != after.doctor.script_hash

    store = open_store(tmp_path / "x.db")
    cases = [c for c in load_bundled_cases() if c.id == "card-001"]
    spec = runs.create(store, cases, [after], concurrency=1)
    _write(replay, {"case": "*", "say": ["Something else entirely?"]})
    asyncio.run(runs.execute(store, spec))
    (c,) = store.list_consultations(run_id=spec.run_id)
    assert c.status == "failed" and "changed since this run began" in (c.error or "")


def test_the_app_batch_form_takes_a_replay_doctor(tmp_path: Path) -> None:
    replay = _write(tmp_path / "r.jsonl", {"case": "*", "say": CARD})
    ok = parse_batch("card-001", f"replay:{replay}", "1", "")
    assert not isinstance(ok, str) and ok.models == [f"replay:{replay}"]
    bad = parse_batch("card-001", f"replay:{tmp_path / 'nope.jsonl'}", "1", "")
    assert isinstance(bad, str) and "cannot read the replay file" in bad


async def test_a_replay_batch_started_in_the_app_says_the_file(tmp_path: Path) -> None:
    replay = _write(tmp_path / "r.jsonl", {"case": "*", "say": CARD})
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, LiveScreen))
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StartBatchScreen))
        app.screen.query_one("#batch-cases", Input).value = "card-001,pulm-001"
        app.screen.query_one("#batch-models", Input).value = f"replay:{replay}"
        await pilot.click("#batch-start")
        await wait_until(pilot, lambda: app.store.list_runs() != [])
        run_id = app.store.list_runs()[0].id
        await wait_until(pilot, lambda: app.store.get_run(run_id).status == "finished")
        said = _doctor_turns(app.store, run_id)
    assert set(said) == {"card-001", "pulm-001"}
    assert all(s[0] == CARD + ["DIAGNOSIS READY:"] for s in said.values())
