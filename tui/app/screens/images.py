"""The images the physician has been shown, large (`ImagesScreen`, Ctrl+G in the play
screen): one under the other at one terminal column per four pixels (an ECG strip is wider
than the screen: the box scrolls sideways), each with its caption, or its text fallback."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from core.images import CaseImage
from tui.app.screens.base import BedsideModal
from tui.app.widgets.case_image import CaseImageView
from tui.app.widgets.footer import KeyFooter


class ImagesScreen(BedsideModal):
    """A viewer over the play screen; Esc goes back to the consultation (no turn used)."""

    BINDINGS = [Binding("escape", "close", "Back to the patient")]
    DEFAULT_CSS = """
    ImagesScreen { align: center middle; }
    ImagesScreen #images-box { width: 96%; height: 94%; border: round $primary;
                               background: $surface; padding: 0 1; overflow-x: auto; }
    ImagesScreen CaseImageView { height: auto; width: auto; margin-bottom: 1; }
    """

    def __init__(self, images: list[CaseImage], renderer: Any) -> None:
        super().__init__()
        self.images, self.renderer = images, renderer

    def compose(self) -> ComposeResult:
        """Every image shown so far, largest first in the order of the case."""
        with VerticalScroll(id="images-box"):
            yield Static("Images of this case shown to you, one terminal column per four "
                         "pixels; scroll sideways and down (arrows, PgUp/PgDn). Esc: back to "
                         "the patient.", classes="dim")
            for image in self.images:
                yield CaseImageView(image, self.renderer, full=True)
        yield KeyFooter()

    def action_close(self) -> None:
        """Back to the play screen."""
        self.dismiss(None)
