"""Right-to-left text in a terminal: lines reordered for display only.

Terminals lay characters out left to right in the order they are stored, so a Persian line
would read backwards. `BidiText` wraps text at the width it is given first, then reorders
each wrapped line with the Unicode bidirectional algorithm (`python-bidi`), right-aligned
when the paragraph is right-to-left. Reordering after wrapping keeps each line's words on
that line. The stored text, exports and what models receive are never reordered: only this
renderable, and `display_line` for one-line cells (a title in a table), touch it.
Letter shaping (joined Arabic-script forms) is left to the terminal.
"""

from __future__ import annotations

import unicodedata

from bidi import get_display
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

from core.scripts import has_rtl
from tui.text.safe import sanitize


def starts_rtl(text: str) -> bool:
    """True if the paragraph's direction is right-to-left: its first strong letter is (the
    Unicode rule; "REQUEST TEST: رایت" is a left-to-right line with a Persian word in it)."""
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


def display_line(text: str) -> str:
    """One line in visual order (unchanged when it holds no right-to-left letter)."""
    return get_display(text) if has_rtl(text) else text


class BidiText:
    """Text shown literally (never markup) with its right-to-left lines in visual order."""

    def __init__(self, text: str | None, style: str = "") -> None:
        self.text = Text(sanitize(text), style=style)
        self.rtl = starts_rtl(self.text.plain)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        lines = self.text.wrap(console, width, justify="left", overflow="fold")
        for line in lines:
            shown = Text(display_line(line.plain), style=self.text.style, end="\n")
            if self.rtl:
                shown.align("right", width)
            yield shown


def literal_block(text: str | None, style: str = "") -> Text | BidiText:
    """A block of untrusted text: `Text` as typed, or a `BidiText` when it holds
    right-to-left letters."""
    return BidiText(text, style) if has_rtl(text or "") else Text(sanitize(text), style=style)
