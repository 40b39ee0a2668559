"""Literal rendering of untrusted text (model output, case text, user input).

Everything a model or a case author wrote is shown exactly as typed: Rich markup such as
`[bold]` stays visible text, and control characters (ANSI escape codes included) are shown
as visible symbols so they can never restyle or corrupt the terminal.
"""

from __future__ import annotations

from rich.text import Text

from tui.text.safe import sanitize

__all__ = ["literal", "sanitize"]


def literal(text: str | None, style: str = "") -> Text:
    """A Rich `Text` showing `text` exactly as typed; markup is never parsed."""
    return Text(sanitize(text), style=style)
