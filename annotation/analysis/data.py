"""Ratings as data: long rows (unit, rater, value, item) and the raters × units matrix.

The matrix holds floats with NaN for a missing rating. Categorical (nominal) values are
mapped to integer codes 0..c-1 with their labels kept, so every statistic works on numbers.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from core.errors import InputError

LEVELS = ("nominal", "ordinal", "interval", "ratio")
NUMERIC_LEVELS = ("ordinal", "interval", "ratio")
REQUIRED_COLUMNS = ("unit", "rater", "value")


@dataclass(frozen=True)
class Row:
    """One rating in long format."""

    unit: str
    rater: str
    value: Any
    item: str = ""
    system: str | None = None  # the doctor model that produced the unit, if known
    line: int | None = None  # source line, for error messages
    cluster: str | None = None  # units that belong together (the turns of one transcript)
    study: str | None = None  # the reader study the rating belongs to, when the file says


@dataclass
class RatingMatrix:
    """Ratings of one item: `values[r, u]` is rater r's rating of unit u (NaN if missing)."""

    raters: list[str]
    units: list[str]
    values: np.ndarray
    labels: list[str] | None = None  # nominal: code i means labels[i]
    systems: dict[str, str] = field(default_factory=dict)  # unit -> system
    clusters: dict[str, str] = field(default_factory=dict)  # unit -> cluster, when given

    def without(self, rater: str) -> RatingMatrix:
        """The matrix with one rater's row removed."""
        keep = [i for i, r in enumerate(self.raters) if r != rater]
        return RatingMatrix([self.raters[i] for i in keep], self.units, self.values[keep],
                            self.labels, self.systems, self.clusters)

    def row(self, rater: str) -> np.ndarray:
        """One rater's ratings across units."""
        return self.values[self.raters.index(rater)]


def validate_level(level: str) -> str:
    """Return `level` if it is a known measurement level, else raise InputError."""
    if level not in LEVELS:
        raise InputError(f"unknown level '{level}' (use one of {', '.join(LEVELS)})",
                         field="level")
    return level


def _get(row: Any, name: str, default: Any = None) -> Any:
    if isinstance(row, dict):
        return row.get(name, default)
    return getattr(row, name, default)


def as_rows(rows: Iterable[Any]) -> list[Row]:
    """Normalise dicts or Rating-like objects (unit, rater, value[, item, system]) to `Row`."""
    out = []
    for r in rows:
        if isinstance(r, Row):
            out.append(r)
            continue
        out.append(Row(unit=str(_get(r, "unit")), rater=str(_get(r, "rater")),
                       value=_get(r, "value"), item=str(_get(r, "item", "") or ""),
                       system=_get(r, "system"), line=_get(r, "line"),
                       cluster=_get(r, "cluster")))
    return out


def is_missing(value: Any) -> bool:
    """A rating that was not given: None, empty text or NaN."""
    if value is None:
        return True
    if isinstance(value, str):
        return value.strip() == "" or value.strip().upper() in ("NA", "NAN", ".")
    return isinstance(value, float) and math.isnan(value)


def shown(value: Any, limit: int = 40) -> str:
    """A value quoted for a one-line message: line breaks escaped, long text cut."""
    text = str(value).replace("\r", "\\r").replace("\n", "\\n")
    return "'" + (text[:limit] + "…" if len(text) > limit else text) + "'"


def to_number(value: Any, *, path: str | None = None, line: int | None = None) -> float:
    """A rating as a float, or InputError naming the value field."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise InputError(f"{shown(value)} is not a number (a numeric level was asked)",
                         path=path, line=line, field="value") from None
    if not math.isfinite(x):
        raise InputError(f"{shown(value)} is not a finite number", path=path, line=line,
                         field="value")
    return x


def build_matrix(rows: Sequence[Row], *, level: str, scale: Sequence[Any] | None = None,
                 path: str | None = None) -> RatingMatrix:
    """The raters × units matrix of one item's rows; duplicates with other values are errors."""
    validate_level(level)
    raters = sorted({r.rater for r in rows})
    units = list(dict.fromkeys(r.unit for r in rows))
    labels: list[str] | None = None
    if level == "nominal":
        present = [r for r in rows if not is_missing(r.value)]
        given = [str(s) for s in scale] if scale else []
        extra = sorted({str(r.value).strip() for r in present} - set(given), key=_sort_key)
        labels = given + extra
    codes = {lab: i for i, lab in enumerate(labels or [])}
    ri, ui = {r: i for i, r in enumerate(raters)}, {u: i for i, u in enumerate(units)}
    values = np.full((len(raters), len(units)), np.nan)
    for r in rows:
        if is_missing(r.value):
            continue
        x = (float(codes[str(r.value).strip()]) if labels is not None
             else to_number(r.value, path=path, line=r.line))
        old = values[ri[r.rater], ui[r.unit]]
        if not math.isnan(old) and old != x:
            raise InputError(f"rater {shown(r.rater)} rated unit {shown(r.unit)} twice with "
                             "different values", path=path, line=r.line, field="value")
        values[ri[r.rater], ui[r.unit]] = x
    systems = {r.unit: str(r.system) for r in rows if r.system not in (None, "")}
    clusters = {r.unit: str(r.cluster) for r in rows if r.cluster not in (None, "")}
    return RatingMatrix(raters, units, values, labels, systems, clusters)


def _sort_key(label: str) -> tuple[int, float, str]:
    # Numeric-looking labels sort by value, the rest alphabetically after them.
    try:
        return (0, float(label), label)
    except ValueError:
        return (1, 0.0, label)


def guess_level(rows: list[Row]) -> str:
    """The level of a file read with no level given: ordinal when every value given is a
    number, else nominal (yes/no, categories)."""
    for r in rows:
        if is_missing(r.value):
            continue
        try:
            number = float(r.value)
        except (TypeError, ValueError):
            return "nominal"
        if not math.isfinite(number):
            return "nominal"
    return "ordinal"


def load_long_csv(path: str | Path, *, level: str | None = None) -> list[Row]:
    """Read a long-format CSV (unit, rater, value[, item][, system]) into rows.

    Raises InputError naming the file, line and field for a missing or repeated column, an
    empty unit or rater, malformed quoting, or (when `level` is numeric) a value that is not
    a number.
    """
    p = str(path)
    if level is not None:
        validate_level(level)
    try:
        with open(path, newline="", encoding="utf-8-sig") as fh:
            # strict: an unterminated quote or text after a closing quote is an error,
            # not silently glued into the field.
            return _read_rows(csv.reader(fh, strict=True), p, level)
    except OSError as err:
        raise InputError(f"cannot read ({err.__class__.__name__})", path=p) from None
    except UnicodeDecodeError:
        raise InputError("not a UTF-8 text file", path=p) from None


def _next(reader: Any, path: str) -> list[str] | None:
    """The next record, None at the end; malformed quoting names the line it starts on."""
    start = reader.line_num + 1
    try:
        return next(reader)
    except StopIteration:
        return None
    except csv.Error as err:
        why = ("a quoted field is never closed" if "end of data" in str(err)
               else f"malformed quoting: {err}")
        raise InputError(why, path=path, line=start) from None


def _header(reader: Any, path: str) -> list[str]:
    header = [h.strip().lower() for h in _next(reader, path) or []]
    if not header:
        raise InputError("the file is empty (expected a header: unit,rater,value)", path=path)
    seen: set[str] = set()
    for name in header:
        if name in seen:
            raise InputError("the column appears twice in the header", path=path, line=1,
                             field=name)
        seen.add(name)
    for col in REQUIRED_COLUMNS:
        if col not in header:
            raise InputError(f"missing column '{col}' (header has: {', '.join(header)})",
                             path=path, line=1, field=col)
    return header


def _read_rows(reader: Any, path: str, level: str | None) -> list[Row]:
    header = _header(reader, path)
    idx = {name: header.index(name) for name in header}
    rows = []
    while True:
        line = reader.line_num + 1  # a quoted field may span lines: where the record starts
        rec = _next(reader, path)
        if rec is None:
            break
        if not any(c.strip() for c in rec):
            continue
        if len(rec) != len(header):
            raise InputError(f"expected {len(header)} fields, found {len(rec)}",
                             path=path, line=line)
        cell = {name: rec[i].strip() for name, i in idx.items()}
        for col in ("unit", "rater"):
            if not cell[col]:
                raise InputError("is empty", path=path, line=line, field=col)
        if level in NUMERIC_LEVELS and not is_missing(cell["value"]):
            try:
                to_number(cell["value"], path=path, line=line)
            except InputError as err:
                raise InputError(f"{shown(cell['value'])} is not a number: level {level} "
                                 "needs numbers; --level nominal takes categories such as "
                                 "yes/no", path=path, line=line, field="value") from err
        rows.append(Row(unit=cell["unit"], rater=cell["rater"], value=cell["value"],
                        item=cell.get("item", ""), system=cell.get("system") or None, line=line,
                        study=cell.get("study") or None))
    return rows


# -- scales and missing values of a file ---------------------------------------------------

_SCALE = re.compile(r"^\s*(-?\d+)\s*(?:-|–|\.\.)\s*(-?\d+)\s*$")


def parse_scale(text: str) -> tuple[int, int]:
    """`LO-HI` (whole numbers, LO below HI: `1-5`, `0-100`, `-3-3`) as (LO, HI)."""
    m = _SCALE.match(text)
    if not m or int(m.group(1)) >= int(m.group(2)):
        raise InputError(f"expected LO-HI with whole numbers, LO below HI (such as 1-5), got "
                         f"{shown(text)}", field="--scale")
    return int(m.group(1)), int(m.group(2))


def check_scale(rows: Sequence[Row], scales: dict[str, tuple[int, int, str]],
                path: str | None = None) -> None:
    """Every value given of an item with a scale (item → (LO, HI, where the scale comes
    from); "" is every item) is a number on it; InputError naming the line otherwise."""
    for r in rows:
        bounds = scales.get(r.item) or scales.get("")
        if bounds is None or is_missing(r.value):
            continue
        lo, hi, source = bounds
        try:
            x = float(r.value)
        except (TypeError, ValueError):
            x = math.nan
        if not lo <= x <= hi:  # NaN and text fail too
            raise InputError(f"{shown(r.value)} is outside the scale {lo}–{hi}{source}",
                             path=path, line=r.line, field="value")


def missing_lines(rows: Sequence[Row]) -> list[int]:
    """Lines of the ratings left out as missing (blank, NA, NaN)."""
    return [r.line or 0 for r in rows if is_missing(r.value)]
