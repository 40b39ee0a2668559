"""The results tables as plain text: columns, cell formats and the legend, shared by
`bedside results`, `bedside run`'s summary and the app's results screen.

Every column is headed by the name the JSON keys and the CSV header use
(`core.metrics.names.public_name`), in words a clinician reads; the legend under a table
says what each one means. To fit 120 columns the text table comes in blocks (the
diagnosis; the clinical pathway; the report and patient ratings, when any were scored;
a collaboration's rounds and consensus, when there is one),
each repeating the group and doctor columns, and a long name is headed over two or three
lines, split where its words meet (`inquiry_order` is "inquiry" over "order").
"""

from __future__ import annotations

import textwrap
from typing import Any

from core.metrics.names import LEGEND, group_keys, public_name
from tui.text.safe import sanitize

WIDTH = 120  # the text tables and their legend fit this many columns
# (field, format) of the text table's blocks, after the group (and doctor) column; the
# header is the field's public name. The JSON and CSV outputs have every field.
BLOCKS: list[tuple[str, list[tuple[str, str]]]] = [
    ("diagnosis", [("n", "d"), ("cases", "d"), ("accuracy", "pct"), ("accuracy_ci", "s"),
                   ("no_diagnosis", "d"), ("undecided", "d"), ("failed", "d"),
                   ("no_case_record", "d"), ("mean_turns", ".1f"), ("mean_tests", ".1f"),
                   ("cost_usd", ".4f"), ("entity_micro_f1", ".2f")]),
    ("clinical pathway", [("info_completeness", ".2f"), ("guidance_precision", ".2f"),
                          ("guidance_recall", ".2f"), ("behaviour_standardization", ".2f"),
                          ("inquiry_coverage", ".2f"), ("clinical_applicability", ".2f"),
                          ("diagnostic_logicality", ".2f"), ("treatment_logicality", ".2f")]),
    ("report and patient ratings", [("report", "s"), ("pr_confidence", ".1f"),
                                    ("pr_compliance", ".1f"), ("pr_consult_again", ".1f")]),
    ("collaboration", [("rounds", ".1f"), ("consensus", "pct"),
                       ("rounds_to_consensus", "s")]),
]
#: Headers that are not a field's name: the report cell holds report_score and its interval.
HEADERS = {"report": "report_score"}
#: Every text column in one list (the app shows them in one scrolling table).
TEXT_COLUMNS: list[tuple[str, str, str]] = [
    ("doctor_kind", "kind", "s"),
    *((f, HEADERS.get(f, public_name(f)), fmt) for _, cols in BLOCKS for f, fmt in cols)]
CONSULTATION_COLUMNS: list[tuple[str, str, str]] = [
    ("consultation_id", "consultation", "s"), ("case_id", "case", "s"),
    ("doctor", "doctor", "s"), ("end_reason", "end_reason", "s"), ("correct", "correct", "d01"),
    ("diagnosis", "diagnosis", "s"),
]
#: The per-consultation text's metric block (after the consultation column).
CONSULTATION_METRICS: list[tuple[str, str]] = [
    ("entity_f1", ".2f"), ("info_completeness", ".2f"), ("guidance_precision", ".2f"),
    ("guidance_recall", ".2f"), ("behaviour_standardization", ".2f"),
    ("inquiry_coverage", ".2f"), ("clinical_applicability", ".2f"),
    ("treatment_logicality", ".2f"), ("report_score", ".0f"), ("pr_confidence", ".0f")]
FOOTNOTE = ("accuracy counts no_diagnosis as wrong; consultations with no_case_record are "
            "left out of accuracy and every metric; accuracy_ci is Wilson's 95 % interval. "
            "inquiry_order and inquiry_steps are reported side by side, never combined. "
            "--json and --csv give every field under the same names.")


def cell(value: Any, fmt: str) -> str:
    """One formatted cell; None is '-'."""
    if value is None:
        return "-"
    if fmt == "pct":
        return f"{value * 100:.1f}%"
    if fmt == "s":  # one line per row: a line break inside a value (a diagnosis) is a space
        return sanitize(" ".join(str(value).split()))
    if fmt == "d01":
        return "yes" if value >= 0.5 else "no"
    return format(value, fmt)


def derived(row: dict[str, Any]) -> dict[str, Any]:
    """A results row with the combined display cells (accuracy interval, report with its
    interval)."""
    out = dict(row)
    out["settings_cell"] = settings_cell(row.get("settings"))
    if row.get("ci_low") is not None:
        out["accuracy_ci"] = f"{row['ci_low'] * 100:.0f}-{row['ci_high'] * 100:.0f}%"
    if row.get("report_score") is not None:
        ci = (f" ({row['report_ci_low']:.0f}-{row['report_ci_high']:.0f})"
              if row.get("report_ci_low") is not None else "")
        out["report"] = f"{row['report_score']:.0f}{ci}"
    return out


def lead_columns(by: str | tuple[str, ...], settings: bool = True) -> list[tuple[str, str, str]]:
    """The columns every block starts with: the group keys, then the doctor (unless a group
    column shows it: grouped by model, the group is the doctor), then the settings (unless
    `settings` is false: every row has the defaults)."""
    keys = group_keys(by)
    lead = [(k, k, "s") for k in keys]
    if not {"model", "doctor"} & set(keys):
        lead.append(("doctor", "doctor", "s"))
    if settings:
        lead.append(("settings_cell", "settings", "s"))
    return lead


def table_columns(by: str | tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(field, header, format) of every text column when grouping by `by` (one table)."""
    return [*lead_columns(by), *TEXT_COLUMNS]


SETTINGS_WIDTH = 28  # the settings cell of the text table; JSON and CSV have them whole


def settings_cell(settings: str | None, width: int | None = None) -> str:
    """The settings as a cell: 'defaults' when none differ, cut at `width` with '…'."""
    text = settings or "defaults"
    return text if width is None or len(text) <= width else text[:width - 1] + "…"


def repeats_note(rows: list[dict[str, Any]]) -> list[str]:
    """A line for each row whose n counts a case more than once (cases < n)."""
    out = []
    for r in rows:
        if r.get("cases") is not None and r.get("n") and r["cases"] < r["n"]:
            who = " ".join(x for x in (r.get("doctor"), r.get("settings")) if x)
            out += textwrap.wrap(
                f"note: {sanitize(who)}: n {r['n']} counts {r['cases']} distinct cases, some "
                "more than once (several runs with the same settings); each consultation "
                "counts, they are not independent cases.", WIDTH, subsequent_indent="    ")
    return out


def header_lines(name: str, width: int) -> list[str]:
    """A header in at most three lines no wider than `width` where its words allow (split
    at underscores, each line but the last keeping its '_')."""
    words = name.split("_")
    lines: list[str] = []
    for word in words:
        # + 2: the '_' joining the word, and the one a line that goes on ends with.
        if lines and len(lines[-1]) + 2 + len(word) <= width:
            lines[-1] += "_" + word
        else:
            lines.append(word)
    while len(lines) > 3:  # never more than three: join the shortest neighbours
        i = min(range(len(lines) - 1), key=lambda k: len(lines[k]) + len(lines[k + 1]))
        lines[i:i + 2] = [lines[i] + "_" + lines[i + 1]]
    return [line + ("_" if i < len(lines) - 1 else "") for i, line in enumerate(lines)]


def _layout(rows: list[list[str]], headers: list[str]) -> tuple[list[int], list[list[str]]]:
    """Each column's width (its widest value, or its header split at '_', as narrow as its
    words allow) and its header lines."""
    widths, stacked = [], []
    for i, h in enumerate(headers):
        lines = header_lines(h, max([len(r[i]) for r in rows] + [3]))
        widths.append(max([len(r[i]) for r in rows] + [len(x) for x in lines]))
        stacked.append(lines)
    return widths, stacked


def _widths(rows: list[list[str]], headers: list[str]) -> list[int]:
    return _layout(rows, headers)[0]


def _render(rows: list[list[str]], headers: list[str], numeric: list[bool]) -> list[str]:
    """Aligned lines: each header over up to three lines, numbers right-aligned."""
    widths, stacked = _layout(rows, headers)
    depth = max(len(s) for s in stacked)
    heads = [[""] * (depth - len(s)) + s for s in stacked]
    out = ["  ".join(h[i].ljust(w) for h, w in zip(heads, widths, strict=True)).rstrip()
           for i in range(depth)]
    for r in rows:
        out.append("  ".join((c.rjust(w) if num else c.ljust(w))
                             for c, w, num in zip(r, widths, numeric, strict=True)).rstrip())
    return out


def _packed(lead: int, widths: list[int]) -> list[list[int]]:
    """Column indexes in groups that fit WIDTH after `lead` columns (each group at least
    one column, whatever its width)."""
    groups: list[list[int]] = [[]]
    used = lead
    for i, w in enumerate(widths):
        if groups[-1] and used + 2 + w > WIDTH:
            groups.append([])
            used = lead
        groups[-1].append(i)
        used += 2 + w
    return groups


def legend(names: list[str]) -> list[str]:
    """'name: meaning' for the names shown that the legend knows, wrapped to WIDTH."""
    seen = [n for n in dict.fromkeys(names) if n in LEGEND]
    return [line for n in seen for line in textwrap.wrap(
        f"{n}: {LEGEND[n]}", WIDTH, subsequent_indent="    ")]


#: Counts shown only when some row has one (a column of zeros is noise).
COUNTS_IF_ANY = ("undecided", "failed", "no_case_record")


def _block(rows: list[dict[str, Any]], lead: list[tuple[str, str, str]],
           cols: list[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """One block's lines, split into as many blocks as it takes to fit WIDTH (each
    repeating the lead columns), and the headers shown."""
    heads = [HEADERS.get(f, public_name(f)) for f, _ in cols]
    cells = [[cell(r.get(f), fmt) for f, fmt in cols] for r in rows]
    lead_cells = [[cell(r.get(f), fmt) for f, _, fmt in lead] for r in rows]
    lead_heads = [h for _, h, _ in lead]
    lead_width = sum(w + 2 for w in _widths(lead_cells, lead_heads)) - 2
    lines: list[str] = []
    for group in _packed(lead_width, _widths(cells, heads)):
        lines += [""] if lines else []
        lines += _render([lc + [c[i] for i in group] for lc, c in zip(lead_cells, cells,
                                                                     strict=True)],
                         lead_heads + [heads[i] for i in group],
                         [False] * len(lead) + [cols[i][1] != "s" for i in group])
    return lines, lead_heads + heads


def format_table(rows: list[dict[str, Any]], by: str | tuple[str, ...]) -> str:
    """Plain-text table in blocks no wider than WIDTH, one line per (group, doctor,
    settings), with the legend of the names shown."""
    if not rows:
        return "no finished consultations yet (run `bedside run` first)"
    shown = [{**derived(r), "settings_cell": settings_cell(r.get("settings"), SETTINGS_WIDTH)}
             for r in rows]
    # The settings column only when some row has settings of its own; cases only when
    # some row counts a case twice.
    lead = lead_columns(by, settings=any(r.get("settings") for r in rows))
    repeated = repeats_note(rows)
    lines: list[str] = []
    names: list[str] = []
    for title, cols in BLOCKS:
        present = [(f, fmt) for f, fmt in cols if any(r.get(f) is not None for r in shown)
                   and (f not in COUNTS_IF_ANY or any(r.get(f) for r in shown))
                   and (f != "cases" or repeated)]
        if title != "diagnosis" and not present:
            continue  # nothing scored in this block yet (e.g. no report judged)
        body, headers = _block(shown, lead, present or cols)
        lines += [*([""] if lines else []), f"-- {title} --", *body]
        names += headers
    return "\n".join([*lines, "", *legend(names), *repeated,
                      *textwrap.wrap(FOOTNOTE, WIDTH)])


def format_consultations(rows: list[dict[str, Any]]) -> str:
    """Plain-text list in two blocks (what happened, with the diagnosis given; the
    metrics), one line per consultation; JSON/CSV have every metric and the reasons."""
    if not rows:
        return "no consultations yet (run `bedside run` first)"
    numbered = [{**r, "#": str(i)} for i, r in enumerate(rows, 1)]
    columns = [("#", "#", "s"), *CONSULTATION_COLUMNS]
    what = [[cell(r.get(c), f) for c, _, f in columns] for r in numbered]
    what_lines = _render(what, [h for _, h, _ in columns], [f == "d01" for _, _, f in columns])
    # The diagnosis (untrusted, any length) is the last column: cut at WIDTH.
    what_lines = [line if len(line) <= WIDTH else line[:WIDTH - 1] + "…" for line in what_lines]
    # The metrics by row number: the consultation ids are in the block above.
    metrics, headers = _block(numbered, [("#", "#", "s")], CONSULTATION_METRICS)
    return "\n".join(["-- what happened --", *what_lines, "", "-- metrics --", *metrics, "",
                      *legend(["diagnosis", "correct", "end_reason", *headers]),
                      "--json or --csv print every metric and why one is undefined."])
