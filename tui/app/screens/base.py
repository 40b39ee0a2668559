"""The base of the app's screens: the typed way to reach the app (`AppServices`)."""

from __future__ import annotations

from typing import Any, cast

from textual.screen import ModalScreen, Screen

from tui.app.services import AppServices


class BedsideScreen(Screen[Any]):
    """A full screen of the bedside app."""

    @property
    def bedside(self) -> AppServices:
        """The app, as the services screens may use."""
        return cast(AppServices, self.app)


class BedsideModal(ModalScreen[Any]):
    """A modal screen of the bedside app."""

    @property
    def bedside(self) -> AppServices:
        """The app, as the services screens may use."""
        return cast(AppServices, self.app)
