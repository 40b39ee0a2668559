"""Documents for the local search corpus: which files are read, how each becomes clean text
with a title, and how the text is cut into passages.

Text (`.txt`), Markdown (`.md`, `.markdown`) and HTML (`.html`, `.htm`) files, UTF-8 (a
byte-order mark is allowed), at most 5 MB each; hidden files and folders are left out.
HTML becomes text through `core.retrieval.html_text` (nothing in it is run or fetched).
Control characters are removed from every text, so a passage shown to the doctor or on a
screen is inert. A passage is a run of whole paragraphs of at most 800 characters (a longer
paragraph is cut at sentence ends, then at spaces); a heading starts a new passage and
stays at its head, so a passage says what it is about.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from core.errors import InputError
from core.records.tools import NewDocument
from core.retrieval.html_text import html_to_text

KINDS = {".txt": "text", ".text": "text", ".md": "markdown", ".markdown": "markdown",
         ".html": "html", ".htm": "html"}
MAX_BYTES = 5_000_000
PASSAGE_CHARS = 800
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$")


def find_files(root: Path) -> list[Path]:
    """The corpus files under `root` (or `root` itself when it is one), by path."""
    if root.is_file():
        return [root]
    found = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).parts
        if any(part.startswith(".") for part in rel):
            continue
        if path.is_file() and path.suffix.lower() in KINDS:
            found.append(path)
    return found


def clean(text: str) -> str:
    """Text with unified line ends, no control characters, single spaces and at most one
    blank line between paragraphs."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")
    text = _CONTROL.sub("", text)
    lines = [" ".join(line.split()) for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _split_long(paragraph: str, limit: int) -> list[str]:
    out: list[str] = []
    current = ""
    for sentence in _SENTENCE.split(paragraph):
        while len(sentence) > limit:  # a sentence longer than a passage: cut at a space
            cut = sentence.rfind(" ", 0, limit)
            cut = cut if cut > limit // 2 else limit
            head, sentence = sentence[:cut].strip(), sentence[cut:].strip()
            if current:
                out.append(current)
                current = ""
            out.append(head)
        if current and len(current) + 1 + len(sentence) > limit:
            out.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}".strip()
    if current:
        out.append(current)
    return out


def passages(text: str, limit: int = PASSAGE_CHARS) -> list[str]:
    """The text cut into passages of whole paragraphs (see the module docstring)."""
    out: list[str] = []
    current: list[str] = []

    def flush() -> None:
        if current:
            out.append("\n".join(current))
            current.clear()

    for paragraph in (p.strip() for p in text.split("\n\n")):
        if not paragraph:
            continue
        if _HEADING.match(paragraph.split("\n", 1)[0]):
            flush()
        pieces = [paragraph] if len(paragraph) <= limit else _split_long(paragraph, limit)
        for piece in pieces:
            if current and sum(len(c) + 1 for c in current) + len(piece) > limit:
                flush()
            current.append(piece)
    flush()
    return out


def _title(kind: str, text: str, html_title: str, path: Path) -> str:
    if html_title:
        return html_title[:200]
    for line in text.split("\n"):
        if not line.strip():
            continue
        m = _HEADING.match(line)
        if kind == "markdown" and m:
            return m.group(1)[:200]
        if kind == "text" and len(line) <= 120:
            return line.strip()
        break
    return path.stem


def read_document(path: Path) -> NewDocument:
    """One file as a document ready to store; an InputError naming the file when it cannot
    be used (too large, not UTF-8, no text)."""
    where = str(path)
    kind = KINDS.get(path.suffix.lower())
    if kind is None:
        raise InputError(f"not a text, Markdown or HTML file (known: {', '.join(KINDS)})",
                         path=where)
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise InputError(f"larger than {MAX_BYTES // 1_000_000} MB ({size} bytes)",
                             path=where)
        raw = path.read_bytes()
    except OSError as err:
        raise InputError(f"cannot read ({err.strerror or err})", path=where) from None
    try:
        decoded = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {err.start})", path=where) from None
    html_title = ""
    if kind == "html":
        html_title, decoded = html_to_text(decoded)
    text = clean(decoded)
    if not text:
        raise InputError("has no text", path=where)
    return NewDocument(path=str(path.resolve()), title=clean(_title(kind, text, clean(html_title),
                                                                     path)),
                       kind=kind, sha256=hashlib.sha256(raw).hexdigest(),
                       passages=passages(text))
