"""Reading peer files: UTF-8 text, JSON Lines, JSON lists and single JSON objects, with
every problem reported as a one-line `InputError` naming file, line and field.

Each record comes back with the 1-based line on which it starts, also inside a JSON list
(the real AI Hospital `patients_*.json` files are lists), so later errors can say
`file:line` rather than "record 7".
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.errors import InputError

#: Deepest nesting a record may have. Real peer records are under 10 levels deep; the
#: limit keeps our recursive walks (flattening, Item trees) far from Python's stack limit.
MAX_DEPTH = 100

_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"


def read_text(path: Path) -> str:
    """The file's text as UTF-8 (a leading BOM is dropped); InputError if unreadable."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError("no such file", path=str(path)) from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", path=str(path)) from None
    except OSError as err:
        raise InputError(f"cannot read ({err.strerror})", path=str(path)) from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError("UTF-16 text; save the file as UTF-8", path=str(path), line=1)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {err.start})", path=str(path),
                         line=data.count(b"\n", 0, err.start) + 1) from None


def depth(value: Any) -> int:
    """Nesting depth of a JSON value (a scalar is 0), computed without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            stack.extend((v, level + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, level + 1) for v in node)
        else:
            continue
        deepest = max(deepest, level + 1)
    return deepest


def _decode(text: str, path: Path, line: int) -> Any:
    """One JSON document; bad JSON or absurd nesting is an InputError at `line`."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"not valid JSON ({err.msg}, column {err.colno})", path=str(path),
                         line=line + err.lineno - 1) from None
    except RecursionError:
        raise InputError(f"JSON nested too deeply (more than {MAX_DEPTH} levels)",
                         path=str(path), line=line) from None
    _check_depth(value, path, line)
    return value


def _check_depth(value: Any, path: Path, line: int) -> None:
    if depth(value) > MAX_DEPTH:
        raise InputError(f"JSON nested too deeply (more than {MAX_DEPTH} levels)",
                         path=str(path), line=line)


def iter_jsonl(path: Path, text: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(1-based line, object) for each non-blank line; a bad line is an InputError.

    Lines end at "\\n" only (a trailing "\\r" is dropped): `str.splitlines` would also
    break at U+2028, U+2029 and U+0085, which `json.dumps(ensure_ascii=False)` leaves raw
    inside strings.
    """
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw[:-1] if raw.endswith("\r") else raw
        if not line.strip():
            continue  # blank lines (often a trailing one) carry nothing
        obj = _decode(line, path, number)
        if not isinstance(obj, dict):
            raise InputError("expected a JSON object on this line", path=str(path), line=number)
        yield number, obj


def line_at(text: str, pos: int) -> int:
    """1-based line number of character offset `pos`."""
    return text.count("\n", 0, pos) + 1


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _SPACE:
        pos += 1
    return pos


def iter_json_list(path: Path, text: str) -> Iterator[tuple[int, Any]]:
    """(line where the element starts, element) for each element of a top-level JSON list."""
    pos = _skip_space(text, text.index("[") + 1)
    if pos < len(text) and text[pos] == "]":
        pos += 1
    else:
        while True:
            line = line_at(text, pos)
            try:
                element, pos = _DECODER.raw_decode(text, pos)
            except json.JSONDecodeError as err:
                raise InputError(f"not valid JSON ({err.msg}, column {err.colno})",
                                 path=str(path), line=err.lineno) from None
            except RecursionError:
                raise InputError(f"JSON nested too deeply (more than {MAX_DEPTH} levels)",
                                 path=str(path), line=line) from None
            _check_depth(element, path, line)
            yield line, element
            pos = _skip_space(text, pos)
            if pos < len(text) and text[pos] == ",":
                pos = _skip_space(text, pos + 1)
                continue
            if pos < len(text) and text[pos] == "]":
                pos += 1
                break
            raise InputError("not valid JSON (expected ',' or ']' in the list)",
                             path=str(path), line=line_at(text, pos))
    rest = _skip_space(text, pos)
    if rest < len(text):
        raise InputError("not valid JSON (extra data after the list)", path=str(path),
                         line=line_at(text, rest))


def load_records(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """Records of a JSON list, a single (pretty-printed) JSON object or JSONL.

    Each comes with the line where it starts. A non-object element of a list is an error.
    """
    text = read_text(path)
    start = _skip_space(text, 0)
    if text[start:start + 1] == "[":
        out = []
        for line, rec in iter_json_list(path, text):
            if not isinstance(rec, dict):
                raise InputError("expected a JSON object in the list", path=str(path),
                                 line=line)
            out.append((line, rec))
        return out
    first_line = text[start:].split("\n", 1)[0].rstrip("\r")
    if text[start:start + 1] == "{" and not _parses(first_line):
        # The first line is not a whole object, so this is one pretty-printed document.
        obj = _decode(text, path, 1)
        return [(line_at(text, start), obj)]
    return list(iter_jsonl(path, text))


def _parses(line: str) -> bool:
    try:
        json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return False
    return True


def record_digest(record: Any) -> str:
    """A stable SHA-256 of a JSON record (keys sorted), to recognise a re-imported record."""
    canonical = json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
