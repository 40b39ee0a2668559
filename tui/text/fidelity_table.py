"""The fidelity report as text, JSON and table lines (the CLI's and the app's one source).

Agents are columns, side by side, ranked within each role (patient, examiner); checks are
rows. Each share is over the answers the rules decided, with its Wilson 95 % interval and
counts; with a grader, the share over rules- and grader-decided answers, the grader's own
pass share (honesty, relevance, accuracy) and its agreement with the rules on the answers
both decide: percent agreement and Cohen's kappa (`annotation.analysis.kappa`). Labels, run
names and answers are untrusted text: sanitised here.
"""

from __future__ import annotations

from typing import Any

from annotation.analysis.kappa import kappa_from_table
from core.fidelity.table import CHECK_NAMES, MAIN_CHECK, AgentRow, CheckFigures
from core.usecases.fidelity import FidelityTable
from tui.text.safe import sanitize

ROLES = ("patient", "examiner")
LABEL_WIDTH = 36
COLUMN_WIDTH = 31
#: Rows of each role's table: check names in order.
#: The first lines of every column: rank, run, agent (the app puts them in the header).
HEAD_LINES = 3
ROLE_CHECKS = {"patient": ("consistent", "addresses", "language"),
               "examiner": ("accuracy", "language")}


def agreement(table: list[list[int]] | None) -> dict[str, Any]:
    """Percent agreement and Cohen's kappa of a rules × grader 2 × 2 table."""
    if table is None:
        return {"n": 0, "percent": None, "kappa": None, "kappa_reason": "no grader"}
    n = sum(map(sum, table))
    kappa = kappa_from_table(table)
    return {"n": n, "percent": (table[0][0] + table[1][1]) / n if n else None,
            "kappa": kappa.value, "kappa_reason": kappa.reason}


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _ci(low: float | None, high: float | None) -> str:
    return "" if low is None or high is None else f" [{100 * low:.1f}–{100 * high:.1f}%]"


def _share(fig: CheckFigures) -> str:
    return f"{_pct(fig.rate)}{_ci(fig.ci_low, fig.ci_high)} {fig.passed}/{fig.passed + fig.failed}"


def _check_lines(name: str, fig: CheckFigures | None, graded: bool) -> list[tuple[str, str]]:
    label = CHECK_NAMES[name]
    if fig is None:
        return [(label, "—")]
    lines = [(label, _share(fig)), ("  undecided by the rules", str(fig.undecided))]
    if graded and fig.agreement is not None:
        extra = fig.grader_passed + fig.grader_failed
        both = fig.passed + fig.grader_passed
        lines += [("  with the grader", f"{_pct(fig.combined_rate)}"
                   f"{_ci(fig.combined_ci_low, fig.combined_ci_high)} {both}/"
                   f"{both + fig.failed + fig.grader_failed} (+{extra})"),
                  ("  grader alone", f"{_pct(fig.grader_rate)} of {fig.grader_decided}")]
        agree = agreement(fig.agreement)
        kappa = "κ —" if agree["kappa"] is None else f"κ {agree['kappa']:.2f}"
        lines.append(("  grader vs rules", f"{_pct(agree['percent'])}, {kappa} "
                      f"(n {agree['n']})"))
    return lines


def row_lines(row: AgentRow, graded: bool) -> list[tuple[str, str]]:
    """(label, value) lines of one agent's column, in the order every column shares."""
    lines = [("rank", f"#{row.rank}"), ("run", sanitize(row.run_name or row.run_id)),
             ("agent", sanitize(row.agent)), ("consultations", str(row.consultations)),
             ("answers", str(row.answers)),
             ("leaks", f"{row.leaks} of {row.answers}{_ci(row.leak_ci_low, row.leak_ci_high)}")]
    for name in ROLE_CHECKS[row.role]:
        lines += _check_lines(name, row.checks.get(name), graded)
    if graded:
        lines.append(("graded answers", f"{row.graded} ({row.grader_failures} failed)"))
    return lines


def role_rows(table: FidelityTable, role: str) -> list[AgentRow]:
    """The agents of one role, best first."""
    return sorted((r for r in table.rows if r.role == role), key=lambda r: r.rank)


def role_block(table: FidelityTable, role: str) -> tuple[list[str], list[list[str]]]:
    """(labels, one column of values per agent) of one role's table."""
    rows = role_rows(table, role)
    graded = table.grader is not None
    columns = [row_lines(r, graded) for r in rows]
    labels = [label for label, _ in columns[0]] if columns else []
    return labels, [[value for _, value in col] for col in columns]


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def heading(table: FidelityTable) -> list[str]:
    """What the report is about: runs, the questions, the grader."""
    out = []
    for run in table.runs:
        out.append(f"run {sanitize(run.run_id)}"
                   + (f" ({sanitize(run.name)})" if run.name and run.name != run.run_id
                      else "")
                   + f": {run.checked}/{run.consultations} consultations checked"
                   + (f", {run.no_case} without a case record" if run.no_case else "")
                   + f"; doctor {', '.join(sanitize(d) for d in run.doctors) or '—'}")
    if len(table.runs) > 1 and not table.same_questions:
        out.append("note: the runs' doctors differ, so their agents did not answer the same "
                   "questions (replay one file in each run: --doctor replay:FILE)")
    grader = table.grader
    out.append(f"grader: {sanitize(grader.model)}#{grader.grader_key}" if grader
               else "grader: none (rules only; add --grader MODEL)")
    return out


def format_report(table: FidelityTable) -> str:
    """The report as plain text, one table per role."""
    out = heading(table)
    for role in ROLES:
        labels, columns = role_block(table, role)
        if not columns:
            continue
        out += ["", f"{role.upper()} AGENTS — ranked by {CHECK_NAMES[MAIN_CHECK[role]]}; "
                "shares over the answers the rules decided, Wilson 95 % CI"]
        for i, label in enumerate(labels):
            cells = "".join(_clip(col[i], COLUMN_WIDTH - 1).ljust(COLUMN_WIDTH)
                            for col in columns)
            out.append(f"{label:<{LABEL_WIDTH}}{cells}".rstrip())
    if not table.rows:
        out += ["", "no answer checked (no finished consultation with a case record)"]
    if table.examples:
        out += ["", "FAILED ANSWERS (a few per agent)"]
        for ex in table.examples:
            out.append(f"- {sanitize(ex.agent)} [{ex.role}, {ex.check}] "
                       f"{sanitize(ex.prompt)!r} → {sanitize(ex.answer)[:160]!r}: "
                       f"{sanitize(ex.reason)}")
    return "\n".join(out)


def as_json(table: FidelityTable) -> dict[str, Any]:
    """The report as JSON: the stored figures plus each check's agreement statistics."""
    data = table.model_dump(mode="json")
    for row in data["rows"]:
        for fig in row["checks"].values():
            fig["grader_agreement"] = agreement(fig["agreement"])
    return data
