"""The results screen's chart: accuracy with its Wilson 95 % interval per results row
(`tui.text.accuracy_chart`, the chart `bedside results --plot` prints), drawn as wide as
the widget and drawn again when it is resized. The text is built from plain labels and
numbers (sanitized there) and shown with `Text`, never parsed as markup; only the marks
are coloured.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.events import Resize
from textual.widgets import Static

from tui.text.accuracy_chart import LEFT, LINE, POINT, RIGHT, chart


class AccuracyChart(Static):
    """A results table's rows as a chart; `show(rows, by)` sets them."""

    DEFAULT_CSS = "AccuracyChart { height: auto; padding: 0 1; }"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(Text(""), **kwargs)
        #: The results rows drawn, and their grouping.
        self.rows: list[dict[str, Any]] = []
        self.by: str | tuple[str, ...] = "model"
        #: The chart as last drawn (plain text), for tests and the help.
        self.text = ""

    def show(self, rows: list[dict[str, Any]], by: str | tuple[str, ...]) -> None:
        """Draw these rows (the results table's, grouped by `by`)."""
        self.rows, self.by = rows, by
        self.redraw()

    def redraw(self) -> None:
        """Draw at the widget's current width (80 before the first layout)."""
        width = self.content_region.width or 80
        self.text = chart(self.rows, self.by, max(40, width))
        styled = Text(self.text)
        styled.highlight_regex(f"[{LEFT}{LINE}{RIGHT}]+", "#5fafff")
        styled.highlight_regex(POINT, "bold #ffd75f")
        self.update(styled)

    def on_resize(self, event: Resize) -> None:
        """A new width: draw again."""
        self.redraw()
