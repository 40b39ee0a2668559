"""LLM-judged metric values, per judge: one row per (consultation, metric, judge).

The report score and the patient's ratings depend on who produced them (model, parameters,
prompt), so each judge's values are kept under its name (`judge:MODEL#H`,
`patient:MODEL#H`, see `core.metrics.identity`) and a second judge never replaces the
first's. Choosing which judge a table shows, and comparing judges, is
`core.usecases.judges`; computing the values is `core.usecases.scoring`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from sqlite_utils import Database

from core.metrics.base import Metrics
from core.transcript import utc_now
from db.jsoncol import dumps, loads

_CHUNK = 500  # ids per `IN (...)`: SQLite caps the number of bound parameters
#: name → consultation → judge → (value, detail)
Judged = dict[str, dict[str, dict[str, tuple[float | None, dict[str, Any]]]]]


def save_judged(db: Database, consultation_id: str, judge: str, metrics: Metrics, *,
                case_hash: str | None = None, cache_key: str | None = None) -> int:
    """Insert or replace this judge's value of each metric; NaN/inf are stored as NULL."""
    now = utc_now()
    rows = []
    for name, (value, detail) in metrics.items():
        finite = value is not None and math.isfinite(float(value))
        rows.append({"consultation_id": consultation_id, "name": name, "judge": judge,
                     "value": float(value) if finite and value is not None else None,
                     "detail": dumps(detail or {}), "computed_at": now,
                     "case_hash": case_hash, "cache_key": cache_key})
    with db.atomic():
        db.table("judged_metrics").upsert_all(rows, pk=("consultation_id", "name", "judge"))
    return len(rows)


def _in(n: int) -> str:
    return ",".join("?" * n)


def judged_values(db: Database, consultation_ids: Iterable[str], names: Iterable[str],
                  judges: Iterable[str] | None = None) -> Judged:
    """name → consultation → judge → (value, detail) of these consultations' judged values
    (of these judges; every judge when None)."""
    wanted, ids = list(names), list(consultation_ids)
    who = list(judges) if judges is not None else None
    out: Judged = {n: {} for n in wanted}
    if not wanted or not ids or who == []:
        return out
    extra = f" AND judge IN ({_in(len(who))})" if who else ""
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        for cid, name, judge, value, detail in db.execute(
                "SELECT consultation_id, name, judge, value, detail FROM judged_metrics WHERE"
                f" consultation_id IN ({_in(len(chunk))}) AND name IN ({_in(len(wanted))})"
                + extra, [*chunk, *wanted, *(who or [])]):
            out[name].setdefault(cid, {})[judge] = (value, loads(detail, {}) or {})
    return out


def judged_keys(db: Database, names: Iterable[str]
                ) -> dict[str, dict[str, dict[str, tuple[str | None, bool]]]]:
    """consultation → judge → metric name → (cache key, whether the call failed) of the
    stored judged values of these metrics: what tells a value already paid for."""
    wanted = list(names)
    out: dict[str, dict[str, dict[str, tuple[str | None, bool]]]] = {}
    if wanted:
        for cid, judge, name, key, failed in db.execute(
                "SELECT consultation_id, judge, name, cache_key,"
                " coalesce(json_extract(detail, '$.failed'), 0) FROM judged_metrics WHERE"
                f" name IN ({_in(len(wanted))})", wanted):
            out.setdefault(cid, {}).setdefault(judge, {})[name] = (key, bool(failed))
    return out


def judge_activity(db: Database, consultation_ids: Iterable[str], names: Iterable[str]
                   ) -> dict[str, tuple[int, int, str]]:
    """judge → (consultations it has a value for, of which defined, latest computed_at)
    among these consultations and metrics."""
    wanted, ids = list(names), list(consultation_ids)
    seen: dict[str, tuple[set[str], set[str], str]] = {}
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        for judge, cid, value, at in db.execute(
                "SELECT judge, consultation_id, value, computed_at FROM judged_metrics WHERE"
                f" consultation_id IN ({_in(len(chunk))}) AND name IN ({_in(len(wanted))})",
                [*chunk, *wanted]):
            some, defined, latest = seen.setdefault(judge, (set(), set(), ""))
            some.add(cid)
            if value is not None:
                defined.add(cid)
            seen[judge] = (some, defined, max(latest, at or ""))
    return {j: (len(s), len(d), at) for j, (s, d, at) in seen.items()}


def latest_judged(db: Database, consultation_id: str) -> Metrics:
    """Each judged metric of one consultation as its most recent judge gave it (any
    judge): what `get_metrics` adds to the offline values."""
    out: Metrics = {}
    for name, value, detail in db.execute(
            "SELECT name, value, detail FROM judged_metrics WHERE consultation_id = ?"
            " ORDER BY computed_at, rowid", [consultation_id]):
        out[name] = (value, loads(detail, {}) or {})
    return out


def migrate_judged_rows(db: Database) -> None:
    """Move the judged values stored one per (consultation, metric) into `judged_metrics`,
    each under the judge its detail names (m320)."""
    from core.metrics.identity import JUDGED_NAMES, stored_identity

    names = list(JUDGED_NAMES)
    rows = []
    for row in db.execute(
            "SELECT consultation_id, name, value, detail, computed_at, case_hash, cache_key"
            f" FROM metrics WHERE name IN ({_in(len(names))})", names).fetchall():
        cid, name, value, detail, at, digest, key = row
        rows.append({"consultation_id": cid, "name": name,
                     "judge": stored_identity(name, loads(detail, {}) or {}), "value": value,
                     "detail": detail, "computed_at": at, "case_hash": digest,
                     "cache_key": key})
    if rows:
        db.table("judged_metrics").insert_all(rows, pk=("consultation_id", "name", "judge"),
                                              replace=True)
    db.execute(f"DELETE FROM metrics WHERE name IN ({_in(len(names))})", names)
