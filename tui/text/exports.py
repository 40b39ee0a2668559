"""Files researchers and raters read outside bedside: a rater's assignment sheet as
Markdown and CSV, every other CSV (results, ratings), and transcripts as Markdown (their
JSON Lines form is data, written by the command line as it comes).

Every CSV cell goes through `csv_cell`: control characters made visible (`sanitize`), and a
text cell that a spreadsheet would run as a formula — one starting with `=`, `+`, `-`, `@`,
a tab or a carriage return — gets a leading apostrophe (`'=HYPERLINK(…)`), which a
spreadsheet shows as text and `bedside ratings import` drops again. Numbers (`-2.5`) are
left as they are: a spreadsheet reads them as numbers, never as formulas.

Untrusted text (what doctors, patients and examiners said; case text; names) goes into a
Markdown file inside a fenced block whose fence is longer than any run of its fence
character in the text, after `tui.text.safe.sanitize`: a Markdown viewer shows it as typed
(no link, no HTML, no heading is made of it) and a terminal `cat` cannot be restyled by it.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from typing import Any

from tui.text.safe import sanitize


def fenced(text: str | None) -> str:
    """`text` as a literal Markdown block (a `~` fence longer than any in the text)."""
    body = sanitize(text or "").rstrip("\n")
    longest = max((len(m) for m in re.findall(r"~+", body)), default=0)
    fence = "~" * max(3, longest + 1)
    return f"{fence}\n{body}\n{fence}"


def plain(text: str | None) -> str:
    """A short value (a name, an id, a label) for a Markdown line: one line, no markup
    characters that would change how it is shown."""
    one = " ".join(sanitize(text or "").split())
    return re.sub(r"([\\`*_{}\[\]<>()#+!|~])", r"\\\1", one)


# -- the assignment sheet --------------------------------------------------------------------

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A value as a CSV cell a spreadsheet cannot run (None → empty; numbers as they are)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        return value
    if value.startswith(_FORMULA_START) and not _is_number(value):
        value = "'" + value
    return sanitize(value)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def rows_csv(rows: Iterable[dict[str, Any]], fields: list[str]) -> str:
    """Rows as CSV with a header, every cell through `csv_cell`: an assignment sheet for a
    spreadsheet (whose `value` column the rater fills in), results, ratings."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: csv_cell(row.get(k)) for k in fields})
    return buf.getvalue()


def ratings_csv(rows: list[Any]) -> str:
    """A study's ratings (`annotation.exchange.export_rows`) as CSV, safe for a spreadsheet;
    `bedside ratings import` reads it back unchanged."""
    from annotation.exchange import COLUMNS, csv_records

    return rows_csv(csv_records(rows), list(COLUMNS))


def sheet_markdown(sheet: Any, csv_name: str) -> str:
    """The rater's transcripts with the questions to answer, as Markdown."""
    view = sheet.view
    out = [f"# Rating sheet: {plain(view.study)}, rater {plain(sheet.rater)}", "",
           f"{len(sheet.transcripts)} transcripts to rate. Write each answer in the `value` "
           f"column of `{plain(csv_name)}` (a spreadsheet opens it), on the row of its "
           "transcript (T1, T2, …), question and unit; leave a row empty to leave that "
           "question unanswered. Questions marked required must be answered for a transcript "
           "to count as rated. Then give the file back: `bedside ratings import FILE`.", "",
           "## Instructions", "", fenced(view.instructions or "(none)"), "", "## Questions", ""]
    for q in view.rubric.items:
        where = "each eligible turn" if q.unit == "turn" else "the whole transcript"
        out.append(f"- `{q.id}` ({'required' if q.required else 'optional'}, for {where}): "
                   f"{plain(q.label)}")
    for t in sheet.transcripts:
        out += ["", f"## {t.key}", ""]
        ref = t.item.reference
        if ref is None:
            out += ["Case record: not available for this transcript; rate from the "
                    "transcript alone.", ""]
        else:
            out += ["### Case record", "", fenced(ref.patient), "", fenced(ref.findings), ""]
            if ref.truth:
                out += [f"Correct diagnosis: {plain(ref.truth)}", ""]
            if ref.treatment:
                out += [f"Record's treatment: {plain(ref.treatment)}", ""]
        out += ["### Transcript", ""]
        for turn in t.item.turns:
            out += [f"**{plain(turn.who)}**, turn:{turn.index} "
                    f"({plain(_kind(turn.kind, turn.round))})", "", fenced(turn.content), ""]
    return "\n".join(out).rstrip() + "\n"


def _kind(kind: str, round_: int | None) -> str:
    """A turn's kind in words, with a collaboration's round ('revision, round 1')."""
    words = kind.replace("_", " ")
    return f"{words}, round {round_}" if round_ else words


# -- transcripts --------------------------------------------------------------------------------

def transcripts_markdown(records: Iterable[dict[str, Any]]) -> str:
    """Exported transcripts (`core.usecases.transcript_export`) as one Markdown file."""
    out = ["# Transcripts", ""]
    for r in records:
        out += [f"## {plain(r['consultation_id'])}", ""]
        for label, key in (("Case", "case_id"), ("Case title", "case_title"),
                           ("Run", "run_id"), ("Doctor", "doctor"), ("Patient", "patient"),
                           ("Examiner", "examiner"), ("Status", "status"),
                           ("Ended", "end_reason"), ("Diagnosis", "diagnosis"),
                           ("Correct diagnosis", "truth"), ("Verdict", "verdict"),
                           ("Doctor turns", "doctor_turns"), ("Started", "started_at")):
            if r.get(key) not in (None, ""):
                out.append(f"- {label}: {plain(str(r[key]))}")
        report = r.get("report") or {}
        for label, key in (("Differential", "differential"), ("Rationale", "rationale"),
                           ("Treatment plan", "treatment_plan")):
            value = report.get(key)
            if value:
                text = "; ".join(value) if isinstance(value, list) else str(value)
                out += ["", f"{label}:", "", fenced(text)]
        out += ["", "### Turns", ""]
        for t in r["turns"]:
            head = f"**{plain(t.get('speaker') or str(t['role']).title())}**"
            if t.get("doctor_turn"):
                head += f", turn {t['doctor_turn']}"
            out += [f"{head} ({plain(_kind(str(t.get('kind') or 'message'), t.get('round')))})",
                    "", fenced(t["content"]), ""]
    return "\n".join(out).rstrip() + "\n"
