"""`bedside results --regress` as plain text: one line per doctor, outcome and predictor
(slope with its 95 % interval, R², n, the method), then the reasons of undefined fits.
The scatter plots are drawn by the caller (`tui.app.widgets.plots.group_scatter`)."""

from __future__ import annotations

import textwrap
from typing import Any

from tui.text.safe import sanitize

HEADERS = ("doctor", "outcome", "predictor", "n", "slope", "95% interval", "R²", "method")


def _num(value: Any, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _who(fit: dict[str, Any]) -> str:
    """The doctor and its settings, as the results table names a row."""
    return fit["doctor"] + (f" ({fit['settings']})" if fit.get("settings") else "")


def fit_lines(fits: list[dict[str, Any]], by: list[str]) -> list[str]:
    """The fits as an aligned text table (group columns first unless grouped by model)."""
    lead = [k for k in by if k not in ("model", "doctor")]
    head = [*lead, *HEADERS]
    rows = []
    for f in fits:
        who = _who(f)
        interval = (f"[{_num(f['ci_low'])}, {_num(f['ci_high'])}]"
                    if f.get("ci_low") is not None else "-")
        rows.append([*(str(f.get(k) or "") for k in lead), who, f["outcome"], f["predictor"],
                     str(f["n"]), _num(f["slope"]), interval, _num(f["r2"]),
                     f["method"] if f.get("r2") is not None else "-"])
    rows = [[sanitize(c) for c in r] for r in rows]  # doctor labels are user text
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    numeric = set(range(len(lead) + 3, len(head) - 1))

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if i in numeric else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    out = [line(head), "  ".join("-" * w for w in widths), *map(line, rows)]
    reasons: dict[str, list[str]] = {}
    for f in fits:
        if f.get("reason"):
            reasons.setdefault(f["reason"], []).append(
                f"{_who(f)} {f['outcome']}~{f['predictor']}")
    for reason, who in reasons.items():  # undefined fits, grouped by why
        out += textwrap.wrap(sanitize(f"{reason}: {', '.join(who)}"), 118,
                             initial_indent="  ", subsequent_indent="    ")
    return out


LEGEND = ("slope: change in the outcome per unit of the predictor (information_gathered: "
          "from none to all of the case's information; turns: per doctor turn), with its 95 % "
          "interval; R²: share of the outcome's variance the line explains. accuracy is "
          "fitted as a linear probability model (its slope is a change in the probability "
          "of being right) with heteroskedasticity-consistent (HC3) errors; diagnosis_f1 and "
          "report_score by ordinary least squares.")
