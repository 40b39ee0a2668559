"""What a display needs from agreement reports: one view per item (its report part, its
sections laid out as in the text report, and the per-unit numbers of its plots), the pooled
blocks, and the overview row of an item. Plain data: the app's analysis screen shows it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from annotation.analysis.render import (STAT_LABELS, Section, fmt, interval, item_sections,
                                        pooled_sections, verdict)

POOLED_TITLE = {"nominal": "Choice items pooled", "ordinal": "Scale items pooled"}


@dataclass
class ItemView:
    """One analysed rubric item: its report part and the per-unit data of its plots."""

    item: str
    level: str
    judge: str | None
    part: dict[str, Any]
    pairs: list[tuple[float, float]] = field(default_factory=list)  # (mean of humans, judge)
    human_values: list[Any] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)


@dataclass
class Analysis:
    """A computed report, ready to show: title, notes, items and pooled blocks."""

    title: str
    views: list[ItemView]
    pooled: list[tuple[str, list[Section]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _number(value: Any) -> float | None:
    try:
        x = float(value)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def unit_pairs(rows: list[dict[str, Any]], judge: str | None) -> list[tuple[float, float]]:
    """(mean of the humans, judge) for every unit both rated with a number."""
    if judge is None:
        return []
    humans: dict[str, list[float]] = defaultdict(list)
    judged: dict[str, float] = {}
    for r in rows:
        x = _number(r["value"])
        if x is None:
            continue
        if r["rater"] == judge:
            judged[r["unit"]] = x
        else:
            humans[r["unit"]].append(x)
    return [(sum(humans[u]) / len(humans[u]), judged[u]) for u in sorted(judged) if humans[u]]


def item_views(reports: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[ItemView]:
    """Flatten agreement reports to one view per item, with the ratings of its plots.

    `rows` are the analysed ratings as dicts with unit, rater, value and item.
    """
    by_item: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        by_item[r.get("item") or "(one item)"].append(r)
    views = []
    for report in reports:
        judge, level = report.get("judge"), report["level"]
        for part in report["items"]:
            mine = by_item.get(part["item"], [])
            item_judge = judge if part.get("judge") else None
            views.append(ItemView(
                item=part["item"], level=level, judge=item_judge, part=part,
                pairs=unit_pairs(mine, item_judge) if level != "nominal" else [],
                human_values=[r["value"] for r in mine if r["rater"] != item_judge],
                sections=item_sections(part, judge, level == "nominal")
                if "agreement" in part else []))
    return views


def build_analysis(title: str, reports: list[dict[str, Any]],
                   rows: list[dict[str, Any]], notes: list[str]) -> Analysis:
    """The views of `reports` (their rows for the plots) and their pooled blocks."""
    pooled = [(POOLED_TITLE.get(r["level"], "All items pooled"), pooled_sections(r))
              for r in reports]
    return Analysis(title, item_views(reports, rows), [p for p in pooled if p[1]], notes)


def overview_row(v: ItemView) -> list[str]:
    """Item, level, units, humans, alpha [CI], Fleiss, % exact, judge, ceiling, alt-test."""
    ag = v.part["agreement"]
    alpha = ag["alpha"]
    key = "accuracy" if v.level == "nominal" else "spearman"
    judge, ceiling, alt = "—", "—", "—"
    if v.judge:
        jr = v.part["judge"]
        judge = f"{STAT_LABELS[key].split()[0]} {fmt(jr['item_level'][key]['value'])}"
        ceiling = fmt(jr["ceiling_mean"].get(f"human.{key}"))
        alt = verdict(v.part["alt_test"]).removeprefix("the judge ")
    return [v.item, v.level, str(v.part["n_units"]), str(len(v.part["humans"])),
            f"{fmt(alpha['value'])} {interval(alpha)}".strip(), fmt(ag["fleiss"]["value"]),
            fmt(ag["percent_exact"]["value"]), judge, ceiling, alt]


OVERVIEW = ("Item", "Level", "Units", "Humans", "α [95% CI]", "Fleiss κ", "% exact",
            "Judge", "Human ceiling", "Alt-test")
