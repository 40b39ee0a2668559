"""The key bar as a user sees it, for the footer tests of the rating, results and analysis
screens: the screen's KeyFooter keys, left to right, each checked to be wholly on screen."""

from __future__ import annotations

from typing import Any

from textual.widgets._footer import FooterKey  # not re-exported by textual.widgets

from tui.app.widgets.footer import KeyFooter


def key_bar(screen: Any, width: int) -> list[tuple[str, str]]:
    """(key as shown, description) of every key in the screen's KeyFooter, left to right.

    Fails if the screen has no KeyFooter (a plain Footer does not count), if a key is cut
    off or pushed past `width` columns, or if the bar is not the screen's last line.
    """
    footer = screen.query_one(KeyFooter)
    assert footer.region.bottom == screen.region.bottom, "the key bar is not at the bottom"
    keys = sorted(footer.query(FooterKey), key=lambda k: k.region.x)
    for key in keys:
        assert key.region.width > 0 and key.region.right <= width, \
            f"{key.key_display} {key.description} is not wholly on screen: {key.region}"
    return [(key.key_display, key.description) for key in keys]


async def settled_key_bar(pilot: Any, screen: Any, width: int) -> list[tuple[str, str]]:
    """`key_bar` once the footer has composed its keys and they stopped moving (a loaded
    machine lays the footer out a few frames after the rest of the screen)."""
    last: list[tuple[str, str]] | None = None
    for _ in range(200):  # up to 10 s
        await pilot.pause(0.05)
        try:
            bar = key_bar(screen, width)
        except AssertionError:  # not laid out yet
            continue
        if bar and bar == last:
            return bar
        last = bar
    return key_bar(screen, width)  # fails with the reason
