"""A case image in the terminal: the textual-image widget (sixel or Kitty graphics where the
terminal can draw them, coloured half blocks elsewhere) under a caption, or a text fallback
that names the file, its caption and why it cannot be shown.

textual-image asks the terminal what it can draw when it is first imported, and it cannot
ask while Textual reads the terminal: `load_renderer` imports it once per process, with the
app suspended for that moment on a real terminal (the screen blinks once, the first time an
image is shown), and without asking in a headless app or the browser (it then draws with
text cells). Image bytes and captions are untrusted: a file that does not decode is shown
as the fallback, and captions are rendered literally.

Must not import at module level: textual_image, PIL (loaded when an image is first shown).
"""

from __future__ import annotations

import io
import logging
import sys
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static

from core.images import CaseImage
from tui.app.widgets.literal import literal

log = logging.getLogger("bedside.app")
_renderer: list[Any] = []  # [the widget class or None] once loaded


def _import_quietly() -> Any:
    """textual-image, loaded as if no terminal were attached: it then asks nothing and
    draws with text cells (headless apps, the browser, tests)."""
    real = sys.__stdout__
    sys.__stdout__ = io.StringIO()  # type: ignore[misc]
    try:
        import textual_image.widget as widget
    finally:
        sys.__stdout__ = real  # type: ignore[misc]
    return widget


def load_renderer(app: App[Any]) -> Any:
    """textual-image's widget class, loaded once (see the module); None if it cannot be."""
    if _renderer:
        return _renderer[0]
    try:
        driver = getattr(app, "_driver", None)
        if app.is_headless or driver is None or not driver.can_suspend \
                or not (sys.__stdout__ and sys.__stdout__.isatty()):
            widget = _import_quietly()
        else:
            with app.suspend():
                import textual_image.widget as widget
        _renderer.append(widget.Image)
    except Exception:  # no image library: every image gets its text fallback
        log.exception("cannot load textual-image; images are shown as text")
        _renderer.append(None)
    return _renderer[0]


def caption(image: CaseImage) -> Text:
    """'Image 1 · ecg.png — Rhythm strip, lead II' (literal text)."""
    head = literal(f"Image {image.number} · {image.name}", "bold")
    if image.description:
        head.append_text(literal(f" — {image.description}"))
    return head


def fallback(image: CaseImage, why: str) -> Text:
    """What stands in for an image that cannot be drawn: its file, caption and why."""
    text = literal(f"[image {image.number}: {image.name}]", "bold")
    if image.description:
        text.append_text(literal(f" {image.description}"))
    text.append_text(literal(f"\nnot shown: {why}", "dim"))
    return text


class CaseImageView(Vertical):
    """One image with its caption (attributes down: the image and the renderer class)."""

    DEFAULT_CSS = """
    CaseImageView { height: auto; width: 1fr; }
    CaseImageView .case-image-caption { height: auto; }
    CaseImageView .case-image { height: 1fr; width: auto; min-height: 3; }
    """

    def __init__(self, image: CaseImage, renderer: Any, *, full: bool = False,
                 **kwargs: Any) -> None:
        """`full`: one terminal column per four pixels of the image (wider than the screen
        for an ECG strip: its box scrolls sideways), else the height the box gives it."""
        super().__init__(**kwargs)
        self.image, self.renderer, self.full = image, renderer, full

    def compose(self) -> ComposeResult:
        """The caption, then the picture or its fallback."""
        yield Static(caption(self.image), classes="case-image-caption")
        yield self.picture()

    def picture(self) -> Widget:
        """The image widget, or the fallback text when it cannot be drawn."""
        if self.image.data is None:
            return Static(fallback(self.image, self.image.problem or "no image data"),
                          classes="case-image-fallback")
        if self.renderer is None:
            return Static(fallback(self.image, "this terminal app cannot load its image "
                                   "library"), classes="case-image-fallback")
        try:
            from PIL import Image as PILImage

            picture = PILImage.open(io.BytesIO(self.image.data))
            picture.load()
            widget: Widget = self.renderer(picture.convert("RGB"), classes="case-image")
            if self.full:  # terminal cells are about twice as tall as they are wide
                cells = max(20, min(400, picture.width // 4))
                widget.styles.width = cells
                widget.styles.height = max(4, round(cells * picture.height / picture.width / 2))
            return widget
        except Exception as err:  # a file that does not decode: untrusted bytes
            return Static(fallback(self.image, f"the file does not decode "
                                   f"({type(err).__name__})"), classes="case-image-fallback")
