"""The physician at the keyboard is told plainly when a name is not a test the examiner
knows (the retrieval examiner's `strict_unknown`, wired for human doctors by the agent
factory); model and other non-human doctors keep AgentClinic's "normal readings" for every
named test the case does not hold."""

from __future__ import annotations

import json
from pathlib import Path

from tests.app_support import seed, wait_until
from tests.test_app_play import _start, _type
from tui.app.application import BedsideApp
from tui.cli import main


async def test_the_play_screen_says_plainly_that_a_name_is_no_test(tmp_path: Path) -> None:
    seed(tmp_path / "b.db")
    app = BedsideApp(tmp_path / "b.db")
    async with app.run_test(size=(80, 24)) as pilot:
        play = await _start(pilot, app, "p", name="dr-strict")
        await _type(pilot, "order", "sandwich, ferritin")
        await wait_until(pilot, lambda: play.turns_used == 1 and play.waiting)
        (answer,) = app.db["turns"].rows_where(
            "consultation_id = ? AND role = 'examiner'", [play.consultation_id])
    assert "sandwich: not a test I know" in answer["content"]
    assert "ferritin" in answer["content"].lower() and "normal" in answer["content"].lower()


def test_a_non_human_doctor_keeps_normal_readings_for_the_same_name(
        tmp_path: Path, capsys) -> None:
    replay = tmp_path / "r.jsonl"
    replay.write_text(json.dumps({"case": "*", "say": ["REQUEST TEST: sandwich"]}) + "\n",
                      encoding="utf-8")
    db = str(tmp_path / "x.db")
    assert main(["run", "--db", db, "--doctor", f"replay:{replay}", "--cases", "card-001",
                 "--json"]) == 0
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    from db.store import open_store

    store = open_store(db)
    (c,) = store.list_consultations(run_id=run_id)
    (answer,) = [t.content for t in store.get_transcript(c.id).turns if t.role == "examiner"]
    assert "normal" in answer.lower() and "not a test I know" not in answer
