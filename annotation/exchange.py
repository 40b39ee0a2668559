"""Export ratings to CSV / JSONL in long format, and import them back.

One row per rated unit: study, consultation, item (rubric item id), unit ('transcript' or
'turn:N'), rater, rater_kind, value, comment, created_at, updated_at. A `consultation`
column is added to the issue's list because a row is meaningless without its transcript.
Import validates every row first (one-line errors naming file and line) and then writes the
whole file in one transaction: all or nothing.

Must not import: tui, textual, rich, litellm.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlite_utils import Database

from annotation.assignment import load_definition
from core.errors import BedsideError, InputError
from db import studies

COLUMNS = ("study", "consultation", "item", "unit", "rater", "rater_kind", "value", "comment",
           "created_at", "updated_at")
_UNIT = re.compile(r"^(transcript|turn:\d+)$")


class ExchangeRow(BaseModel):
    """One rating in long format."""

    model_config = ConfigDict(extra="forbid")

    study: str = Field(min_length=1, description="Study name.")
    consultation: str = Field(min_length=1, description="Consultation (transcript) id.")
    item: str = Field(min_length=1, description="Rubric item id.")
    unit: str = Field(pattern=_UNIT.pattern, description="'transcript' or 'turn:N'.")
    rater: str = Field(min_length=1, description="Rater name.")
    rater_kind: Literal["human", "judge"] = Field(description="Human or LLM judge.")
    value: str | None = Field(None, description="The answer as stored text.")
    comment: str | None = Field(None, description="The rater's comment on this unit.")
    created_at: str = Field(min_length=1, description="ISO UTC time first rated.")
    updated_at: str = Field(min_length=1, description="ISO UTC time last changed.")

    @property
    def turn_idx(self) -> int:
        """-1 for the transcript, else the turn index."""
        return -1 if self.unit == "transcript" else int(self.unit.split(":")[1])


def export_rows(db: Database, study: str) -> list[dict[str, Any]]:
    """Every rating of a study in long format, by rater, transcript, item, unit."""
    row = studies.get_study(db, study)
    out = []
    for r in db.query(
            "SELECT r.name AS rater, r.kind AS rater_kind, g.* FROM ratings g JOIN raters r"
            " ON r.id = g.rater_id WHERE g.study_id = ? AND (g.value IS NOT NULL OR"
            " g.comment IS NOT NULL) ORDER BY r.name, g.consultation_id, g.item, g.turn_idx",
            [row["id"]]):
        unit = "transcript" if r["turn_idx"] < 0 else f"turn:{r['turn_idx']}"
        out.append({"study": row["name"], "consultation": r["consultation_id"],
                    "item": r["item"], "unit": unit, "rater": r["rater"],
                    "rater_kind": r["rater_kind"], "value": r["value"], "comment": r["comment"],
                    "created_at": r["created_at"], "updated_at": r["updated_at"]})
    return out


def to_csv(rows: list[dict[str, Any]]) -> str:
    """Rows as CSV text with a header (NULL → empty cell)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: ("" if v is None else v) for k, v in r.items()} for r in rows)
    return buf.getvalue()


def to_jsonl(rows: list[dict[str, Any]]) -> str:
    """Rows as JSON Lines."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def _read_rows(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line number, raw dict) for every data row of a CSV or JSONL file."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read ({err.__class__.__name__})", path=str(path)) from None
    if path.suffix in (".jsonl", ".ndjson", ".json"):
        out = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as err:
                raise InputError(f"not valid JSON ({err.msg})", path=str(path), line=n) from None
            if not isinstance(data, dict):
                raise InputError("expected a JSON object", path=str(path), line=n)
            out.append((n, data))
        return out
    reader = csv.DictReader(io.StringIO(text))
    if reader.fieldnames is None or set(reader.fieldnames) != set(COLUMNS):
        raise InputError(f"the header must be: {','.join(COLUMNS)}", path=str(path), line=1)
    return [(reader.line_num, {k: (v if v != "" else None) for k, v in r.items()})
            for r in reader]


def _parse(path: Path) -> list[tuple[int, ExchangeRow]]:
    out = []
    for n, data in _read_rows(path):
        try:
            out.append((n, ExchangeRow.model_validate(data)))
        except ValidationError as err:
            first = err.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or None
            raise InputError(first["msg"], path=str(path), line=n, field=field) from None
    return out


def _check(db: Database, row: ExchangeRow, cache: dict[str, Any]) -> tuple[str, str | None]:
    """(study id, normalised value); raises BedsideError when the row does not fit."""
    if row.study not in cache:
        study = studies.get_study(db, row.study)
        cache[row.study] = (study["id"], load_definition(study).effective_rubric(),
                            set(studies.study_consultations(db, study["id"])))
    study_id, rubric, members = cache[row.study]
    item = rubric.item(row.item)
    if item is None:
        raise InputError(f"'{row.item}' is not an item of study '{row.study}'", field="item")
    if row.consultation not in members:
        raise InputError(f"'{row.consultation}' is not in study '{row.study}'",
                         field="consultation")
    if (item.unit == "transcript") != (row.turn_idx < 0):
        raise InputError(f"item '{item.id}' is rated per {item.unit}", field="unit")
    value = None if row.value is None else item.accepts(row.value)
    if row.value is not None and value is None:
        raise InputError(f"'{row.value}' is not a valid answer to '{item.id}'", field="value")
    return study_id, value


def import_file(db: Database, path: Path | str) -> int:
    """Validate a CSV/JSONL export, then write it in one transaction; returns rows read."""
    p = Path(path)
    rows = _parse(p)
    cache: dict[str, Any] = {}
    checked = []
    for n, row in rows:
        try:
            checked.append((row, *_check(db, row, cache)))
        except InputError as err:
            raise InputError(err.reason, path=str(p), line=n, field=err.field) from None
        except BedsideError as err:
            raise InputError(str(err), path=str(p), line=n) from None
    with studies.write(db):
        for row, study_id, value in checked:
            rater_id = studies.ensure_rater(db, row.rater, row.rater_kind)
            a = studies.find_assignment(db, study_id, rater_id, row.consultation)
            if a is None:
                studies.add_assignments(db, study_id, rater_id, [(row.consultation, False)])
                a = studies.find_assignment(db, study_id, rater_id, row.consultation)
                assert a is not None
                studies.set_status(db, a["id"], studies.DONE)
            studies.import_rating(db, a["id"], (row.item, row.turn_idx), (value, row.comment),
                                  row.created_at, row.updated_at)
    return len(checked)
