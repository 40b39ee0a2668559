"""Plain-text and Markdown renderings of an agreement report (the dict of `report.py`).

Both renderings share one layout: a list of sections, each a title, a table and notes.
An undefined number prints as "—" with its reason listed under the table.

Must not import: tui, textual, rich, litellm, db.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

STAT_LABELS = {"spearman": "Spearman rho", "kendall": "Kendall tau-b", "pearson": "Pearson r",
               "qwk": "Quadratic-weighted kappa", "mae": "Mean absolute error",
               "mean_diff": "Mean difference (judge − humans)", "loa_low": "Bland–Altman lower",
               "loa_high": "Bland–Altman upper", "accuracy": "Accuracy vs humans"}


@dataclass
class Section:
    """A titled table with notes."""

    title: str
    headers: list[str]
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    reasons: dict[str, list[str]] = field(default_factory=dict)  # reason -> row labels

    def all_notes(self) -> list[str]:
        """Notes, with rows undefined for the same reason listed together."""
        merged = [f"{', '.join(labels)}: {reason}" for reason, labels in self.reasons.items()]
        return merged + self.notes

    def stat_row(self, label: str, stat: dict[str, Any] | None, *extra: str) -> None:
        """Append a row: label, value, interval, n (recording an undefined value's reason)."""
        stat = stat or {"value": None, "reason": "not computed"}
        if stat.get("reason"):
            self.reasons.setdefault(stat["reason"], []).append(label.strip())
        self.rows.append([label, fmt(stat.get("value")), interval(stat),
                          str(stat.get("n") if stat.get("n") is not None else ""), *extra])


def fmt(x: Any, digits: int = 3) -> str:
    """A number to `digits` decimals; None → '—'."""
    if x is None:
        return "—"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        return f"{x:.{digits}f}"
    return str(x)


def interval(stat: dict[str, Any]) -> str:
    """'[low, high]' or '' when the statistic has no interval."""
    if stat.get("low") is None or stat.get("high") is None:
        return ""
    return f"[{stat['low']:.3f}, {stat['high']:.3f}]"


def _agreement_sections(item: dict[str, Any]) -> list[Section]:
    ag = item["agreement"]
    s = Section("Agreement among humans", ["statistic", "value", "95% interval", "n"])
    s.stat_row("Krippendorff alpha", ag["alpha"])
    for lv, st in ag["alpha_levels"].items():
        s.stat_row(f"  alpha ({lv})", st)
    s.stat_row("Fleiss kappa", ag["fleiss"])
    s.stat_row("Percent agreement (exact)", ag["percent_exact"])
    s.stat_row("Percent agreement (±1)", ag["percent_within_1"])
    if ag.get("icc"):
        for form, st in ag["icc"]["forms"].items():
            s.stat_row(form, st)
        if ag["icc"]["n_dropped"]:
            s.notes.append(f"ICC: {ag['icc']['n_dropped']} unit(s) left out (a rating missing)")
    c = Section("Cohen's kappa per pair of humans", ["pair", "unweighted", "linear",
                                                       "quadratic", "n"])
    for p in ag["cohen"]:
        c.rows.append([f"{p['rater_a']} / {p['rater_b']}", fmt(p["none"]["value"]),
                       fmt(p["linear"]["value"]), fmt(p["quadratic"]["value"]),
                       fmt(p["none"]["n"])])
        for w in ("none", "linear", "quadratic"):
            if p[w]["reason"]:
                c.reasons.setdefault(p[w]["reason"], []).append(
                    f"{p['rater_a']} / {p['rater_b']} ({w})")
    return [s, c] if ag["cohen"] else [s]


def _judge_sections(part: dict[str, Any], judge: str, nominal: bool) -> list[Section]:
    jr, out = part["judge"], []
    s = Section(f"Judge '{judge}' versus the mean of humans",
                ["statistic", "value", "95% interval", "n", "human ceiling", "judge (same refs)"])
    cm = jr["ceiling_mean"]
    for key, label in STAT_LABELS.items():
        if (key == "accuracy") != nominal:  # nominal items have accuracy and nothing else
            continue
        st = jr["item_level"][key]
        s.stat_row(label, st, fmt(cm.get(f"human.{key}")), fmt(cm.get(f"judge.{key}")))
    out.append(s)
    if nominal:
        out.append(_alt_section(part["alt_test"]))
        return out
    sys_s = Section(f"System level ({jr['n_systems']} systems)", ["statistic", "value",
                                                                  "95% interval", "n"])
    for key in ("spearman", "kendall", "pearson"):
        sys_s.stat_row(STAT_LABELS[key], jr["system_level"][key])
    out.append(sys_s)
    out.append(_alt_section(part["alt_test"]))
    return out


def _alt_section(at: dict[str, Any]) -> Section:
    s = Section(f"Alternative annotator test (ε = {at['epsilon']}, q = {at['q']})",
                ["human", "units", "judge wins", "human wins", "test", "p", "p (BY)",
                 "rejected"])
    for h in at["humans"]:
        s.rows.append([h["rater"], str(h["n_units"]), fmt(h["judge_win_rate"]),
                       fmt(h["human_win_rate"]), h["test"] or "—", fmt(h["p_value"], 4),
                       fmt(h["p_adjusted"], 4), fmt(h["rejected"])])
        if h.get("reason"):
            s.notes.append(f"{h['rater']}: {h['reason']}")
    w, a = at["winning_rate"], at["advantage_probability"]
    verdict = {True: "passes", False: "does not pass", None: "untestable"}[at["passed"]]
    s.notes.append(f"winning rate {fmt(w['value'])} → the judge {verdict} (needs ≥ 0.5); "
                   f"advantage probability {fmt(a['value'])}")
    if w.get("reason"):
        s.notes.append(f"winning rate: {w['reason']}")
    return s


def _document(report: dict[str, Any]) -> tuple[str, list[tuple[str, list[Section]]]]:
    head = (f"Agreement report — level {report['level']}, {report['n_ratings']} ratings, "
            f"judge {report['judge'] or '(none)'}, {report['n_boot']} bootstrap resamples")
    parts = []
    nominal = report["level"] == "nominal"
    for item in report["items"]:
        title = (f"Item {item['item']}: {len(item['humans'])} humans, {item['n_units']} units, "
                 f"{item['n_ratings']} ratings")
        secs = _agreement_sections(item)
        if item.get("judge"):
            secs += _judge_sections(item, report["judge"], nominal)
        elif item.get("judge_reason"):
            secs.append(Section("Judge", [], notes=[item["judge_reason"]]))
        parts.append((title, secs))
    if report.get("overall"):
        parts.append(("All items pooled", _judge_sections(report["overall"], report["judge"],
                                                          nominal)))
    return head, parts


def _text_table(headers: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [headers, *rows]) for i in range(len(headers))]
    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = [c.rjust(w) for c, w in zip(cells[1:], widths[1:])]
        return "  ".join([first, *rest]).rstrip()
    return [line(headers), "  ".join("-" * w for w in widths), *map(line, rows)]


def render_text(report: dict[str, Any]) -> str:
    """A readable plain-text report with aligned tables."""
    head, parts = _document(report)
    out = [head, "=" * len(head)]
    for title, secs in parts:
        out += ["", title, "-" * len(title)]
        for s in secs:
            out += ["", s.title]
            if s.headers:
                out += ["  " + x for x in _text_table(s.headers, s.rows)]
            out += [f"  * {n}" for n in s.all_notes()]
    return "\n".join(out) + "\n"


def render_markdown(report: dict[str, Any]) -> str:
    """The report as Markdown with pipe tables."""
    head, parts = _document(report)
    out = [f"# {head}"]
    for title, secs in parts:
        out += ["", f"## {title}"]
        for s in secs:
            out += ["", f"### {s.title}", ""]
            if s.headers:
                esc = [[c.replace("|", "\\|") for c in r] for r in [s.headers, *s.rows]]
                out.append("| " + " | ".join(esc[0]) + " |")
                out.append("|" + "|".join(["---"] + ["---:"] * (len(s.headers) - 1)) + "|")
                out += ["| " + " | ".join(r) + " |" for r in esc[1:]]
                out.append("")
            out += [f"- {n}" for n in s.all_notes()]
    return "\n".join(out) + "\n"
