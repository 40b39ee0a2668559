"""Untrusted text (model output, case text, file contents, user input) made harmless for a
terminal: control characters, ANSI escape codes included, become visible symbols, so they
can never restyle or corrupt the screen. The one path for such text to the CLI and the app.
"""

from __future__ import annotations

_KEEP = {"\n", "\t"}


def _visible(ch: str) -> str:
    code = ord(ch)
    if ch in _KEEP:
        return ch
    if code < 0x20:
        return chr(0x2400 + code)  # Unicode "control pictures": ESC → ␛
    if code == 0x7F:
        return "\u2421"  # ␡
    if 0x80 <= code <= 0x9F:
        return f"\\x{code:02x}"
    return ch


def sanitize(text: str | None) -> str:
    """Replace control characters (except newline and tab) with visible symbols."""
    if not text:
        return ""
    if all(ch in _KEEP or (0x20 <= ord(ch) != 0x7F and not 0x80 <= ord(ch) <= 0x9F)
           for ch in text):
        return text
    return "".join(_visible(ch) for ch in text.replace("\r\n", "\n"))
