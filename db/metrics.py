"""Metric rows of consultations: one row per (consultation, metric name), replaced on
recompute, with the content hash of the case they were computed on and, for LLM-based
metrics, the cache key of the model, parameters and prompt that produced them.

Computing them (what is missing or stale, the model calls) is `core.usecases.scoring`.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable
from typing import Any

from sqlite_utils import Database

from core.metrics.base import Metrics
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
        # In the same transaction: the mark names exactly this set, all on this version.
        db.execute("UPDATE consultations SET metric_set = ? WHERE id = ?",
                   [set_mark(metrics, case_hash), consultation_id])
    return len(rows)


def set_signature(names: Iterable[str]) -> str:
    """A short digest of a set of metric names (order and repeats do not matter)."""
    text = "\n".join(sorted(set(names)))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def set_mark(names: Iterable[str], case_hash: str | None) -> str | None:
    """What `consultations.metric_set` holds once these metrics were saved together on this
    version of the case: '<signature> <case hash>' (None without a case hash: not a
    version anybody can check against)."""
    return None if case_hash is None else f"{set_signature(names)} {case_hash}"


def get_metrics(db: Database, consultation_id: str) -> Metrics:
    """All stored metrics of one consultation, `{name: (value, detail)}`; an LLM-judged one
    (stored per judge, `db.judged`) as its most recent judge gave it."""
    from db.judged import latest_judged

    out = {r["name"]: (r["value"], loads(r["detail"], {})) for r in db.table("metrics")
           .rows_where("consultation_id = ?", [consultation_id], order_by="name")}
    return {**out, **latest_judged(db, consultation_id)}


def metrics_by_consultation(db: Database, consultation_ids: Iterable[str],
                            names: Iterable[str] | None = None, *,
                            details: Iterable[str] | None = None) -> dict[str, Metrics]:
    """consultation → `{name: (value, detail)}` of these consultations' stored metrics (of
    these names; all when None). The results tables read thousands of values at once: as
    plain metric pairs, not one record each; with `details`, only those names' details are
    parsed (the others are `{}`: the results table reads the values of most metrics only,
    and parsing every detail was most of its time on 20,000 consultations), and the others'
    rows without a value are left out (as if not stored)."""
    parse = None if details is None else tuple(dict.fromkeys(details))
    name_list = list(names) if names is not None else None
    if name_list == []:
        return {}
    # `+name`: the names are a filter, not index seeks (one per id and name was slower).
    name_sql = f" AND +{_names_sql(name_list)}" if name_list else ""
    # A reader of values only finds a NULL value the same as no row: those rows stay in
    # SQLite (a third of the soak's rows: the metrics of other kinds of consultation).
    if parse is not None:
        name_sql += " AND (value IS NOT NULL" + \
            (f" OR {_names_sql(list(parse))})" if parse else ")")
    # Only the details asked for leave SQLite (most of the text read otherwise).
    detail_sql = "detail" if parse is None else \
        f"CASE WHEN {_names_sql(list(parse))} THEN detail END" if parse else "NULL"
    ids = list(consultation_ids)
    out: dict[str, Metrics] = {}
    # With `details`, the caller only reads them (the results table): a text met again is
    # parsed once and its dict shared (scored details repeat: a quarter of a million rows
    # at 20,000 consultations, a few hundred distinct texts in the soak's database).
    seen: dict[str, Any] | None = None if parse is None else {}
    select = f"SELECT consultation_id, name, value, {detail_sql} FROM metrics"
    tail = [*(name_list or []), *(parse or ())]
    if len(ids) > _CHUNK and 2 * len(ids) >= _consultations(db):
        # Most of the database's consultations (a results table of every run): one scan
        # of the table, the others' rows dropped here, beats looking each id up.
        wanted = set(ids)
        every = db.execute(f"{select} WHERE 1{name_sql}", [*(parse or ()), *tail]).fetchall()
        _collect([r for r in every if r[0] in wanted], out, seen)
        return out
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        rows = db.execute(f"{select} WHERE consultation_id IN ({','.join('?' * len(chunk))})"
                          f"{name_sql}", [*(parse or ()), *chunk, *tail])
        _collect(rows.fetchall(), out, seen)
    return out


def _consultations(db: Database) -> int:
    """How many consultations the database holds (every status)."""
    return int(db.execute("SELECT count(*) FROM consultations").fetchone()[0])


def _collect(rows: list[tuple[str, str, Any, str | None]], out: dict[str, Metrics],
             seen: dict[str, Any] | None) -> None:
    """Put each row's (value, detail) under its consultation and name; a NULL or empty
    detail is `{}` (a new one each), a text is parsed (once per text when `seen`)."""
    for cid, name, value, detail in rows:
        metrics = out.get(cid)
        if metrics is None:
            metrics = out[cid] = {}
        if not detail:
            metrics[name] = (value, {})
        elif seen is None:
            metrics[name] = (value, json.loads(detail) or {})
        else:
            parsed = seen.get(detail)
            if parsed is None:
                parsed = seen[detail] = json.loads(detail) or {}
            metrics[name] = (value, parsed)


def _names_sql(names: list[str]) -> str:
    return f"name IN ({','.join('?' * len(names))})"


def metric_hashes(db: Database, names: Iterable[str]) -> dict[str, dict[str, str | None]]:
    """consultation → metric name → content hash of the case each stored value was
    computed on, for these metric names (what tells a stale value from a current one)."""
    wanted = list(names)
    out: dict[str, dict[str, str | None]] = {}
    if wanted:
        for cid, name, digest in db.execute("SELECT consultation_id, name, case_hash FROM"
                                            f" metrics WHERE {_names_sql(wanted)}", wanted):
            out.setdefault(cid, {})[name] = digest
    return out
