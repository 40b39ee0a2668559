"""Right-to-left and Devanagari text in a terminal: lines laid out for display only.

Terminals lay characters out left to right in the order they are stored, so a Persian line
would read backwards. `BidiText` wraps text at the width it is given first, then reorders
each wrapped line with the Unicode bidirectional algorithm (`python-bidi`), right-aligned
when the paragraph is right-to-left. Reordering after wrapping keeps each line's words on
that line. The stored text, exports and what models receive are never reordered: only this
renderable, and `display_line` for one-line cells (a title in a table), touch it.
Letter shaping (joined Arabic-script forms) is left to the terminal.

Mirroring: python-bidi 0.6 reorders but does not mirror, so "(لنفوسیت ۵۲٪)" came out as
")…(" on screen. `display_line` takes the resolved levels from the same implementation
(its debug record), reorders by them (rule L2) and gives each mirrored character at a
right-to-left level its mirror glyph (rule L4); should that record ever not be read, the
unmirrored order is shown as before.

Devanagari: Rich counts a spacing vowel sign ("ी", "ा", Unicode category Mc) as taking no
column, terminals (tmux, xterm) as one, so a Hindi line Rich thinks fits ran past the right
edge and lost its last letters. Hindi text is therefore wrapped here with the terminal's
count; what then runs past the edge is only the padding after the text. (A table column
after Hindi text can still sit a few columns right of its neighbours' in such terminals.)
"""

from __future__ import annotations

import re
import unicodedata

from bidi import get_display
from bidi.mirror import MIRRORED
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.text import Text

from core.scripts import has_rtl, is_devanagari
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
    """One line in visual order (unchanged when it holds no right-to-left letter), brackets
    and other mirrored characters of its right-to-left runs mirrored."""
    if not has_rtl(text):
        return text
    levels = _levels(text)
    if levels is None:
        return get_display(text)
    return "".join(MIRRORED.get(text[i], text[i]) if levels[i] % 2 else text[i]
                   for i in _visual_order(levels))


_LEVEL = re.compile(r"Level\(\s*(\d+)")


def _levels(text: str) -> list[int] | None:
    """The resolved level of each character of one line (python-bidi's, read from its debug
    record, which lists one per UTF-8 byte), the line's trailing spaces at the paragraph's
    level (rule L1); None if the record does not read as expected."""
    record = str(get_display(text, debug=True))
    start = record.rfind("levels: [")
    by_byte = [int(n) for n in _LEVEL.findall(record[start:record.find("]", start)])]
    if start < 0 or len(by_byte) != len(text.encode()):
        return None
    levels, offset = [], 0
    for ch in text:
        levels.append(by_byte[offset])
        offset += len(ch.encode())
    base = 1 if starts_rtl(text) else 0
    end = len(text)
    while end and unicodedata.bidirectional(text[end - 1]) in ("WS", "S"):
        end -= 1
        levels[end] = base
    return levels


def _visual_order(levels: list[int]) -> list[int]:
    """Indices in display order: from the highest level down to the lowest odd one, every
    run at that level or above reversed (rule L2)."""
    order = list(range(len(levels)))
    odd = [lv for lv in levels if lv % 2]
    for level in range(max(levels, default=0), (min(odd) if odd else 1) - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] < level:
                i += 1
                continue
            j = i
            while j < len(order) and levels[order[j]] >= level:
                j += 1
            order[i:j] = order[i:j][::-1]
            i = j
    return order


def terminal_width(text: str) -> int:
    """Columns a terminal gives text: Rich's count plus one per spacing mark (Mc)."""
    return cell_len(text) + sum(unicodedata.category(ch) == "Mc" for ch in text)


def wrap_terminal(text: str, width: int) -> list[str]:
    """Text wrapped at spaces (long words cut) so each line fits `width` terminal columns."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        indent = paragraph[:len(paragraph) - len(paragraph.lstrip(" "))]  # analytes under a panel
        line = indent
        for word in paragraph.split():
            trial = f"{line} {word}" if line.strip() else line + word
            if terminal_width(trial) <= width:
                line = trial
                continue
            if line:
                lines.append(line)
            line = word
            while terminal_width(line) > width > 0:  # a word longer than the line
                cut = 1
                while cut < len(line) and terminal_width(line[:cut + 1]) <= width:
                    cut += 1
                lines.append(line[:cut])
                line = line[cut:]
        lines.append(line)
    return lines


class BidiText:
    """Text shown literally (never markup) with its right-to-left lines in visual order."""

    def __init__(self, text: str | None, style: str = "") -> None:
        self.text = Text(sanitize(text), style=style)
        self.rtl = starts_rtl(self.text.plain)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        plain = self.text.plain
        wrapped = wrap_terminal(plain, width) if is_devanagari(plain) else [
            line.plain for line in self.text.wrap(console, width, justify="left",
                                                  overflow="fold")]
        for line in wrapped:
            shown = Text(display_line(line), style=self.text.style, end="\n")
            if self.rtl:
                shown.align("right", width)
            yield shown


def literal_block(text: str | None, style: str = "") -> Text | BidiText:
    """A block of untrusted text: `Text` as typed, or a `BidiText` when it holds
    right-to-left letters or Devanagari."""
    plain = text or ""
    return BidiText(text, style) if has_rtl(plain) or is_devanagari(plain) else \
        Text(sanitize(text), style=style)
