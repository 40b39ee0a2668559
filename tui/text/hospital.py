"""The whole hospital as plain text (`bedside hospital` and `bedside hospital show`): what
was simulated, the departments, the day-by-day accounting and the metrics.

Everything is computed by `core.hospital.metrics` from the reducer's state; this module
only lays it out (in 100 columns). Names that came from a user or a model are sanitised.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui.text.safe import sanitize

METRIC_LINES = (
    ("triage_accuracy", "triage: patients sent to their right department"),
    ("examination_accuracy", "examination: a suitable examination chosen"),
    ("diagnosis_accuracy", "diagnosis: the right disease"),
    ("treatment_accuracy", "treatment: the right level (with the right diagnosis)"),
    ("revisits", "revisits: patients back after a treatment that did not fit"),
    ("mean_days_to_recovery", "days from falling ill to recovery (mean, the recovered)"),
    ("mean_days_waited", "days queued before the consultation (mean)"),
)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def _num(value: Any) -> str:
    if value is None:
        return "—"
    return f"{value:.2f}" if isinstance(value, float) else str(value)


def header(m: dict[str, Any], opened: dict[str, Any], run: str) -> str:
    """What was simulated, in three lines (each within 120 columns for a usual run)."""
    doctors = ", ".join(f"{d.get('id')} {sanitize(str(d.get('doctor')))}"
                        for d in opened.get("departments", []))
    return (f"hospital {sanitize(run)} ({m['status']}): {m['residents']} residents, "
            f"{m['days']} days, seed {m['seed']}\nonset {opened.get('onset')}, follow-up "
            f"after {opened.get('followup_days')} days, triage "
            f"{sanitize(str(opened.get('triage')))}\ndoctors: {doctors}")


def departments_table(m: dict[str, Any]) -> str:
    """One line per department."""
    head = (f"{'department':<22}{'doctor':<18}{'cap':>4}{'sent':>6}{'triage':>8}{'belong':>8}"
            f"{'seen':>6}{'exam':>6}{'diag':>6}{'treat':>7}{'queued':>8}")
    lines = [head]
    for d in m["departments"].values():
        lines.append(
            f"{sanitize(str(d['name']))[:21]:<22}{sanitize(str(d['doctor']))[:17]:<18}"
            f"{_num(d['capacity']):>4}{d['triaged']:>6}{_pct(d['triage_accuracy']):>8}"
            f"{d['belong']:>8}{d['consultations']:>6}{_pct(d['examination_accuracy']):>6}"
            f"{_pct(d['diagnosis_accuracy']):>6}{_pct(d['treatment_accuracy']):>7}"
            f"{d['waiting_at_end']:>8}")
    # Two lines: one was 134 columns and a 120-column terminal cut "depa|rtment".
    lines.append("sent: patients triaged there · triage: of them, sent to the right department")
    lines.append("belong: triaged patients whose right department it is")
    return "\n".join(lines)


def ledger_table(days: list[dict[str, Any]]) -> str:
    """One line per day: the flows, where everyone was at its end, whether it adds up."""
    head = (f"{'day':>3}{'ill':>6}{'back':>6}{'triaged':>9}{'seen':>6}{'followed':>10}"
            f"{'recovered':>11}{'queued':>8}{'at home':>9}{'done':>6}  counts")
    lines = [head]
    for d in days:
        census = d["census"]
        lines.append(f"{d['day']:>3}{d['fell_ill']:>6}{d['revisits']:>6}{d['triaged']:>9}"
                     f"{d['seen']:>6}{d['followed_up']:>10}{d['recovered']:>11}"
                     f"{census.get('queue', 0):>8}{census.get('home', 0):>9}"
                     f"{census.get('recovered', 0):>6}  "
                     f"{_verdict(d)}")
    return "\n".join(lines)


def _verdict(day: dict[str, Any]) -> str:
    if day["cut_short"]:
        return "cut short"
    return "add up" if day["balanced"] else "DO NOT ADD UP"


def broken_checks(days: list[dict[str, Any]]) -> list[str]:
    """Each check that does not hold (on a day not cut short), as a line."""
    return [f"day {d['day']}: {c['check']}: {c['left']} ≠ {c['right']}"
            for d in days if not d["cut_short"] for c in d["checks"] if not c["holds"]]


def metrics_lines(m: dict[str, Any]) -> str:
    """The metrics, one a line, with their JSON keys."""
    lines = []
    for key, words in METRIC_LINES:
        value = m[key]
        shown = _pct(value) if key.endswith("accuracy") else _num(value)
        lines.append(f"{key:<24}{shown:>7}  {words}")
    lines.append(f"{'patients':<24}{m['patients']:>7}  fell ill; {m['consultations']} "
                 f"consultations, {m['recovered']} recovered, {m['in_care']} still in care "
                 f"({m['waiting_at_end']} queued, {m['convalescing_at_end']} at home)")
    if m["failed_consultations"] or m["triage_fallbacks"]:
        lines.append(f"{'failed_consultations':<24}{m['failed_consultations']:>7}  "
                     f"(triage fallbacks: {m['triage_fallbacks']})")
    return "\n".join(lines)


def report(m: dict[str, Any], days: list[dict[str, Any]], opened: dict[str, Any],
           run: str) -> str:
    """The whole report."""
    parts = [header(m, opened, run), "", departments_table(m), "", ledger_table(days), "",
             metrics_lines(m), ""]
    broken = broken_checks(days)
    if broken:
        parts.append("COUNTS DO NOT ADD UP:\n" + "\n".join(broken))
    else:
        whole = [d for d in days if not d["cut_short"]]
        parts.append(f"every patient is accounted for on each of the {len(whole)} whole days "
                     f"({len(days[0]['checks']) if days else 0} checks a day hold)"
                     + ("; the last day was cut short" if len(whole) < len(days) else ""))
    return "\n".join(parts)


_BLIND: dict[str, Callable[[dict[str, Any], str], str]] = {
    "ill": lambda d, dept: f"fell ill: {d.get('who')}",
    "sent": lambda d, dept: f"sent to {dept}",
    "answered": lambda d, dept: f"{d.get('answer') or 'no answer'}",
    "improved": lambda d, dept: "improved",
    "worsened": lambda d, dept: "worse, back to triage",
}


def event_line(e: Any, names: dict[str, str] | None = None, *, blind: bool = False) -> str:
    """One event as the live screen's log shows it, e.g.
    'd3 r0012 v2 triage: sent to Emergency (right: emergency)'. `blind` (a physician takes a
    department on this screen) leaves out what would tell them a patient's disease or
    severity before they see the patient: the disease at onset, the right department, other
    doctors' verdicts, the levels at follow-up."""
    d = e.detail
    dept = (names or {}).get(e.department or "", e.department or "")
    if blind and e.what in _BLIND and e.patient is not None:
        return sanitize(f"d{e.day} {e.patient} v{e.visit} {e.station}: "
                        f"{_BLIND[e.what](d, dept)}")
    said = {
        "ill": lambda: f"fell ill: {d.get('who')}, {d.get('disease')} ({d.get('level')})",
        "sent": lambda: f"sent to {dept}" + ("" if d.get("correct") else
                                             f" (right: {d.get('right')})"),
        "queued": lambda: f"queued at {dept}, number {d.get('position')}",
        "waits": lambda: f"waits at {dept} (day {d.get('days_waited')} in the queue)",
        "seen": lambda: f"seen in {dept} by {d.get('doctor')}",
        "answered": lambda: f"{d.get('answer') or 'no answer'} — "
                            f"{'right' if d.get('correct') else 'wrong'}",
        "prescribed": lambda: f"{d.get('disease')}, {d.get('level')}",
        "nothing": lambda: "nothing prescribed",
        "home": lambda: f"home until day {d.get('until')}",
        "improved": lambda: f"improved ({d.get('level')})",
        "worsened": lambda: f"worse: {d.get('level')} → {d.get('now')}, back to triage",
        "recovered": lambda: f"recovered after {d.get('days')} days",
    }.get(e.what)
    if e.patient is None:
        return f"day {e.day}: hospital {e.what}" + (f" ({d['status']})" if "status" in d
                                                     else "")
    text = said() if said is not None else e.what
    return sanitize(f"d{e.day} {e.patient} v{e.visit} {e.station}: {text}")
