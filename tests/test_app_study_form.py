"""Functional tests of the new-study form (a modal returning the created study)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Checkbox, DataTable, Input, Static, TabbedContent, TextArea

from core.errors import InputError
from tests.app_support import home_loaded
from tests.test_study_support import SECRET_DOCTOR, seed_db
from tui.app.application import BedsideApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.study_form import StudyFormScreen, build_definition




def _fill(screen: StudyFormScreen, **values: str) -> None:
    for key, value in values.items():
        screen.query_one(f"#study-{key}", Input).value = value


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
async def test_s_creates_a_study_and_the_studies_tab_shows_it(tmp_path: Path, size) -> None:
    seed_db(tmp_path / "s.db", n=6).conn.close()
    app = BedsideApp(tmp_path / "s.db")
    async with app.run_test(size=size) as pilot:
        home = await home_loaded(pilot)
        await pilot.press("s")
        form = app.screen
        assert isinstance(form, StudyFormScreen)
        _fill(form, name="pilot-app", raters="alice, bob, carol", overlap="2",
              calibration="1", seed="3", models=SECRET_DOCTOR, sample="4")
        form.query_one("#study-instructions", TextArea).text = "Rate [bold]carefully[/]."
        form.query_one("#study-show_truth", Checkbox).value = True
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert home.query_one(TabbedContent).active == "studies"
        table = home.query_one("#studies-table", DataTable)
        assert table.row_count == 1
        from db.studies import StudyRepository

        study = StudyRepository(app.db).get_study("pilot-app")
        d = study.definition
        assert d["raters"] == ["alice", "bob", "carol"] and d["overlap"] == 2
        assert d["calibration"] == 1 and d["seed"] == 3 and d["show_truth"] is True
        assert d["select"]["sample"] == 4 and d["select"]["models"] == [SECRET_DOCTOR]
        assert d["instructions"] == "Rate [bold]carefully[/]."
        assert d["rubric"]["items"]  # the default rubric, spelled out
        assert len(StudyRepository(app.db).study_consultations(study.id)) == 4
        n = app.db.execute("SELECT count(*) FROM assignments WHERE study_id = ?",
                           [study.id]).fetchone()[0]
        assert n == 3 * 1 + 3 * 2  # calibration for all + 3 others twice each


async def test_invalid_values_stay_in_the_form_as_one_line(tmp_path: Path) -> None:
    seed_db(tmp_path / "s.db", n=3).conn.close()
    app = BedsideApp(tmp_path / "s.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await home_loaded(pilot)
        app.ask_new_study()
        await pilot.pause()
        form = app.screen
        assert isinstance(form, StudyFormScreen)
        error = form.query_one("#study-error", Static)
        _fill(form, name="bad name", raters="alice")
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, StudyFormScreen)
        shown = str(error.render())
        assert "field 'name'" in shown and "\n" not in shown
        _fill(form, name="ok", raters="alice", overlap="2")
        await pilot.press("ctrl+s")
        assert "overlap 2 needs at least 2 raters" in str(error.render())
        _fill(form, name="ok", raters="alice, bob", models="no-such-model")
        await pilot.press("ctrl+s")
        assert "field 'select'" in str(error.render())
        _fill(form, models="", rubric=str(tmp_path / "missing.yaml"))
        await pilot.press("ctrl+s")
        assert "missing.yaml" in str(error.render()) and "field 'rubric'" in str(error.render())
        assert app.db.execute("SELECT count(*) FROM studies").fetchone()[0] == 0
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)
        assert app.db.execute("SELECT count(*) FROM studies").fetchone()[0] == 0


async def test_duplicate_name_is_refused_and_enter_submits(tmp_path: Path) -> None:
    seed_db(tmp_path / "s.db", n=3).conn.close()
    app = BedsideApp(tmp_path / "s.db")
    async with app.run_test(size=(120, 40)) as pilot:
        await home_loaded(pilot)
        for _attempt in range(2):
            app.ask_new_study()
            await pilot.pause()
            form = app.screen
            _fill(form, name="twice", raters="alice, bob")
            form.query_one("#study-name", Input).focus()
            await pilot.press("enter")
            await pilot.pause()
        assert isinstance(app.screen, StudyFormScreen)
        assert "already exists" in str(app.screen.query_one("#study-error").render())
        assert app.db.execute("SELECT count(*) FROM studies").fetchone()[0] == 1


def test_build_definition_names_the_field(tmp_path: Path) -> None:
    good = build_definition({"name": "p1", "raters": "a, b", "overlap": "2", "calibration": "0",
                             "seed": "0", "sources": "bedside, x", "sample": ""})
    assert good.select.sources == ["bedside", "x"] and good.select.sample is None
    assert good.rubric is None  # the default rubric is filled in when the study is stored
    with pytest.raises(InputError) as err:
        build_definition({"name": "p1", "raters": "a", "overlap": "two"})
    assert err.value.field == "overlap"
    with pytest.raises(InputError) as err:
        build_definition({"name": "p1", "raters": "a, a", "overlap": "1"})
    assert err.value.field == "raters"
    with pytest.raises(InputError) as err:
        build_definition({"name": "p1", "raters": "a", "overlap": "1", "sample": "0"})
    assert err.value.field == "select.sample"
    rubric = tmp_path / "r.yaml"
    rubric.write_text("items:\n  - {id: clarity, label: Is it clear, kind: scale, min: 1, max: 5}\n")
    d = build_definition({"name": "p1", "raters": "a", "overlap": "1", "rubric": str(rubric)})
    assert d.rubric is not None and d.rubric.items[0].id == "clarity"
    rubric.write_text("items:\n  - {id: Bad, label: x, kind: scale}\n")
    with pytest.raises(InputError) as err:
        build_definition({"name": "p1", "raters": "a", "overlap": "1", "rubric": str(rubric)})
    assert err.value.field == "rubric.items.0.id" and str(rubric) in str(err.value)
