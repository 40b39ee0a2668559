"""Metric rows of consultations: one row per (consultation, metric name), replaced on
recompute, with the content hash of the case they were computed on and, for LLM-based
metrics, the cache key of the model, parameters and prompt that produced them.

Computing them (what is missing or stale, the model calls) is `core.usecases.scoring`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from sqlite_utils import Database

from core.metrics.base import Metrics
from core.records.runs import MetricRow
from core.transcript import utc_now
from db.jsoncol import dumps, loads

_CHUNK = 500  # ids per `IN (...)`: SQLite caps the number of bound parameters


def save_metrics(db: Database, consultation_id: str, metrics: Metrics, *,
                 case_hash: str | None = None, cache_key: str | None = None) -> int:
    """Insert or replace one row per metric; NaN/inf are stored as NULL. Returns the count."""
    now = utc_now()
    rows = []
    for name, (value, detail) in metrics.items():
        finite = value is not None and math.isfinite(float(value))
        rows.append({"consultation_id": consultation_id, "name": name,
                     "value": float(value) if finite and value is not None else None,
                     "detail": dumps(detail or {}), "computed_at": now,
                     "case_hash": case_hash, "cache_key": cache_key})
    with db.atomic():
        db.table("metrics").upsert_all(rows, pk=("consultation_id", "name"))
    return len(rows)


def get_metrics(db: Database, consultation_id: str) -> Metrics:
    """All stored metrics of one consultation, `{name: (value, detail)}`."""
    return {r["name"]: (r["value"], loads(r["detail"], {})) for r in db.table("metrics")
            .rows_where("consultation_id = ?", [consultation_id], order_by="name")}


def _row(r: dict[str, Any]) -> MetricRow:
    return MetricRow.model_validate({**r, "detail": loads(r["detail"], {}) or {}})


def metric_rows(db: Database, consultation_ids: Iterable[str] | None = None,
                names: Iterable[str] | None = None) -> list[MetricRow]:
    """Stored metric rows of these consultations (all when None) and these metric names
    (all when None)."""
    name_list = list(names) if names is not None else None
    name_sql = f" AND name IN ({','.join('?' * len(name_list))})" if name_list else ""
    if name_list == []:
        return []
    if consultation_ids is None:
        return [_row(r) for r in db.query(f"SELECT * FROM metrics WHERE 1{name_sql}",
                                          name_list or [])]
    ids = list(consultation_ids)
    out: list[MetricRow] = []
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        out += [_row(r) for r in db.query(
            f"SELECT * FROM metrics WHERE consultation_id IN ({','.join('?' * len(chunk))})"
            f"{name_sql}", [*chunk, *(name_list or [])])]
    return out
