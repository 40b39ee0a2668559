"""A rater's assignment sheet: their transcripts still to rate, to rate elsewhere (a
spreadsheet, paper, another site) and bring back with `bedside ratings import`.

A sheet is two things: the rows (long format, the columns `bedside ratings import`
reads, with an empty `value` per question to answer) and the blinded transcripts with the
study's instructions and questions (written as Markdown by the command line). It holds
exactly what the rating screen shows a rater: the blinded turns, the case record if the
study shows one, the rubric — never the doctor, the model or the other raters. The row's
`consultation` cell holds the rater's *assignment* id, not the transcript's id (those may
say where a transcript came from: 'hum-' is a physician's); `ratings import` maps it back.
The helper columns (`transcript`, `question`, `answers`, `required`) are for the reader and
are ignored on import. Answers already given are not in the sheet.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from annotation.assignment import load_definition
from annotation.blinding import BlindItem, RaterView, blind_item, rater_view, rating_units
from annotation.exchange import ExchangeRow
from annotation.rubric import RubricItem
from annotation.session import match_rater
from core.errors import InputError
from core.ports.studies import ReaderStudyStore
from core.records.studies import PENDING
from core.transcript import utc_now

#: The columns of a sheet that only help its reader (ignored by `ratings import`).
SHEET_COLUMNS = ("transcript", "question", "answers", "required")


class SheetRow(ExchangeRow):
    """One question to answer, as a row `bedside ratings import` reads back."""

    transcript: str = Field(description="'T1', 'T2', … in the rater's order (the Markdown's "
                            "headings).")
    question: str = Field(description="The question as the rater reads it.")
    answers: str = Field(description="What may be written in `value`.")
    required: str = Field(description="'yes' when it must be answered.")


class SheetTranscript(BaseModel):
    """One transcript of the sheet: its key and what the rater may see of it."""

    key: str = Field(description="'T1', 'T2', …")
    item: BlindItem = Field(description="The blinded transcript (turns, case record).")


class Sheet(BaseModel):
    """One rater's sheet of one study."""

    rater: str = Field(description="The rater, as the study spells the name.")
    view: RaterView = Field(description="Study name, instructions, rubric.")
    transcripts: list[SheetTranscript] = Field(description="Still to rate, in order.")
    rows: list[SheetRow] = Field(description="One row per question to answer.")


def answers_of(item: RubricItem) -> str:
    """What a rater may answer, in words: '1-10 (1 = …, 10 = …)', 'yes / no', 'text'."""
    if item.kind == "scale":
        anchors = "; ".join(f"{k} = {a}" for k, a in sorted(item.anchors.items()))
        return f"{item.min}-{item.max}" + (f" ({anchors})" if anchors else "")
    if item.kind == "choice":
        return " / ".join(item.options)
    return "text"


def assignment_sheet(store: ReaderStudyStore, study: str, rater: str) -> Sheet:
    """The sheet of `rater` (any case) in `study`: their pending transcripts and one row per
    question of each; InputError when the rater is not one of the study's."""
    record = store.get_study(study)
    definition = load_definition(record)
    name = match_rater(definition.raters, rater)
    if name is None:
        raise InputError(f"rater '{rater}' is not in study '{record.name}'", field="--rater")
    view = rater_view(definition)
    found = store.find_rater(name)
    pending = [a for a in (store.assignments(record.id, found.id) if found else [])
               if a.status == PENDING]
    now = utc_now()
    transcripts, rows = [], []
    for n, a in enumerate(pending, 1):
        item = blind_item(store, a, definition.show_truth)
        key = f"T{n}"
        transcripts.append(SheetTranscript(key=key, item=item))
        for question, idx in rating_units(view.rubric, item.turns):
            rows.append(SheetRow(
                study=record.name, consultation=a.id, item=question.id,
                unit="transcript" if idx < 0 else f"turn:{idx}", rater=name,
                rater_kind="human", created_at=now, updated_at=now, transcript=key,
                question=question.label, answers=answers_of(question),
                required="yes" if question.required else "no"))
    return Sheet(rater=name, view=view, transcripts=transcripts, rows=rows)
