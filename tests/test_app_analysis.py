"""Functional tests of the analysis screen: a rated study, a CSV file, a bad CSV file."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable, Input, Select, Static

from db.studies import add_assignments, assignments, ensure_rater, get_rater, save_ratings
from tests.test_study_support import make_study, seed_db
from tui.app import BedsideApp
from tui.screens.analysis import AnalysisScreen, item_views, unit_pairs
from tui.screens.home import HomeScreen
from tui.widgets.plots import bland_altman, distribution, scatter, strip_ansi

# Krippendorff (2011): 4 observers x 12 units; interval alpha = 0.849 (published).
K2011 = {"A": "1 2 3 3 2 1 4 1 2 . . .", "B": "1 2 3 3 2 2 4 1 2 5 . 3",
         "C": ". 3 3 3 2 3 4 2 2 5 1 .", "D": "1 2 3 3 2 4 4 1 2 5 1 ."}


def _rated_study(path: Path, tmp_path: Path) -> None:
    """The pilot study, rated by three humans (who agree) and a lenient judge (+2)."""
    db = seed_db(path, n=6)
    study_id = make_study(db, tmp_path)
    judge_id = ensure_rater(db, "judge:fake", "judge", model="openai/fake")
    add_assignments(db, study_id, judge_id, [(f"c{i:02d}", False) for i in range(6)])
    for offset, name in enumerate(["alice", "bob", "carol", "judge:fake"]):
        for a in assignments(db, study_id, get_rater(db, name)["id"]):
            n = int(a["consultation_id"][1:])
            score = min(10, 2 + n + (offset % 2) + (2 if name.startswith("judge") else 0))
            save_ratings(db, a["id"], {("empathy_doctor", -1): (str(score), None),
                                       ("patient_relevance_overall", -1):
                                           ("yes" if n % 2 else "no", None)})
    db.conn.close()


async def _home(pilot) -> HomeScreen:
    for _ in range(200):
        await pilot.pause(0.05)
        if isinstance(pilot.app.screen, HomeScreen) and pilot.app.screen.cases:
            return pilot.app.screen
    raise AssertionError("home screen did not load")


async def _views(pilot, screen: AnalysisScreen, title: str) -> list:
    for _ in range(400):  # bootstrap in a thread: up to 20 s on a loaded machine
        await pilot.pause(0.05)
        if screen.views and title in screen.title_text:
            return screen.views
    raise AssertionError(f"no report for {title}")


def _painted(app) -> str:
    import html
    import re

    svg = app.export_screenshot()
    return html.unescape(" ".join(re.findall(r">([^<]*)</text>", svg))).replace("\xa0", " ")


async def test_study_analysis_shows_agreement_judge_and_plots(tmp_path: Path) -> None:
    _rated_study(tmp_path / "p.db", tmp_path)
    app = BedsideApp(tmp_path / "p.db")
    async with app.run_test(size=(200, 60)) as pilot:
        await _home(pilot)
        await pilot.press("4", "a")
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        views = {v.item: v for v in await _views(pilot, screen, "pilot")}
        assert set(views) == {"empathy_doctor", "patient_relevance_overall"}
        empathy = views["empathy_doctor"]
        assert empathy.level == "ordinal" and empathy.judge == "judge:fake"
        assert empathy.part["agreement"]["alpha"]["value"] > 0.8
        # Per-unit plot data: the judge gives n + 5; alice and carol n + 2, bob n + 3; so
        # the judge is 2 to 3 above the mean of the humans who rated the unit.
        assert len(empathy.pairs) == 6
        assert all(2.0 <= j - h <= 3.0 for h, j in empathy.pairs)
        assert views["patient_relevance_overall"].level == "nominal"
        assert views["patient_relevance_overall"].pairs == []
        items = screen.query_one("#items-table", DataTable)
        assert items.row_count == 2
        screen.show_item(list(views).index("empathy_doctor"))
        await pilot.pause()
        agreement = screen.query_one("#agreement-table", DataTable)
        labels = [agreement.get_row_at(i)[0].plain for i in range(agreement.row_count)]
        assert labels[0] == "Krippendorff α" and "Fleiss κ" in labels
        assert any(lab.startswith("ICC") for lab in labels)
        judge = screen.query_one("#judge-table", DataTable)
        headers = [str(c.label) for c in judge.columns.values()]
        assert "Human ceiling" in headers
        first = [c.plain for c in judge.get_row_at(0)]
        assert first[0] == "Spearman rho" and first[2].startswith("[")
        mean_diff = [judge.get_row_at(i) for i in range(judge.row_count)
                     if judge.get_row_at(i)[0].plain.startswith("Mean difference")][0]
        assert 2.0 <= float(mean_diff[1].plain) <= 3.0
        shown = _painted(app)
        assert "Judge vs mean of humans" in shown and "Bland–Altman" in shown
        assert "\x1b" not in str(screen.query_one("#plot-scatter", Static).render())


async def test_csv_agreement_reproduces_published_alpha(tmp_path: Path) -> None:
    csv = tmp_path / "k.csv"
    lines = ["unit,rater,value"]
    for rater, values in K2011.items():
        lines += [f"u{i},{rater},{v}" for i, v in enumerate(values.split()) if v != "."]
    csv.write_text("\n".join(lines) + "\n")
    app = BedsideApp(tmp_path / "empty.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await _home(pilot)
        app.open_analysis()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        assert "No reader study yet" in str(screen.query_one("#analysis-status").render())
        screen.query_one("#csv-level", Select).value = "interval"
        screen.query_one("#csv-path", Input).value = str(csv)
        screen.query_one("#csv-path", Input).focus()
        await pilot.press("enter")
        (view,) = await _views(pilot, screen, "judge (none)")
        levels = view.part["agreement"]["alpha_levels"]
        assert round(levels["interval"]["value"], 3) == 0.849
        assert view.judge is None and view.pairs == []
        screen.query_one("#csv-judge", Input).value = "D"
        await pilot.press("enter")
        (view,) = await _views(pilot, screen, "judge D")
        assert view.judge == "D" and view.part["humans"] == ["A", "B", "C"]
        assert len(view.pairs) == 11  # D rated u0..u10, each rated by a human too


async def test_bad_csv_is_a_one_line_notification(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("unit,rater,value\nu1,A,3\nu1,B,high\n")
    app = BedsideApp(tmp_path / "empty.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await _home(pilot)
        app.open_analysis()
        await pilot.pause()
        screen = app.screen
        screen.query_one("#csv-path", Input).value = str(bad)
        await pilot.click("#csv-load")
        for _ in range(200):
            await pilot.pause(0.05)
            if list(app._notifications):
                break
        (note,) = list(app._notifications)
        assert note.severity == "error" and f"{bad}:3" in note.message
        assert "\n" not in note.message and "Traceback" not in note.message
        assert isinstance(app.screen, AnalysisScreen) and screen.views == []


def test_unit_pairs_and_views_from_plain_rows() -> None:
    rows = [{"unit": "u1", "rater": "h1", "value": "4", "item": "x"},
            {"unit": "u1", "rater": "h2", "value": "6", "item": "x"},
            {"unit": "u1", "rater": "J", "value": "7", "item": "x"},
            {"unit": "u2", "rater": "h1", "value": "", "item": "x"},
            {"unit": "u2", "rater": "J", "value": "3", "item": "x"}]
    assert unit_pairs(rows, "J") == [(5.0, 7.0)]  # u2 has no numeric human rating
    assert unit_pairs(rows, None) == []
    report = {"level": "ordinal", "judge": None,
              "items": [{"item": "x", "judge": None, "humans": ["h1", "h2"]}]}
    (view,) = item_views([report], rows)
    assert view.judge is None and view.pairs == [] and len(view.human_values) == 5


def test_plots_are_plain_text() -> None:
    pairs = [(3.0, 4.0), (5.0, 6.5), (7.0, 7.0), (2.0, 4.0)]
    for text in (scatter(pairs, width=40, height=10), bland_altman(pairs, width=40, height=10),
                 distribution(["1", "2", "2", "3"], scale=[1.0, 2.0, 3.0, 4.0], width=40,
                              height=10)):
        assert "\x1b" not in text and text == strip_ansi(text)
        assert len(text.splitlines()) >= 10
    assert "bias +1.12" in bland_altman(pairs, width=60, height=10)
    assert "no unit" in scatter([])
    assert strip_ansi("\x1b[38;5;12mA\x1b[0m") == "A"
