"""Plain-text and Markdown renderings of an agreement report (the dict of `report.py`).

Both renderings, and the app's analysis screen, share one layout: a list of sections, each a
title, a table and notes (`item_sections`, `pooled_sections`). An undefined number prints as
"—" with its reason listed under the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

STAT_LABELS = {"spearman": "Spearman rho", "kendall": "Kendall tau-b", "pearson": "Pearson r",
               "qwk": "Quadratic-weighted kappa", "mae": "Mean absolute error",
               "mean_diff": "Mean difference (judge − humans)", "loa_low": "Bland–Altman lower",
               "loa_high": "Bland–Altman upper", "accuracy": "Accuracy vs humans"}
CEILING_KEYS = {"numeric": (("spearman", "rho"), ("qwk", "QWK"), ("mae", "MAE")),
                "nominal": (("accuracy", "accuracy"),)}


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


def agreement_section(item: dict[str, Any], who: str = "humans") -> Section:
    """Agreement among humans (or among `who`, e.g. judges): alpha at every level, Fleiss,
    percent agreement, ICC."""
    ag = item["agreement"]
    s = Section(f"Agreement among {who}", ["statistic", "value", "95% interval", "n"])
    s.stat_row("Krippendorff α", ag["alpha"])
    for lv, st in ag["alpha_levels"].items():
        s.stat_row(f"  α ({lv})", st)
    s.stat_row("Fleiss κ", ag["fleiss"])
    s.stat_row("Percent agreement (exact)", ag["percent_exact"])
    s.stat_row("Percent agreement (±1)", ag["percent_within_1"])
    if ag.get("icc"):
        for form, st in ag["icc"]["forms"].items():
            s.stat_row(form, st)
        s.notes += ag["icc"].get("notes") or []
        if ag["icc"]["n_dropped"]:
            s.notes.append(f"ICC: {ag['icc']['n_dropped']} unit(s) with a single rating left "
                           "out")
    return s


def cohen_section(item: dict[str, Any], who: str = "humans") -> Section:
    """Cohen's kappa of each pair of humans (or of `who`): unweighted, linear and quadratic
    weights."""
    ag = item["agreement"]
    headers = ["pair", "unweighted", "linear", "quadratic", "n"] if ag["cohen"] else []
    c = Section(f"Cohen's κ per pair of {who}", headers)
    for p in ag["cohen"]:
        c.rows.append([f"{p['rater_a']} / {p['rater_b']}", fmt(p["none"]["value"]),
                       fmt(p["linear"]["value"]), fmt(p["quadratic"]["value"]),
                       fmt(p["none"]["n"])])
        for w, name in (("none", "unweighted"), ("linear", "linear"),
                        ("quadratic", "quadratic")):
            if p[w]["reason"]:
                c.reasons.setdefault(p[w]["reason"], []).append(
                    f"{p['rater_a']} / {p['rater_b']} ({name})")
    if ag.get("cohen_reason"):
        c.notes.append(ag["cohen_reason"])
    return c


def judge_table(jr: dict[str, Any], judge: str, nominal: bool) -> Section:
    """The judge against the mean of humans, with the mean leave-one-out ceiling beside."""
    s = Section(f"Judge '{judge}' versus the mean of humans",
                ["statistic", "value", "95% interval", "n", "human ceiling",
                 "judge (same refs)"])
    cm = jr["ceiling_mean"]
    for key, label in STAT_LABELS.items():
        if (key == "accuracy") != nominal:  # nominal items have accuracy and nothing else
            continue
        s.stat_row(label, jr["item_level"][key], fmt(cm.get(f"human.{key}")),
                   fmt(cm.get(f"judge.{key}")))
    s.notes.append("human ceiling: each human against the other humans, averaged over humans; "
                   "judge (same refs): the judge against those same humans on the same units")
    return s


def ceiling_section(jr: dict[str, Any], nominal: bool) -> Section:
    """One row per held-out human: that human and the judge against the other humans."""
    keys = CEILING_KEYS["nominal" if nominal else "numeric"]
    headers = ["held-out human", "units"]
    for _, short in keys:
        headers += [f"{short} human", f"{short} judge"]
    s = Section("Human–human ceiling (leave one out)", headers)
    for row in jr["ceiling"]:
        cells = [row["rater"], str(row["human"]["n_units"])]
        for key, _ in keys:
            cells += [fmt(row["human"][key]["value"]), fmt(row["judge"][key]["value"])]
        s.rows.append(cells)
    if not jr["ceiling"]:
        s.notes.append("needs two or more humans: each is compared with the others")
    else:
        s.notes.append("both on the same units: rated by the judge, by that human and by "
                       "another human")
    return s


def system_section(jr: dict[str, Any]) -> Section:
    """Per-system (doctor model) means and the system-level correlations."""
    n = jr["n_systems"]
    s = Section(f"System level: {n} doctor model{'' if n == 1 else 's'}",
                ["statistic", "value", "95% interval", "n"])
    for key in ("spearman", "kendall", "pearson"):
        s.stat_row(STAT_LABELS[key], jr["system_level"][key])
    for m in jr.get("systems") or []:
        s.notes.append(f"{m['system']}: judge {m['judge_mean']:.2f}, humans "
                       f"{m['human_mean']:.2f} ({m['n_units']} units)")
    return s


def alt_section(at: dict[str, Any]) -> Section:
    """The alternative annotator test: per-human rows, the winning rate and the verdict."""
    s = Section(f"Alternative annotator test (ε = {at['epsilon']}, q = {at['q']})",
                ["human", "units", "judge wins", "human wins", "test", "p", "p (BY)",
                 "rejected"])
    for h in at["humans"]:
        units = str(h["n_units"])
        if h.get("n_instances") is not None:
            units += f" ({h['n_instances']})"
        s.rows.append([h["rater"], units, fmt(h["judge_win_rate"]),
                       fmt(h["human_win_rate"]), h["test"] or "—", fmt(h["p_value"], 4),
                       fmt(h["p_adjusted"], 4), fmt(h["rejected"])])
        if h.get("reason"):
            s.notes.append(f"{h['rater']}: {h['reason']}")
    w, a = at["winning_rate"], at["advantage_probability"]
    s.notes.append(f"verdict: {verdict(at)} — winning rate {fmt(w['value'])} (passes at ≥ 0.5), "
                   f"advantage probability {fmt(a['value'])}")
    if w.get("reason"):
        s.notes.append(f"winning rate: {w['reason']}")
    if any(h.get("n_instances") is not None for h in at["humans"]):
        s.notes.append("units counted by cluster (a transcript, or one unit across items): "
                       "wins are averaged within a cluster; rated units in brackets")
    return s


def verdict(at: dict[str, Any]) -> str:
    """'the judge passes', 'does not pass' or 'untestable'."""
    return {True: "the judge passes", False: "the judge does not pass",
            None: "untestable"}[at["passed"]]


def judge_sections(part: dict[str, Any], judge: str, nominal: bool) -> list[Section]:
    """Judge table, ceiling rows, system level (numeric items) and the alternative test."""
    jr = part["judge"]
    out = [judge_table(jr, judge, nominal), ceiling_section(jr, nominal)]
    if not nominal:
        out.append(system_section(jr))
    out.append(alt_section(part["alt_test"]))
    return out


def item_sections(item: dict[str, Any], judge: str | None, nominal: bool,
                  who: str = "humans") -> list[Section]:
    """Every section of one item: agreement among humans (or `who`), Cohen, and the
    judge's sections."""
    secs = [agreement_section(item, who), cohen_section(item, who)]
    if item.get("judge") and judge:
        secs += judge_sections(item, judge, nominal)
    if item.get("judge_reason"):
        secs.append(Section("Judge", [], notes=[item["judge_reason"]]))
    return secs


def pooled_sections(report: dict[str, Any]) -> list[Section]:
    """The judge over all items pooled, or a note saying why there is no such block."""
    overall = report.get("overall")
    if not overall:
        # Say why only where a reader would look for the block: a judge, several items.
        why = report.get("judge_reason") or (report.get("overall_reason")
                                             if report.get("judge") else None)
        if why and len(report["items"]) > 1:
            return [Section("All items pooled", [], notes=[why])]
        return []
    secs = judge_sections(overall, report["judge"], report["level"] == "nominal")
    head = (f"{len(overall['items'])} items ({', '.join(overall['items'])}), "
            f"{overall['n_units']} item × unit pairs from {overall['n_clusters']} units; "
            f"{overall['note']}")
    secs[0].notes.insert(0, head)
    for ex in overall.get("excluded") or []:
        secs[0].notes.append(f"left out: {ex['item']} ({ex['reason']})")
    return secs


def _document(report: dict[str, Any]) -> tuple[str, list[tuple[str, list[Section]]]]:
    head = (f"Agreement report — level {report['level']}, {report['n_ratings']} ratings, "
            f"judge {report['judge'] or '(none)'}, {report['n_boot']} bootstrap resamples")
    parts = []
    nominal = report["level"] == "nominal"
    who = report.get("raters") or "humans"  # whose agreement: humans, or LLM judges
    for item in report["items"]:
        title = (f"Item {item['item']}: {len(item['humans'])} {who}, {item['n_units']} units, "
                 f"{item['n_ratings']} ratings")
        parts.append((title, item_sections(item, report["judge"], nominal, who)))
    pooled = pooled_sections(report)
    if pooled:
        parts.append(("All items pooled", pooled))
    return head, parts


def text_table(headers: list[str], rows: list[list[str]]) -> list[str]:
    """Aligned lines: the header, a rule, the rows (first column left, the rest right)."""
    widths = [max(len(r[i]) for r in [headers, *rows]) for i in range(len(headers))]
    def line(cells: list[str]) -> str:
        first = cells[0].ljust(widths[0])
        rest = [c.rjust(w) for c, w in zip(cells[1:], widths[1:], strict=False)]
        return "  ".join([first, *rest]).rstrip()
    return [line(headers), "  ".join("-" * w for w in widths), *map(line, rows)]


def render_text(report: dict[str, Any]) -> str:
    """A readable plain-text report with aligned tables."""
    head, parts = _document(report)
    out = [head, "=" * len(head)]
    if report.get("judge_reason"):
        out.append(f"Judge: {report['judge_reason']}")
    for title, secs in parts:
        out += ["", title, "-" * len(title)]
        for s in secs:
            out += ["", s.title]
            if s.headers:
                out += ["  " + x for x in text_table(s.headers, s.rows)]
            out += [f"  * {n}" for n in s.all_notes()]
    return "\n".join(out) + "\n"


def render_markdown(report: dict[str, Any]) -> str:
    """The report as Markdown with pipe tables."""
    head, parts = _document(report)
    out = [f"# {head}"]
    if report.get("judge_reason"):
        out += ["", f"Judge: {report['judge_reason']}"]
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
