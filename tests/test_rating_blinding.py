"""Blinding on the rating screen: nothing a rater must not see is held or painted.

The study below selects transcripts by model and run, so its definition names both; the
transcripts belong to a run whose configuration names other models; another rater has rated
(and commented on) the shared calibration transcript. The screen of rater 'alice' is then
searched — its own attributes, every widget's attributes and content, the footer, the titles
and the painted screen — for any of it.

Every secret holds a character that no hex address has: the attributes are searched through
their reprs, which carry memory addresses (0x7f3c02a0...), and a consultation id such as
'c02' once matched inside one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from rich.text import Text
from textual.widgets import Collapsible, Input, Static

from db.study_store import SqliteStudyStore
from tests.app_support import wait_until
from tests.test_rating_screen import _open
from tests.test_study_support import HOSTILE, SECRET_DOCTOR, SECRET_VERDICT, make_study, seed_db
from tui.app.rating.screen import RatingApp

RUN_ID = "run-SECRET-4242"
CONFIG_MODEL = "openai/secret-config-model"
OTHERS = ("quentin-other", "ursula-other")
OTHER_COMMENT = "OTHER-RATER-COMMENT-77"
CONSULTATION_IDS = "consult-SECRET-"  # never 'c02': that can be part of a hex address

STUDY = f"""\
name = "blind"
instructions = "Rate each consultation carefully."
raters = ["alice", "{OTHERS[0]}", "{OTHERS[1]}"]
overlap = 2
calibration = 1
seed = 11

[select]
models = ["{SECRET_DOCTOR}"]
runs = ["{RUN_ID}"]
"""


def _seed(tmp_path: Path):
    from db.runs import create_run

    db = seed_db(tmp_path / "s.db", id_prefix=CONSULTATION_IDS)
    store = SqliteStudyStore(db)
    config = {"doctor": {"kind": "llm", "model": CONFIG_MODEL}, "config_key": "cfg-SECRET-KEY"}
    create_run(db, config=config, provenance={"host": "lab"}, run_id=RUN_ID)
    db.execute("UPDATE consultations SET run_id = ?, config = ?, config_key = ?",
               [RUN_ID, json.dumps(config), "cfg-SECRET-KEY"])
    sid = make_study(db, tmp_path, STUDY)
    other = store.get_rater(OTHERS[0]).id
    a = store.next_assignment(sid, other)
    store.save_ratings(a.id, {("realism_doctor", -1): ("3", OTHER_COMMENT),
                              ("realism_patient", -1): ("3", None),
                              ("realism_examiner", -1): ("3", None),
                              ("empathy_doctor", -1): ("3", None)})
    return db, sid


def _content(widget) -> str:
    """What a widget would paint, as plain text."""
    parts = []
    if isinstance(widget, Static):
        content = widget.content
        parts.append(content.plain if isinstance(content, Text) else str(content))
    if isinstance(widget, Input):
        parts.append(widget.value)
    if isinstance(widget, Collapsible):
        parts.append(widget.title)
    for attr in ("description", "tooltip"):  # footer keys, anything with a tooltip
        value = getattr(widget, attr, None)
        if isinstance(value, str):
            parts.append(value)
    return "\n".join(parts)


async def test_screen_holds_and_shows_nothing_a_rater_must_not_see(tmp_path: Path) -> None:
    db, sid = _seed(tmp_path)
    app = RatingApp(tmp_path / "s.db", "blind", "alice")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await _open(pilot, app)
        await pilot.press("r")  # open the case record so that its text is painted too
        await wait_until(pilot, lambda: not screen.query_one("#reference", Collapsible).collapsed)
        cid = db["assignments"].get(screen.item.assignment_id)["consultation_id"]
        case_id = db["consultations"].get(cid)["case_id"]
        # alice starts with the calibration transcript the other rater already rated
        store = SqliteStudyStore(db)
        assert store.find_assignment(sid, store.get_rater(OTHERS[0]).id, cid)
        widgets = list(screen.walk_children(with_self=False))
        held = repr(vars(screen)) + "".join(repr(vars(w)) for w in widgets)
        shown = "\n".join(_content(w) for w in widgets)
        titles = " ".join(str(x) for x in (app.title, app.sub_title, screen.title,
                                           screen.sub_title))
        painted = app.export_screenshot()
        secrets = (SECRET_DOCTOR, CONFIG_MODEL, SECRET_VERDICT, RUN_ID, "cfg-SECRET-KEY",
                   case_id, cid, *OTHERS, OTHER_COMMENT)
        assert cid.startswith(CONSULTATION_IDS)
        for secret in secrets:
            # a secret made of hex digits alone could match a memory address in a repr
            assert re.search(r"[^0-9a-fA-Fx]", secret), f"{secret!r} could be part of an address"
            for where, text in (("held", held), ("shown", shown), ("titles", titles),
                                ("painted", painted)):
                assert secret not in text, f"{secret!r} is {where} by the rating screen"
        assert "correct" not in (shown + titles).lower()  # no verdict, no correctness
        # what the screen is given: the rater-safe view and the blinded item
        assert set(type(screen.view).model_fields) == {"study", "instructions", "rubric",
                                                       "show_truth"}
        assert not hasattr(screen, "definition")
        # the case record is there as the reference, without the diagnosis (show_truth off)
        assert "Patient record" in shown and "Correct diagnosis" not in shown


async def test_untrusted_text_is_rendered_literally(tmp_path: Path) -> None:
    db = seed_db(tmp_path / "s.db")
    make_study(db, tmp_path)
    app = RatingApp(tmp_path / "s.db", "pilot", "carol")
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await _open(pilot, app)
        patient = [w for w in screen.query(".patient") if isinstance(w, Static)][0]
        plain = patient.content.plain
        # markup and escapes show as typed (ESC as a visible control picture)
        assert "[bold red]I feel awful[/]" in plain and "\u241b[31mred" in plain
        assert HOSTILE.split("\x1b")[0] in plain
