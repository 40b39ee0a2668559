"""Export ratings to CSV / JSONL in long format, and import them back.

One row per answered unit: study, consultation, item (rubric item id), unit ('transcript'
or 'turn:N'), rater, rater_kind, value, comment, created_at, updated_at (ISO-8601 UTC), then
the assignment's status ('done', 'pending', 'skipped') and skip_reason, and for judges the
settings that are their identity (judge_model, judge_params, judge_prompt_hash). A skipped
transcript with no answers is one row with an empty item. A `consultation` column is added to
the issue's list because a row is meaningless without its transcript.

Import reads CSV (a UTF-8 byte-order mark, as Excel writes, is fine; the first ten columns
are required, the others optional) or JSON Lines (numbers are accepted as values). Every
row is checked first — one-line errors naming file, line and field — and then the whole
file is written in one transaction: all or nothing. A row is refused when its unit is not a
rating unit of that transcript for that item, or its rater_kind (or judge settings) differ
from the stored rater's. A stored answer changed at the same time or later than the file's
is kept unless `replace`; rows with neither value nor comment are skipped; both are reported.
An assignment is marked done once the imported answers cover its required units. A rater
the study does not have is an error (naming every such rater and the line where each first
appears) unless `add_raters`: a typo in a name must not make a new rater.

`export_rows` and `import_file` are the use cases behind `bedside ratings export|import`;
they read and write through the `ReaderStudyStore` port.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from annotation.assignment import load_definition
from annotation.blinding import transcript_units
from annotation.rubric import Rubric
from core.errors import BedsideError, InputError
from core.ports.studies import ReaderStudyStore, StudyStore
from core.records.studies import (DONE, PENDING, SKIPPED, AssignmentRecord, StudyRating, Unit)

REQUIRED = ("study", "consultation", "item", "unit", "rater", "rater_kind", "value",
            "comment", "created_at", "updated_at")
COLUMNS = (*REQUIRED, "status", "skip_reason", "judge_model", "judge_params",
           "judge_prompt_hash")
#: The helper columns of an assignment sheet (`annotation.sheet`): read and ignored.
IGNORED = ("transcript", "question", "answers", "required")
_UNIT = re.compile(r"^(transcript|turn:\d+)$")
NO_REASON = "(skipped; no reason given)"


def _utc(value: Any) -> str:
    """An ISO-8601 time with a zone, normalised to the project's UTC form (ms, 'Z')."""
    example = "an ISO-8601 UTC time such as 2025-01-31T09:30:00Z"
    try:
        when = datetime.fromisoformat(str(value).strip())
    except ValueError:
        raise ValueError(f"'{value}' is not {example}") from None
    if when.tzinfo is None:
        raise ValueError(f"'{value}' has no time zone; expected {example}")
    return when.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class ExchangeRow(BaseModel):
    """One rating (or one skip) in long format."""

    model_config = ConfigDict(extra="forbid")

    study: str = Field(min_length=1, description="Study name.")
    consultation: str = Field(min_length=1, description="Consultation (transcript) id.")
    item: str | None = Field(None, description="Rubric item id; empty on a skip row.")
    unit: str = Field(pattern=_UNIT.pattern, description="'transcript' or 'turn:N'.")
    rater: str = Field(min_length=1, description="Rater name.")
    rater_kind: Literal["human", "judge"] = Field(description="Human or LLM judge.")
    value: str | None = Field(None, description="The answer as stored text.")
    comment: str | None = Field(None, description="The rater's comment on this unit.")
    created_at: str = Field(description="ISO-8601 UTC time first rated.")
    updated_at: str = Field(description="ISO-8601 UTC time last changed.")
    status: Literal["done", "pending", "skipped"] | None = Field(
        None, description="The rater's assignment status when exported.")
    skip_reason: str | None = Field(None, description="Why the rater skipped the transcript.")
    judge_model: str | None = Field(None, description="Judges: the model string.")
    judge_params: dict[str, Any] | None = Field(None, description="Judges: sampling parameters.")
    judge_prompt_hash: str | None = Field(None, description="Judges: hash of the fixed prompt.")

    @field_validator("created_at", "updated_at", mode="before")
    @classmethod
    def _time(cls, value: Any) -> str:
        return _utc(value)

    @field_validator("value", mode="before")
    @classmethod
    def _number_as_text(cls, value: Any) -> Any:
        # JSON Lines written by other tools carry scores as numbers (7, 7.0).
        if isinstance(value, bool):
            raise ValueError("expected text or a number, not true/false")
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return str(value) if isinstance(value, int | float) else value

    @field_validator("judge_params", mode="before")
    @classmethod
    def _params(cls, value: Any) -> Any:
        # A CSV cell holds the parameters as JSON text ('' as none).
        return (json.loads(value) if value else None) if isinstance(value, str) else value

    @property
    def turn_idx(self) -> int:
        """-1 for the transcript, else the turn index."""
        return -1 if self.unit == "transcript" else int(self.unit.split(":")[1])

    @property
    def is_skip(self) -> bool:
        """A row that records only that the rater skipped the transcript."""
        return self.item is None


# -- export -------------------------------------------------------------------------------

def _row(study: str, r: StudyRating) -> ExchangeRow:
    judge = r.rater.kind == "judge"
    unit = "transcript" if r.turn_idx < 0 else f"turn:{r.turn_idx}"
    return ExchangeRow(study=study, consultation=r.consultation_id, item=r.item, unit=unit,
                       rater=r.rater.name, rater_kind=r.rater.kind, value=r.value,
                       comment=r.comment, created_at=r.created_at, updated_at=r.updated_at,
                       status=r.status, skip_reason=r.skip_reason,
                       judge_model=r.rater.model if judge else None,
                       judge_params=r.rater.params if judge else None,
                       judge_prompt_hash=r.rater.prompt_hash if judge else None)


def export_rows(store: ReaderStudyStore, study: str) -> list[ExchangeRow]:
    """Every rating of a study in long format (by rater, transcript, item, unit), then one
    row per skipped transcript that has no answers."""
    record = store.get_study(study)
    listed = [*store.study_ratings(record.id), *store.unrated_skips(record.id)]
    return [_row(record.name, r) for r in listed]


def csv_records(rows: list[ExchangeRow]) -> list[dict[str, Any]]:
    """Rows as the cells of a CSV file, by column (judge_params as JSON); written by
    `tui.text.exports.ratings_csv`, which makes every cell safe for a spreadsheet."""
    return [{k: json.dumps(v, sort_keys=True) if isinstance(v, dict) else v
             for k, v in r.model_dump().items()} for r in rows]


def to_jsonl(rows: list[ExchangeRow]) -> str:
    """Rows as JSON Lines."""
    return "".join(json.dumps(r.model_dump(), ensure_ascii=False) + "\n" for r in rows)


# -- reading -------------------------------------------------------------------------------

def _read_jsonl(path: Path, text: str) -> list[tuple[int, dict[str, Any]]]:
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


def _cell(value: str) -> str | None:
    """A CSV cell as written: empty is None, and the apostrophe our exports put before a
    cell a spreadsheet would run as a formula (`'=…`, `'+…`, `'-…`, `'@…`) is dropped."""
    if value == "":
        return None
    if len(value) > 1 and value[0] == "'" and value[1] in "=+-@\t\r":
        return value[1:]
    return value


def _read_csv(path: Path, text: str) -> list[tuple[int, dict[str, Any]]]:
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in reader.fieldnames or []]
    missing = [c for c in REQUIRED if c not in header]
    unknown = [c for c in header if c not in COLUMNS and c not in IGNORED]
    if missing or unknown:
        what = f"missing column '{missing[0]}'" if missing else f"unknown column '{unknown[0]}'"
        raise InputError(f"{what}; the header is {','.join(REQUIRED)} (then optionally "
                         f"{','.join(COLUMNS[len(REQUIRED):])})", path=str(path), line=1)
    reader.fieldnames = header
    out, start = [], reader.line_num + 1
    for r in reader:
        if None in r:
            raise InputError("more cells than columns", path=str(path), line=start)
        out.append((start, {k: _cell(v) for k, v in r.items() if k not in IGNORED}))
        start = reader.line_num + 1  # a quoted cell may span lines: report the first one
    return out


def read_rows(path: Path) -> list[tuple[int, ExchangeRow]]:
    """(line, row) for every data row of a CSV or JSONL file; InputError on the first bad one."""
    try:
        text = path.read_text(encoding="utf-8-sig")  # -sig: drop Excel's byte-order mark
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read ({err.__class__.__name__})", path=str(path)) from None
    raw = (_read_jsonl(path, text) if path.suffix in (".jsonl", ".ndjson", ".json")
           else _read_csv(path, text))
    out = []
    for n, data in raw:
        try:
            out.append((n, ExchangeRow.model_validate(data)))
        except ValidationError as err:
            first = err.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or None
            raise InputError(first["msg"].removeprefix("Value error, "), path=str(path),
                             line=n, field=where) from None
    return out


# -- checking ------------------------------------------------------------------------------

@dataclass
class _Study:
    id: str
    name: str
    rubric: Rubric
    members: set[str]
    raters: set[str]
    units: dict[str, set[Unit]] = field(default_factory=dict)


@dataclass
class _Checked:
    line: int
    row: ExchangeRow
    study: _Study
    value: str | None


class _Checker:
    """Checks rows against the store; remembers studies, transcripts and raters."""

    def __init__(self, store: StudyStore) -> None:
        self.store = store
        self.studies: dict[str, _Study] = {}
        self.kinds: dict[str, tuple[str, Any]] = {}  # rater → (kind, judge settings)
        self.seen: dict[tuple[Any, ...], int] = {}
        self.unknown: dict[tuple[str, str], int] = {}  # (study, rater) → first line

    def study(self, name: str) -> _Study:
        """The study called `name` (NotFoundError if there is none), loaded once."""
        if name not in self.studies:
            s = self.store.get_study(name)
            self.studies[name] = _Study(s.id, s.name, load_definition(s).effective_rubric(),
                                        set(self.store.study_consultations(s.id)),
                                        {r.name for r in self.store.study_raters(s.id)})
        return self.studies[name]

    def unknown_raters(self, path: Path) -> InputError | None:
        """One error naming every rater the file gives a study that does not have them."""
        if not self.unknown:
            return None
        (study, first), line = next(iter(self.unknown.items()))
        names = [f"'{r}'{self._hint(s, r)}" + (f" (line {n})" if i else "")
                 for i, ((s, r), n) in enumerate(self.unknown.items())]
        more = f", nor {', '.join(names[1:])}" if len(names) > 1 else ""
        return InputError(f"{names[0]} is not a rater of study '{study}'{more}; add "
                          f"--add-raters to add {'them' if more else 'it'}", path=str(path),
                          line=line, field="rater")

    def _hint(self, study: str, rater: str) -> str:
        near = [m for m in self.studies[study].raters if m.casefold() == rater.casefold()]
        return f" (did you mean '{near[0]}'?)" if near else ""

    def rater(self, row: ExchangeRow) -> None:
        """Refuse a row whose rater_kind or judge settings differ from the stored rater's
        (or from an earlier row of the file, for a rater not stored yet)."""
        settings = ((row.judge_model, row.judge_params, row.judge_prompt_hash)
                    if row.judge_model else None)
        if row.rater not in self.kinds:
            stored = self.store.find_rater(row.rater)
            self.kinds[row.rater] = ((stored.kind, (stored.model, stored.params,
                                                    stored.prompt_hash))
                                     if stored else (row.rater_kind, settings))
        kind, known = self.kinds[row.rater]
        if kind != row.rater_kind:
            raise InputError(f"rater '{row.rater}' is a {kind} rater, not a {row.rater_kind}",
                             field="rater_kind")
        if kind == "judge" and settings is not None and known not in (None, settings):
            raise InputError(f"judge '{row.rater}' has other settings (model, parameters or "
                             "prompt hash) than stored", field="judge_model")

    def check(self, line: int, row: ExchangeRow) -> _Checked:
        """Check one row; InputError (with the field) when it does not fit the database."""
        st = self.study(row.study)
        row = self._sheet_row(st, row)
        if row.consultation not in st.members:
            raise InputError(f"'{row.consultation}' is not in study '{row.study}'",
                             field="consultation")
        self.rater(row)
        if row.rater not in st.raters:
            self.unknown.setdefault((st.name, row.rater), line)
        key = (row.study, row.rater, row.consultation, row.item, row.unit)
        if key in self.seen:
            raise InputError(f"the same rating as line {self.seen[key]}", field="unit")
        self.seen[key] = line
        if row.is_skip:
            if row.status != "skipped" or row.unit != "transcript" or row.value or row.comment:
                raise InputError("an empty item is only allowed on a skip row (status "
                                 "'skipped', unit 'transcript', no value)", field="item")
            return _Checked(line, row, st, None)
        return _Checked(line, row, st, self._value(st, row))

    def _sheet_row(self, st: _Study, row: ExchangeRow) -> ExchangeRow:
        """A row of an assignment sheet names the rater's assignment ('as-…') instead of
        the transcript (blinding); the row as if it named the transcript."""
        if row.consultation in st.members or not row.consultation.startswith("as-"):
            return row
        try:
            a = self.store.get_assignment(row.consultation)
        except BedsideError:
            return row  # refused below as not in the study
        rater = self.store.find_rater(row.rater)
        if a.study_id != st.id or rater is None or a.rater_id != rater.id:
            raise InputError(f"assignment '{row.consultation}' is not {row.rater}'s in "
                             f"study '{row.study}'", field="consultation")
        return row.model_copy(update={"consultation": a.consultation_id})

    def _value(self, st: _Study, row: ExchangeRow) -> str | None:
        item = st.rubric.item(str(row.item))
        if item is None:
            raise InputError(f"'{row.item}' is not an item of study '{row.study}'", field="item")
        if (item.unit == "transcript") != (row.turn_idx < 0):
            raise InputError(f"item '{item.id}' is rated per {item.unit}", field="unit")
        if row.consultation not in st.units:
            st.units[row.consultation] = transcript_units(self.store, row.consultation,
                                                          st.rubric)
        if (item.id, row.turn_idx) not in st.units[row.consultation]:
            raise InputError(f"{row.unit} of '{row.consultation}' is not rated for "
                             f"'{item.id}' (no such turn, or a turn of another role or kind)",
                             field="unit")
        value = None if row.value is None else item.accepts(row.value)
        if row.value is not None and value is None:
            raise InputError(f"'{row.value}' is not a valid answer to '{item.id}'", field="value")
        return value


# -- importing ------------------------------------------------------------------------------

@dataclass
class ImportSummary:
    """What an import did; `kept` and `empty` are (line, reason) notes for the user."""

    read: int = 0
    new: int = 0
    updated: int = 0
    same: int = 0
    marked_done: int = 0
    marked_skipped: int = 0
    kept: list[tuple[int, str]] = field(default_factory=list)
    empty: list[int] = field(default_factory=list)
    added_raters: list[tuple[str, str]] = field(default_factory=list)  # (study, rater)


def _assignment(store: StudyStore, c: _Checked) -> AssignmentRecord:
    row = c.row
    rater = (store.ensure_rater(row.rater, row.rater_kind, model=row.judge_model,
                                params=row.judge_params, prompt_hash=row.judge_prompt_hash)
             if row.judge_model else store.ensure_rater(row.rater, row.rater_kind))
    a = store.find_assignment(c.study.id, rater.id, row.consultation)
    if a is None:
        store.add_assignments(c.study.id, rater.id, [(row.consultation, False)])
        a = store.find_assignment(c.study.id, rater.id, row.consultation)
    assert a is not None
    return a


def _settle(store: ReaderStudyStore, assignment_id: str, rows: list[_Checked], replace: bool,
            summary: ImportSummary) -> None:
    """Mark an assignment skipped (a skip row) or done (required units answered)."""
    a = store.get_assignment(assignment_id)
    skip = next((c.row for c in rows if c.row.status == "skipped"), None)
    if skip is not None and (a.status == PENDING or replace):
        store.set_status(a.id, SKIPPED, skip.skip_reason or NO_REASON, at=skip.updated_at)
        if a.status != SKIPPED:
            summary.marked_skipped += 1
        return
    if a.status != PENDING:
        return
    study = rows[0].study
    required = {(i, t) for i, t in study.units.get(a.consultation_id, set())
                if (item := study.rubric.item(i)) is not None and item.required}
    answered = {u for u, (v, _) in store.assignment_ratings(a.id).items() if v is not None}
    if answered and required <= answered:
        store.set_status(a.id, DONE)
        summary.marked_done += 1


def _check_all(store: StudyStore, p: Path, summary: ImportSummary,
               add_raters: bool) -> list[_Checked]:
    """Every row of the file checked (InputError naming the line on the first bad one);
    rows with neither value nor comment are noted in `summary.empty` and left out. Raters
    the study does not have are an error unless `add_raters`."""
    checker, checked = _Checker(store), []
    for n, row in read_rows(p):
        summary.read += 1
        try:
            c = checker.check(n, row)
        except InputError as err:
            raise InputError(err.reason, path=str(p), line=n, field=err.field) from None
        except BedsideError as err:
            raise InputError(str(err), path=str(p), line=n) from None
        if not c.row.is_skip and c.value is None and c.row.comment is None:
            summary.empty.append(n)
        else:
            checked.append(c)
    unknown = checker.unknown_raters(p)
    if unknown is not None and not add_raters:
        raise unknown
    written = {(c.study.name, c.row.rater) for c in checked}
    summary.added_raters = [k for k in checker.unknown if k in written]
    return checked


def import_file(store: ReaderStudyStore, path: Path | str, *, replace: bool = False,
                add_raters: bool = False) -> ImportSummary:
    """Check a CSV/JSONL export whole, then write it in one transaction; `add_raters` lets
    it add raters the study does not have (else they are an error)."""
    p = Path(path)
    summary = ImportSummary()
    checked = _check_all(store, p, summary, add_raters)
    groups: dict[str, list[_Checked]] = {}
    with store.transaction():
        for c in checked:
            a = _assignment(store, c)
            groups.setdefault(a.id, []).append(c)
            if c.row.is_skip:
                continue
            outcome = store.import_rating(a.id, (str(c.row.item), c.row.turn_idx),
                                          (c.value, c.row.comment), c.row.created_at,
                                          c.row.updated_at, replace=replace)
            if outcome == "kept":
                summary.kept.append((c.line, "the stored answer is as new or newer"))
            else:
                setattr(summary, outcome, getattr(summary, outcome) + 1)
        for assignment_id, rows in groups.items():
            _settle(store, assignment_id, rows, replace, summary)
    return summary
