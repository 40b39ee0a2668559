"""The analysis screen's rating distribution counts in whole numbers (issue 16): plotext
would label the count axis 0.8, 1.5, 2.2 …; a count is never a fraction."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import Static

from tests.app_support import home_loaded
from tests.test_app_analysis import _rated_study, _views
from tui.app.application import BedsideApp
from tui.app.screens.analysis import AnalysisScreen
from tui.app.widgets.plots import count_ticks, distribution


def _axis_labels(plot: str) -> list[str]:
    """The labels left of the y axis ('3┤')."""
    return [m.group(1) for m in re.finditer(r"^\s*(\S+)┤", plot, re.M)]


@pytest.mark.parametrize(("top", "ticks"), [(1, [0, 1]), (3, [0, 1, 2, 3]),
                                             (7, [0, 2, 4, 6, 8]), (23, [0, 5, 10, 15, 20, 25]),
                                             (140, [0, 50, 100, 150])])
def test_count_ticks_are_whole_and_reach_the_top(top: int, ticks: list[int]) -> None:
    assert count_ticks(top) == ticks


@pytest.mark.parametrize("values", [["7", "8", "8", "6", "7", "7"], ["yes", "no", "yes"],
                                    ["1"] * 37 + ["2"] * 12])
def test_the_distribution_axis_shows_whole_numbers(values: list[str]) -> None:
    plot = distribution(values, width=50, height=14)
    labels = _axis_labels(plot)
    assert labels and all(label.isdigit() for label in labels), labels
    assert labels[-1] == "0"


async def test_the_analysis_screen_distribution_counts_in_whole_numbers(
        tmp_path: Path) -> None:
    _rated_study(tmp_path / "p.db", tmp_path)
    app = BedsideApp(tmp_path / "p.db")
    async with app.run_test(size=(200, 60)) as pilot:
        await home_loaded(pilot)
        await pilot.press("4", "a")
        screen = app.screen
        assert isinstance(screen, AnalysisScreen)
        await _views(pilot, screen, "pilot")
        plot = str(screen.query_one("#plot-dist", Static).render())
        labels = _axis_labels(plot)
        assert "rating distribution" in plot and labels
        assert all(label.isdigit() for label in labels), labels


def test_the_evolution_curves_count_patients_in_whole_numbers() -> None:
    """The learning curves' x axis is patients treated: under tmux it read 0.0 16.7 33.3 …
    for checkpoints every 20 patients; it shows the checkpoints (whole numbers)."""
    from core.records.agenthospital import Point
    from tui.text.curves import curve_plot, seen_ticks

    points = [Point(arm=arm, task="diagnosis", seen=seen, train_accuracy=None,
                    test_accuracy=acc, principles=0, wrong=0)
              for arm, acc in (("none", 0.05), ("both", 0.6)) for seen in range(0, 101, 20)]
    plot = curve_plot(points, "diagnosis", width=70, height=12)
    axis = plot.splitlines()[-2].split()
    assert axis == ["0", "20", "40", "60", "80", "100"], axis
    assert seen_ticks(range(0, 1001, 100)) == [0, 200, 400, 600, 800, 1000]
    assert seen_ticks([0, 100, 250]) == [0, 100, 250]
