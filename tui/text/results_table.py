"""The results tables as plain text: columns, cell formats and the footnote, shared by
`bedside results`, `bedside run`'s summary and the app's results screen."""

from __future__ import annotations

from typing import Any

from core.metrics.names import group_keys

# (column, header, format) of the text table after the group (and doctor) column; the JSON
# and CSV outputs have every field.
TEXT_COLUMNS: list[tuple[str, str, str]] = [
    ("doctor_kind", "KIND", "s"), ("finished", "N", "d"), ("accuracy", "ACC", "pct"),
    ("ci", "95% CI", "s"), ("no_diagnosis", "NO-DX", "d"), ("no_case_record", "NO-CASE", "d"),
    ("failed", "FAIL", "d"), ("mean_turns", "TURNS", ".1f"), ("mean_tests", "TESTS", ".1f"),
    ("tokens", "TOKENS", "d"), ("cost_usd", "COST$", ".4f"),
    ("entity_micro_f1", "ENT-F1", ".2f"), ("info_completeness", "INFO", ".2f"),
    ("guidance_precision", "GUID-P", ".2f"), ("guidance_recall", "GUID-R", ".2f"),
    ("behaviour_standardization", "ORDER", ".2f"), ("inquiry_coverage", "STEPS", ".2f"),
    ("clinical_applicability", "ROUNDS", ".2f"), ("treatment_logicality", "TX", ".2f"),
    ("report", "REPORT", "s"), ("pr", "PATIENT c/f/a", "s"),
]
CONSULTATION_COLUMNS: list[tuple[str, str, str]] = [
    ("consultation_id", "CONSULTATION", "s"), ("case_id", "CASE", "s"),
    ("doctor", "DOCTOR", "s"), ("end_reason", "END", "s"), ("correct", "OK", "d01"),
    ("entity_f1", "ENT-F1", ".2f"), ("info_completeness", "INFO", ".2f"),
    ("guidance_precision", "GUID-P", ".2f"), ("behaviour_standardization", "ORDER", ".2f"),
    ("inquiry_coverage", "STEPS", ".2f"), ("treatment_logicality", "TX", ".2f"),
    ("report_score", "REPORT", ".0f"), ("pr_confidence", "CONF", ".0f"),
]
FOOTNOTE = ("ACC counts no-diagnosis consultations as wrong (NO-DX); NO-CASE consultations "
            "(imported without their case record) are left out of ACC and every metric; "
            "95% CI is Wilson's. ORDER is Kendall's tau of the inquiry order over the steps "
            "reached, STEPS the share of expected steps reached. REPORT is 0-100 with a "
            "bootstrap 95% interval (bedside score); PATIENT c/f/a: confidence / "
            "compliance / would consult again, 1-10.")


def cell(value: Any, fmt: str) -> str:
    """One formatted cell; None is '-'."""
    if value is None:
        return "-"
    if fmt == "pct":
        return f"{value * 100:.1f}%"
    if fmt == "s":
        return str(value)
    if fmt == "d01":
        return "yes" if value >= 0.5 else "no"
    return format(value, fmt)


def derived(row: dict[str, Any]) -> dict[str, Any]:
    """A results row with the combined display cells (CI, report with CI, patient c/f/a)."""
    out = dict(row)
    if row.get("ci_low") is not None:
        out["ci"] = f"{row['ci_low'] * 100:.0f}-{row['ci_high'] * 100:.0f}%"
    if row.get("report_score") is not None:
        ci = (f" ({row['report_ci_low']:.0f}-{row['report_ci_high']:.0f})"
              if row.get("report_ci_low") is not None else "")
        out["report"] = f"{row['report_score']:.0f}{ci}"
    prs = [row.get(k) for k in ("pr_confidence", "pr_compliance", "pr_consult_again")]
    if any(v is not None for v in prs):
        out["pr"] = "/".join("-" if v is None else f"{v:.1f}" for v in prs)
    return out


def table_columns(by: str | tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(field, header, format) of every text column when grouping by `by` (one key or
    several): the group columns, the doctor unless a group column shows it, the rest."""
    keys = group_keys(by)
    lead = [(k, k.upper(), "s") for k in keys]
    if not {"model", "doctor"} & set(keys):
        lead.append(("doctor", "DOCTOR", "s"))
    return [*lead, *TEXT_COLUMNS]


def _render(rows: list[list[str]], headers: list[str]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))]
    lines.extend("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows)
    return lines


def format_table(rows: list[dict[str, Any]], by: str | tuple[str, ...]) -> str:
    """Plain-text table, one line per (group, doctor)."""
    if not rows:
        return "no finished consultations yet (run `bedside run` first)"
    cols = table_columns(by)
    cells = [[cell(derived(r).get(c), f) for c, _, f in cols] for r in rows]
    return "\n".join([*_render(cells, [h for _, h, _ in cols]), "", FOOTNOTE])


def format_consultations(rows: list[dict[str, Any]]) -> str:
    """Plain-text list, one line per consultation (JSON/CSV have every metric)."""
    if not rows:
        return "no consultations yet (run `bedside run` first)"
    cells = [[cell(r.get(c), f) for c, _, f in CONSULTATION_COLUMNS] for r in rows]
    return "\n".join(_render(cells, [h for _, h, _ in CONSULTATION_COLUMNS])
                     + ["", "--json or --csv print every metric and why one is undefined."])
