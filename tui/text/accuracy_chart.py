"""Accuracy with its Wilson 95 % interval as a terminal chart (a forest plot), shared by
`bedside results --plot` and the app's results screen.

It draws the rows of the results table and nothing else: one line per row of
`core.usecases.results.results_table` (one per group, doctor and settings — different
settings are never pooled), in the table's order, each with its accuracy (●), its interval
(├──┤) on a 0–100 % axis and, in figures, the accuracy, the interval and n. Grouped by
anything but the doctor, a row's group is a heading line above its rows; the doctor and
the settings that the heading does not already say make the row's label. A label too long
for its column gets a line of its own, so rows stay told apart at 80 columns. Plain text,
no colour: the app styles the marks.
"""

from __future__ import annotations

import textwrap
from typing import Any

from core.metrics.names import group_keys
from tui.text.results_table import cell, repeats_note
from tui.text.safe import sanitize

POINT, LEFT, RIGHT, LINE, GRID = "●", "├", "┤", "─", "┊"
TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)
MIN_TRACK = 21  # room for the five tick labels
LEGEND = (f"{POINT} accuracy (no diagnosis counts as wrong)  {LEFT}{LINE}{RIGHT} Wilson 95 % "
          "interval  n: consultations scored; one row per doctor and settings, as in "
          "`bedside results`")
EMPTY = "no finished consultations yet (run `bedside run` first)"
_DOCTOR_KEYS = ("model", "doctor")


def _split(keys: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The keys of the heading (those the table sorts on before the doctor) and those
    that go into a row's label (after it)."""
    at = next((i for i, k in enumerate(keys) if k in _DOCTOR_KEYS), len(keys))
    return keys[:at], tuple(k for k in keys[at:] if k not in _DOCTOR_KEYS)


def _said(row: dict[str, Any], keys: tuple[str, ...]) -> list[str]:
    return [f"{k} {sanitize(str(row.get(k) or 'unknown'))}" for k in keys]


def heading(row: dict[str, Any], keys: tuple[str, ...]) -> str:
    """The row's group as a heading ('max_turns 3, patient_bias none'): the group keys
    before the doctor (all of them unless the doctor is one); '' when there are none."""
    return ", ".join(_said(row, _split(keys)[0]))


def label(row: dict[str, Any], keys: tuple[str, ...]) -> str:
    """The doctor, the group keys after it, and the settings no group key says
    ('scripted · max turns 3')."""
    doctor = row.get("model") if "model" in keys else row.get("doctor")
    said = {f"{k.replace('_', ' ')} {row.get(k)}" for k in keys if k not in _DOCTOR_KEYS}
    settings = [p for p in (row.get("settings") or "").split(", ") if p and p not in said]
    parts = [", ".join(x) for x in (_said(row, _split(keys)[1]), settings) if x]
    return sanitize(" · ".join([str(doctor or "unknown"), *parts]))


def figures(row: dict[str, Any]) -> str:
    """'33.3% 6-79% n 3', the cells the results table shows; why there is no bar else."""
    if not row.get("n") or row.get("accuracy") is None:
        return "no consultation scored"
    low, high = row["ci_low"] * 100, row["ci_high"] * 100
    return f"{cell(row['accuracy'], 'pct')} {low:.0f}-{high:.0f}% n {row['n']}"


def position(share: float, track: int) -> int:
    """The column of a share (0–1) on a track `track` characters wide."""
    return round(min(1.0, max(0.0, share)) * (track - 1))


def bar(row: dict[str, Any], track: int) -> str:
    """The row's interval and point on the track (grid marks at the ticks)."""
    cells = [" "] * track
    for tick in TICKS:
        cells[position(tick, track)] = GRID
    if row.get("n") and row.get("accuracy") is not None:
        low, high = position(row["ci_low"], track), position(row["ci_high"], track)
        for x in range(low, high + 1):
            cells[x] = LINE
        cells[low], cells[high] = LEFT, RIGHT
        cells[position(row["accuracy"], track)] = POINT
    return "".join(cells)


def axis(track: int) -> list[str]:
    """The tick labels over the track, and a ruler under them."""
    labels = [" "] * track
    for tick in TICKS:
        text = f"{tick * 100:.0f}%"
        x = position(tick, track)
        start = min(max(0, x - len(text) // 2), track - len(text))
        labels[start:start + len(text)] = text
    ruler = [LINE] * track
    for tick in TICKS:
        ruler[position(tick, track)] = "┬"
    return ["".join(labels), "".join(ruler)]


def title(by: str | tuple[str, ...]) -> str:
    """The chart's first line."""
    keys = group_keys(by)
    what = "doctor" if set(keys) <= set(_DOCTOR_KEYS) else ", ".join(keys)
    return f"Accuracy with its Wilson 95 % interval, by {what}"


def chart(rows: list[dict[str, Any]], by: str | tuple[str, ...], width: int = 80) -> str:
    """The chart of results rows (`results_table(by=by)`), at most `width` columns."""
    if not rows:
        return EMPTY
    keys = group_keys(by)
    labels = [label(r, keys) for r in rows]
    numbers = [figures(r) for r in rows]
    right = max(len(n) for n in numbers)
    # The label column: as wide as the longest label, at most a third of the width; the
    # track gets the rest, never less than MIN_TRACK (a label that does not fit gets a
    # line of its own).
    indent = 2 if any(heading(r, keys) for r in rows) else 0
    left = min(max(len(x) for x in labels) + indent, max(12, width // 3))
    track = max(MIN_TRACK, width - left - right - 4)
    track -= (track - 1) % 4  # the quarters equally spaced
    left = max(0, min(left, width - track - right - 4))
    pad = " " * left
    lines = [title(by), *(f"{pad}  {x}" for x in axis(track))]
    last = None
    for row, name, number in zip(rows, labels, numbers, strict=True):
        head = heading(row, keys)
        if head and head != last:
            lines += textwrap.wrap(head, width) or [head]
        last = head
        name = " " * indent + name
        if len(name) > left:
            lines += textwrap.wrap(name, width, subsequent_indent=" " * (indent + 2))
            name = ""
        lines.append(f"{name:<{left}}  {bar(row, track)}  {number}".rstrip())
    return "\n".join([*lines, "", *textwrap.wrap(LEGEND, width), *repeats_note(rows, width)])
