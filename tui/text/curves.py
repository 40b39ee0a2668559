"""Agent Hospital learning curves as text: the table of points, terminal plots (plotext,
colourless, one per task: test accuracy against patients treated, one line per arm — the
ablation — and the training accuracy of each arm), the CSV and the JSON of `bedside evolve`.

plotext draws on one module-global figure: `PLOT_LOCK` guards it here and in the app's
plots (`tui.app.widgets.plots`), so two threads never draw at once.
"""

from __future__ import annotations

import csv
import io
import json
import re
import threading
from collections.abc import Callable, Sequence
from typing import Any

from core.records.agenthospital import PUBLIC_KEYS, Point
from tui.text.safe import sanitize

PLOT_LOCK = threading.Lock()
TASKS = ("examination", "diagnosis", "treatment")
CSV_FIELDS = (*PUBLIC_KEYS, "records", "test_n")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_MARKERS = {"none": "x", "records": "o", "experience": "+", "both": "*"}


def points_json(points: Sequence[Point]) -> str:
    """`{"points": [{arm, task, seen, train_accuracy, test_accuracy, principles, wrong}]}`."""
    return json.dumps({"points": [p.public() for p in points]}, indent=2)


def points_csv(points: Sequence[Point]) -> str:
    """The points as CSV (the seven public keys, then records and test_n)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(CSV_FIELDS), lineterminator="\n")
    writer.writeheader()
    for p in points:
        writer.writerow({k: getattr(p, k) for k in CSV_FIELDS})
    return buf.getvalue()


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def points_table(points: Sequence[Point]) -> str:
    """One line per arm and checkpoint: each task's training / test accuracy (%), then the
    principles kept, records kept and wrong training answers over the three tasks."""
    head = ["arm", "seen", *(f"{t} train/test" for t in TASKS), "principles", "records",
            "wrong"]
    rows: list[list[str]] = []
    by: dict[tuple[str, int], dict[str, Point]] = {}
    for p in points:
        by.setdefault((p.arm, p.seen), {})[p.task] = p
    for (arm, seen), tasks in by.items():
        cells = [sanitize(arm), str(seen)]
        for t in TASKS:
            p = tasks.get(t)
            cells.append(f"{_pct(p.train_accuracy if p else None)} / "
                         f"{_pct(p.test_accuracy if p else None)}")
        cells += [str(sum(p.principles for p in tasks.values())),
                  str(sum(p.records for p in tasks.values())),
                  str(sum(p.wrong for p in tasks.values()))]
        rows.append(cells)
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
              for i, h in enumerate(head)]
    lines = ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in
                       enumerate(zip(row, widths, strict=True))) for row in [head, *rows]]
    return "\n".join(line.rstrip() for line in lines)


def _render(width: int, height: int, title: str, draw: Callable[[Any], None]) -> str:
    import plotext as plt

    with PLOT_LOCK:
        fig = plt.figure
        fig.clear()
        fig.plot_size(max(30, width), max(8, height))
        fig.theme("clear")
        draw(fig)
        text = fig.build().string(colorless=True)
        fig.clear()
    return title + "\n" + _ANSI.sub("", text).rstrip()


def curve_plot(points: Sequence[Point], task: str, *, which: str = "test",
               width: int = 60, height: int = 14) -> str:
    """One task's curve: `which` ('test' or 'train') accuracy in % against patients
    treated, one line per arm, its marker named in the legend."""
    field = "test_accuracy" if which == "test" else "train_accuracy"
    series: dict[str, list[tuple[int, float]]] = {}
    for p in points:
        value = getattr(p, field)
        if p.task == task and value is not None:
            series.setdefault(p.arm, []).append((p.seen, 100 * value))
    title = f"{task}: {which} accuracy (%) by patients treated"
    if not series:
        return f"{title}\n  (no {which} points)"
    legend = "  ".join(f"{_MARKERS.get(a, '.')} {sanitize(a)}" for a in series)

    def draw(fig: Any) -> None:
        for arm, xy in series.items():
            fig.draw(fig.signal([x for x, _ in xy], [y for _, y in xy],
                                marker=_MARKERS.get(arm, ".")).lines(True))
        ruler = fig.ruler("y")
        ruler.lim(0, 100)
        ruler.ticks([0, 25, 50, 75, 100], ["0", "25", "50", "75", "100"])
        # Patients are counted: ticks at the checkpoints (plotext put them at 16.7, 33.3 …).
        seen = seen_ticks([x for xy in series.values() for x, _ in xy])
        fig.ruler("x").ticks(seen, [str(x) for x in seen])
        fig.label("patients treated", axis="x")

    return _render(width, height, f"{title}   {legend}", draw)


def seen_ticks(seen: Sequence[int], most: int = 7) -> list[int]:
    """Whole-number x ticks: the checkpoints (patients treated), every n-th of them when
    there are more than `most`, the last always kept."""
    xs = sorted(set(seen))
    step = max(1, -(-len(xs) // most))
    ticks = xs[::step]
    if xs and ticks[-1] != xs[-1]:
        ticks.append(xs[-1])
    return ticks


def curve_plots(points: Sequence[Point], *, width: int = 60, height: int = 14) -> str:
    """The test-accuracy curve of each task (training accuracy when there was no test
    set), one under the other."""
    which = "test" if any(p.test_accuracy is not None for p in points) else "train"
    return "\n\n".join(curve_plot(points, t, which=which, width=width, height=height)
                       for t in TASKS)
