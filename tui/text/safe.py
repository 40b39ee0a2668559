"""Untrusted text (model output, case text, file contents, names, user input) made harmless
for a terminal: control characters, ANSI escape codes included, become visible symbols, so
they can never restyle, retitle or corrupt the screen. The one path for such text to the
CLI and the app.

What becomes what (a choice: every byte stays visible, none acts):
- C0 controls but newline and tab (ESC, BEL, CR, …) → their Unicode control pictures:
  ESC → `␛`, BEL → `␇`, CR → `␍` (one column each, so tables stay aligned);
- DEL, the C1 controls (U+0080–U+009F: the one-byte CSI U+009B and OSC U+009D) and the
  bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069, which reorder what a
  reader sees) → `\\u009b`-style escapes: visible, and inside a JSON string still the JSON
  escape of the same character, so JSON output stays exact.

`SafeStream` applies this (and hides API keys, `core.secrets`) to everything a command
writes: `bedside`'s command line wraps stdout and stderr in it for every command that does
not hand the terminal to the app, so no printer can forget.
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any, TextIO

from core.secrets import Redactor

_KEEP = {"\n", "\t"}
_BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))


def _visible(ch: str) -> str:
    code = ord(ch)
    if ch in _KEEP:
        return ch
    if code < 0x20:
        return chr(0x2400 + code)  # Unicode "control pictures": ESC → ␛
    if code == 0x7F or 0x80 <= code <= 0x9F or code in _BIDI:
        return f"\\u{code:04x}"
    return ch


def _harmless(ch: str) -> bool:
    code = ord(ch)
    return ch in _KEEP or (0x20 <= code < 0x7F) or (0x9F < code and code not in _BIDI)


def sanitize(text: str | None) -> str:
    """Replace control characters (except newline and tab) with visible symbols."""
    if not text:
        return ""
    if all(_harmless(ch) for ch in text):
        return text
    return "".join(_visible(ch) for ch in text.replace("\r\n", "\n"))


class SafeStream(io.TextIOBase):
    """A text stream that writes through `sanitize` with every API key hidden. `trusted`
    writes our own control characters (a progress line's carriage return) as they are."""

    def __init__(self, raw: TextIO, names: Iterable[str] = ()) -> None:
        super().__init__()
        self.raw = raw
        self._redactor = Redactor(names)

    def write(self, text: str) -> int:  # type: ignore[override]
        """Write `text` made harmless; returns its length as given (as print expects)."""
        self.raw.write(sanitize(self._redactor.text(text)))
        return len(text)

    def trusted(self, text: str) -> None:
        """Write text of our own making, control characters kept."""
        self.raw.write(text)

    def flush(self) -> None:
        """Flush the underlying stream."""
        self.raw.flush()

    def isatty(self) -> bool:
        """Whether the underlying stream is a terminal."""
        return self.raw.isatty()

    def fileno(self) -> int:
        """The underlying stream's file descriptor."""
        return self.raw.fileno()

    def writable(self) -> bool:
        """Always: a stream to write to."""
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The underlying stream's encoding."""
        return str(getattr(self.raw, "encoding", "utf-8"))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


def write_trusted(stream: TextIO, text: str) -> None:
    """Write our own control characters (`\\r` of a progress line) to `stream`, through a
    `SafeStream` untouched."""
    if isinstance(stream, SafeStream):
        stream.trusted(text)
    else:
        stream.write(text)
