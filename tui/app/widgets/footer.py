"""The key bar at the bottom of every screen: Help first, no command-palette hint.

At 80 columns Textual's footer runs out of room, and what it cuts is the end of the bar,
where the app's own keys (F1 Help, Ctrl+Q Quit) and the palette hint sit. A newcomer must
always see how to get help, so Help goes first; the palette (Ctrl+P still opens it) is left
out of the bar and listed in the help screen instead.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer

#: Actions shown first, in this order (Help, then Back where a screen has it).
FIRST = ("help", "app.help", "app.pop_screen", "back", "leave")


def key_rank(widget: object) -> int:
    """Sort key: the actions of FIRST in their order, then everything else (stable)."""
    action = getattr(widget, "action", None)
    return FIRST.index(action) if action in FIRST else len(FIRST)


class KeyFooter(Footer):
    """A Footer that puts Help (then Back) first and hides the command-palette hint."""

    def __init__(self, **kwargs: object) -> None:
        kwargs.setdefault("show_command_palette", False)
        super().__init__(**kwargs)  # type: ignore[arg-type]

    def compose(self) -> ComposeResult:
        """The footer's keys, re-ordered (a stable sort keeps the screen's own order): FIRST,
        then the actions a screen lists in its FOOTER_ORDER, in that order, then the rest."""
        order = tuple(getattr(self.screen, "FOOTER_ORDER", ()))

        def rank(widget: object) -> tuple[int, int]:
            action = getattr(widget, "action", None)
            return key_rank(widget), order.index(action) if action in order else len(order)

        yield from sorted(super().compose(), key=rank)
