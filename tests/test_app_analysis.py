"""Functional tests of the analysis screen: a rated study (every statistic, at 200×60 and
80×24, with the app's key bar), its options, a CSV file, a bad CSV file."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable, Input, Select, Static

from annotation.analysis.display import item_views, unit_pairs
from db.study_store import SqliteStudyStore
from tests.app_support import home_loaded, painted_text
from tests.footer_support import settled_key_bar
from tests.test_study_support import make_study, seed_db
from tui.app.application import BedsideApp
from tui.app.screens.analysis import AnalysisScreen
from tui.app.widgets.plots import bland_altman, distribution, scatter, strip_ansi

# Krippendorff (2011): 4 observers x 12 units; interval alpha = 0.849 (published).
K2011 = {"A": "1 2 3 3 2 1 4 1 2 . . .", "B": "1 2 3 3 2 2 4 1 2 5 . 3",
         "C": ". 3 3 3 2 3 4 2 2 5 1 .", "D": "1 2 3 3 2 4 4 1 2 5 1 ."}


def _rated_study(path: Path, tmp_path: Path,
                 judges: tuple[str, ...] = ("judge:fake",)) -> None:
    """The pilot study, rated by three humans (who agree) and lenient judge(s) (+2)."""
    db = seed_db(path, n=6)
    study_id = make_study(db, tmp_path)
    store = SqliteStudyStore(db)
    for name in judges:
        judge = store.ensure_rater(name, "judge", model="openai/fake")
        store.add_assignments(study_id, judge.id, [(f"c{i:02d}", False) for i in range(6)])
    for offset, name in enumerate(["alice", "bob", "carol", *judges]):
        for a in store.assignments(study_id, store.get_rater(name).id):
            n = int(a.consultation_id[1:])
            score = min(10, 2 + n + (offset % 2) + (2 if name.startswith("judge") else 0))
            store.save_ratings(a.id, {("empathy_doctor", -1): (str(score), None),
                                      ("realism_doctor", -1): (str(max(1, score - 1)), None),
                                      ("patient_relevance_overall", -1):
                                          ("yes" if n % 2 else "no", None)})
    db.conn.close()




async def _views(pilot, screen: AnalysisScreen, title: str) -> list:
    # The title is set once the report is fully shown (tables and sections mounted).
    for _ in range(600):  # bootstrap in a thread: up to 30 s on a loaded machine
        await pilot.pause(0.05)
        if screen.views and title in screen.title_text:
            return screen.views
    raise AssertionError(f"no report for {title}")




def _titles(container) -> list[str]:
    return [str(w.render()) for w in container.query(".section")]


def _table_after(container, title: str) -> DataTable:
    """The DataTable that follows the section title `title` (sections sit in columns)."""
    for w in container.query(".section"):
        if str(w.render()).startswith(title):
            siblings = list(w.parent.children)
            table = siblings[siblings.index(w) + 1]
            assert isinstance(table, DataTable)
            return table
    raise AssertionError(f"no section {title}")


def _column(table: DataTable, index: int) -> list[str]:
    return [table.get_row_at(i)[index].plain for i in range(table.row_count)]


async def test_study_analysis_shows_items_pooled_block_and_plots(tmp_path: Path) -> None:
    _rated_study(tmp_path / "p.db", tmp_path)
    app = BedsideApp(tmp_path / "p.db")
    async with app.run_test(size=(200, 60)) as pilot:
        await home_loaded(pilot)
        await pilot.press("4", "a")
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        views = {v.item: v for v in await _views(pilot, screen, "pilot")}
        assert set(views) == {"empathy_doctor", "realism_doctor", "patient_relevance_overall"}
        empathy = views["empathy_doctor"]
        assert empathy.level == "ordinal" and empathy.judge == "judge:fake"
        assert empathy.part["agreement"]["alpha"]["value"] > 0.8
        # Per-unit plot data: the judge gives n + 5; alice and carol n + 2, bob n + 3; so
        # the judge is 2 to 3 above the mean of the humans who rated the unit.
        assert len(empathy.pairs) == 6
        assert all(2.0 <= j - h <= 3.0 for h, j in empathy.pairs)
        assert views["patient_relevance_overall"].level == "nominal"
        assert views["patient_relevance_overall"].pairs == []
        # The same default as the command line: 1,000 resamples.
        assert "1000 bootstrap resamples" in str(screen.query_one("#analysis-status").render())
        items = screen.query_one("#items-table", DataTable)
        assert items.row_count == 3
        shown = painted_text(app)
        assert "Agreement among humans" in shown and "Judge 'judge:fake'" in shown
        screen.query_one("#analysis-body").scroll_to_widget(
            screen.query_one("#plot-ba"), animate=False, top=True)
        await pilot.pause()
        shown = painted_text(app)
        assert "Judge vs mean of humans" in shown and "Bland–Altman" in shown
        assert "\x1b" not in str(screen.query_one("#plot-scatter", Static).render())
        # The pooled block over the two scale items, rescaled.
        overall = screen.query_one("#overall-detail")
        assert "Scale items pooled" in [str(w.render()) for w in overall.query(".pooled-title")]
        pooled_notes = " ".join(str(w.render()) for w in overall.query(".hint"))
        assert "rescaled to 0–1" in pooled_notes


async def test_item_sections_hold_every_statistic(tmp_path: Path) -> None:
    _rated_study(tmp_path / "p.db", tmp_path)
    app = BedsideApp(tmp_path / "p.db")
    async with app.run_test(size=(200, 60)) as pilot:
        await home_loaded(pilot)
        app.open_analysis()
        await pilot.pause()
        screen = app.screen
        views = {v.item: v for v in await _views(pilot, screen, "pilot")}
        await screen.show_item(list(views).index("empathy_doctor"))
        await pilot.pause()
        detail = screen.query_one("#item-detail")
        titles = _titles(detail)
        for expected in ("Agreement among humans", "Cohen's κ per pair of humans",
                         "Judge 'judge:fake' versus the mean of humans",
                         "Human–human ceiling (leave one out)", "System level",
                         "Alternative annotator test (ε = 0.2, q = 0.05)"):
            assert any(t.startswith(expected) for t in titles), expected
        # 200 columns: agreement on the left, the judge's sections on the right.
        left, right = detail.query(".column")
        assert left.region.y == right.region.y and left.region.right <= right.region.x
        assert _titles(left)[0] == "Agreement among humans"
        assert _titles(right)[0].startswith("Judge 'judge:fake'")
        agreement = _table_after(detail, "Agreement among humans")
        labels = _column(agreement, 0)
        assert labels[0] == "Krippendorff α" and "Fleiss κ" in labels
        assert {"ICC(1,1)", "ICC(1,k)", "ICC(2,1)"} <= set(labels)
        cohen = _table_after(detail, "Cohen's κ")
        assert _column(cohen, 0) == ["alice / bob", "alice / carol", "bob / carol"]
        assert [str(c.label) for c in cohen.columns.values()][1:4] == [
            "unweighted", "linear", "quadratic"]
        judge = _table_after(detail, "Judge 'judge:fake'")
        headers = [str(c.label) for c in judge.columns.values()]
        assert "human ceiling" in headers
        first = [c.plain for c in judge.get_row_at(0)]
        assert first[0] == "Spearman rho" and first[2].startswith("[")
        bias = [judge.get_row_at(i) for i in range(judge.row_count)
                if judge.get_row_at(i)[0].plain.startswith("Mean difference")][0]
        assert 2.0 <= float(bias[1].plain) <= 3.0
        ceiling = _table_after(detail, "Human–human ceiling")
        assert _column(ceiling, 0) == ["alice", "bob", "carol"]
        alt = _table_after(detail, "Alternative annotator test")
        assert _column(alt, 0) == ["alice", "bob", "carol"]
        assert all(p.plain.replace(".", "").isdigit() for p in
                   (alt.get_row_at(i)[5] for i in range(alt.row_count)))
        notes = " ".join(str(w.render()) for w in detail.query(".hint"))
        assert "verdict: the judge" in notes and "advantage probability" in notes
        assert "needs at least three systems" in notes  # one doctor model only


async def test_analysis_is_readable_and_scrollable_at_80x24(tmp_path: Path) -> None:
    _rated_study(tmp_path / "p.db", tmp_path)
    app = BedsideApp(tmp_path / "p.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await home_loaded(pilot)
        app.open_analysis()
        await pilot.pause()
        screen = app.screen
        await _views(pilot, screen, "pilot")
        body = screen.query_one("#analysis-body")
        assert await settled_key_bar(pilot, screen, 80) == [("f1", "Help"), ("esc", "Back"), ("f5", "Analyse study"),
                                       ("^q", "Quit")]
        # 80 columns: the sections are stacked, one column under the other.
        left, right = screen.query_one("#item-detail").query(".column")
        assert right.region.y >= left.region.bottom and right.region.x == left.region.x
        # The three option rows are one line each: the tables get most of the screen.
        assert body.region.height >= 14
        assert body.max_scroll_y > 0
        for name in ("#study-select", "#csv-path", "#judge-name", "#boot-count", "#epsilon"):
            widget = screen.query_one(name)
            assert widget.region.right <= 80 and widget.region.height == 1, name
        alt = [w for w in screen.query_one("#item-detail").query(".section")
               if str(w.render()).startswith("Alternative annotator test")][0]
        body.scroll_to_widget(alt, animate=False, top=True)
        await pilot.pause()
        assert "Alternative annotator test" in painted_text(app)
        pooled = screen.query_one("#overall-detail").query(".pooled-title").first()
        body.scroll_to_widget(pooled, animate=False, top=True)
        await pilot.pause()
        assert "Scale items pooled" in painted_text(app)
        # Widening the terminal puts the sections side by side.
        await pilot.resize_terminal(200, 60)
        await pilot.pause(0.2)
        left, right = screen.query_one("#item-detail").query(".column")
        assert left.region.y == right.region.y and left.region.right <= right.region.x


async def test_options_recompute_and_bad_options_are_one_line(tmp_path: Path) -> None:
    _rated_study(tmp_path / "p.db", tmp_path, judges=("judge:a", "judge:b"))
    app = BedsideApp(tmp_path / "p.db")
    async with app.run_test(size=(120, 40)) as pilot:
        await home_loaded(pilot)
        app.open_analysis()
        await pilot.pause()
        screen = app.screen
        views = await _views(pilot, screen, "judge (none)")
        # Two LLM judges: none is picked, and the status says why.
        status = str(screen.query_one("#analysis-status").render())
        assert "2 LLM judges (judge:a, judge:b)" in status
        assert all(v.judge is None for v in views)
        screen.query_one("#judge-name", Input).value = "judge:b"
        screen.query_one("#boot-count", Input).value = "40"
        screen.query_one("#epsilon", Input).value = "crowd"
        screen.query_one("#boot-count", Input).focus()
        await pilot.press("enter")
        views = await _views(pilot, screen, "judge judge:b")
        status = str(screen.query_one("#analysis-status").render())
        assert "40 bootstrap resamples" in status
        empathy = [v for v in views if v.item == "empathy_doctor"][0]
        assert empathy.judge == "judge:b" and empathy.part["alt_test"]["epsilon"] == 0.1
        screen.query_one("#boot-count", Input).value = "-5"
        await pilot.press("enter")
        await pilot.pause()
        (note,) = list(app._notifications)
        assert note.severity == "error" and "resamples" in note.message
        assert "\n" not in note.message
        assert screen.views is views  # nothing recomputed


async def test_csv_agreement_reproduces_published_alpha(tmp_path: Path) -> None:
    csv = tmp_path / "k.csv"
    lines = ["unit,rater,value"]
    for rater, values in K2011.items():
        lines += [f"u{i},{rater},{v}" for i, v in enumerate(values.split()) if v != "."]
    csv.write_text("\n".join(lines) + "\n")
    app = BedsideApp(tmp_path / "empty.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await home_loaded(pilot)
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
        screen.query_one("#judge-name", Input).value = "D"
        await pilot.press("enter")
        (view,) = await _views(pilot, screen, "judge D")
        assert view.judge == "D" and view.part["humans"] == ["A", "B", "C"]
        assert len(view.pairs) == 11  # D rated u0..u10, each rated by a human too


async def test_bad_csv_is_a_one_line_notification(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("unit,rater,value\nu1,A,3\nu1,B,high\n")
    app = BedsideApp(tmp_path / "empty.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await home_loaded(pilot)
        app.open_analysis()
        await pilot.pause()
        screen = app.screen
        # Asked for a numeric level ('auto' would read 'high' as a category: nominal).
        screen.query_one("#csv-level", Select).value = "ordinal"
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
