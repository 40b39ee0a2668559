"""Helpers that fill a DataTable with literal cells (DataTable parses plain `str` as markup).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.text import Text
from textual.widgets import DataTable

from tui.app.widgets.literal import literal


def cell(value: Any) -> Text:
    """A table cell shown as typed: None → '', floats to 2 places, everything else literal."""
    if value is None:
        return Text("")
    if isinstance(value, Text):
        return value
    if isinstance(value, bool):
        return Text("yes" if value else "no")
    if isinstance(value, float):
        return Text(f"{value:.2f}", justify="right")
    if isinstance(value, int):
        return Text(str(value), justify="right")
    return literal(str(value))


def fill(table: DataTable, columns: Sequence[str],
         rows: Iterable[tuple[str, Sequence[Any]]]) -> None:
    """Replace the table's content: `rows` are (row key, cells); keep the cursor row if possible."""
    cursor = table.cursor_row
    table.clear(columns=True)
    table.add_columns(*columns)
    for key, cells in rows:
        table.add_row(*(cell(c) for c in cells), key=key)
    if table.row_count:
        table.move_cursor(row=min(cursor, table.row_count - 1))


def selected_key(table: DataTable) -> str | None:
    """The key of the row under the cursor, or None for an empty table."""
    if not table.row_count:
        return None
    row_key, _ = table.coordinate_to_cell_key(table.cursor_coordinate)
    return row_key.value
