"""Terminal plots of ratings, built with plotext and returned as plain, colourless text.

plotext draws on one module-global figure, so every build holds a lock and starts from a
cleared figure; the result is stripped of escape codes and shown with `Text` (never parsed
as markup). Inputs are plain numbers and labels: nothing here reads the database.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from tui.text.curves import PLOT_LOCK

# plotext's one figure is shared with the text plots (`tui.text.curves`): one lock for both.
_LOCK = PLOT_LOCK
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
MIN_WIDTH, MIN_HEIGHT = 24, 8


def strip_ansi(text: str) -> str:
    """Remove terminal escape sequences (colours, cursor moves) from plotext output."""
    return _ANSI.sub("", text)


def _render(width: int, height: int, title: str, draw: Callable[[Any], None]) -> str:
    """Clear the shared figure, let `draw` add signals, and return the colourless text."""
    import plotext as plt

    with _LOCK:
        fig = plt.figure
        fig.clear()
        fig.plot_size(max(MIN_WIDTH, width), max(MIN_HEIGHT, height))
        fig.theme("clear")
        draw(fig)
        text = fig.build().string(colorless=True)
        fig.clear()
    # The title goes above the plot as text (plotext drops a title wider than the plot);
    # cut to the plot's width so plots side by side stay aligned.
    width = max(MIN_WIDTH, width)
    head = title if len(title) <= width else title[:width - 1] + "…"
    return head + "\n" + strip_ansi(text).rstrip()


def _finite(pairs: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    return [(float(a), float(b)) for a, b in pairs
            if a is not None and b is not None and math.isfinite(a) and math.isfinite(b)]


def _empty(title: str, why: str) -> str:
    return f"{title}\n  ({why})"


def scatter(pairs: Sequence[tuple[float, float]], *, width: int = 60, height: int = 16,
            title: str = "Judge vs mean of humans", xlabel: str = "mean of humans",
            ylabel: str = "judge") -> str:
    """Scatter of (x, y) pairs with the identity line y = x for reference."""
    data = _finite(pairs)
    if not data:
        return _empty(title, "no unit rated by both the judge and a human")
    xs, ys = [p[0] for p in data], [p[1] for p in data]
    lo, hi = min(xs + ys), max(xs + ys)

    def draw(fig: Any) -> None:
        fig.draw(fig.signal([lo, hi], [lo, hi], marker="dot").lines(True))
        fig.draw(fig.signal(xs, ys, marker="●").lines(False))
        fig.label(xlabel, axis="x")
        fig.label(ylabel, axis="y")

    return _render(width, height, title, draw)


def bland_altman(pairs: Sequence[tuple[float, float]], *, width: int = 60, height: int = 16,
                 title: str = "Bland–Altman") -> str:
    """Difference (y − x) against the mean of x and y, with the mean difference and the
    95 % limits of agreement (mean ± 1.96 SD) as horizontal lines."""
    data = _finite(pairs)
    if len(data) < 2:
        return _empty(title, "needs at least two units rated by the judge and a human")
    means = [(x + y) / 2 for x, y in data]
    diffs = [y - x for x, y in data]
    bias = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - bias) ** 2 for d in diffs) / (len(diffs) - 1))
    lo, hi = min(means), max(means)
    if hi == lo:
        lo, hi = lo - 0.5, hi + 0.5

    def draw(fig: Any) -> None:
        for level in (bias - 1.96 * sd, bias, bias + 1.96 * sd):
            fig.draw(fig.signal([lo, hi], [level, level], marker="dot").lines(True))
        fig.draw(fig.signal(means, diffs, marker="●").lines(False))
        fig.label("mean of judge and humans", axis="x")
        fig.label("judge − humans", axis="y")

    heading = f"{title}: bias {bias:+.2f}, LoA {bias - 1.96 * sd:+.2f} to {bias + 1.96 * sd:+.2f}"
    return _render(width, height, heading, draw)


def distribution(values: Sequence[Any], *, scale: Sequence[Any] | None = None,
                 width: int = 60, height: int = 16, title: str = "Rating distribution") -> str:
    """Bar chart of how often each value (of `scale`, in its order, if given) was given."""
    counts = Counter(_label(v) for v in values if v is not None and str(v).strip() != "")
    if not counts:
        return _empty(title, "no ratings")
    labels = [_label(s) for s in scale] if scale else sorted(counts, key=_order)
    labels += [k for k in sorted(counts, key=_order) if k not in labels]
    heights = [counts.get(k, 0) for k in labels]

    ticks = count_ticks(max(heights), max(2, (height - 4) // 2))

    def draw(fig: Any) -> None:
        fig.draw(fig.bar(labels, heights))
        # A count is a whole number: ticks at whole numbers only, from 0 (plotext would
        # put them at 0.8, 1.5, 2.2 …).
        ruler = fig.ruler("y")
        ruler.lim(0, ticks[-1])
        ruler.ticks(ticks, [str(t) for t in ticks])
        fig.label("value", axis="x")
        fig.label("ratings", axis="y")

    return _render(width, height, f"{title} ({sum(heights)} ratings)", draw)


def count_ticks(top: int, most: int = 5) -> list[int]:
    """Whole-number ticks from 0 up to at least `top`, at most `most` + 1 of them, spaced
    by 1, 2 or 5 times a power of ten."""
    top, k, step = max(1, top), 0, 1
    while math.ceil(top / step) > most:
        k += 1
        step = (1, 2, 5)[k % 3] * 10 ** (k // 3)
    return list(range(0, math.ceil(top / step) * step + 1, step))


def _label(value: Any) -> str:
    """Numbers print without a trailing '.0'; everything else as text."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _order(label: str) -> tuple[int, float, str]:
    try:
        return (0, float(label), label)
    except ValueError:
        return (1, 0.0, label)


MARKERS = ("●", "▲", "■", "◆", "x", "+", "o", "*")


def group_scatter(groups: dict[str, Sequence[tuple[float, float]]], *,
                  lines: dict[str, tuple[float, float]] | None = None, width: int = 60,
                  height: int = 16, title: str = "", xlabel: str = "x",
                  ylabel: str = "y") -> str:
    """Scatter of several groups' (x, y) points, one marker each (named in a key line
    under the plot, since the text has no colour), with each group's fitted line
    y = a + b·x (`lines`: group → (a, b)) over its own x range."""
    data = {g: _finite(p) for g, p in groups.items()}
    data = {g: p for g, p in data.items() if p}
    if not data:
        return _empty(title, "no consultation has both values")
    marks = {g: MARKERS[i % len(MARKERS)] for i, g in enumerate(data)}

    def draw(fig: Any) -> None:
        for g, pts in data.items():
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            if lines and g in lines and min(xs) < max(xs):
                a, b = lines[g]
                ends = [min(xs), max(xs)]
                fig.draw(fig.signal(ends, [a + b * x for x in ends], marker="dot").lines(True))
            fig.draw(fig.signal(xs, ys, marker=marks[g]).lines(False))
        fig.label(xlabel, axis="x")
        fig.label(ylabel, axis="y")

    key = "  ".join(f"{marks[g]} {g}" for g in data)
    return _render(width, height, title, draw) + "\n" + key
