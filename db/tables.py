"""What the results tables read in bulk, for databases of tens of thousands of
consultations (issue 18, the soak: `bedside results` on 20,000 in under 2 s).

- `consultation_rows`: the consultations as the table rules read them, as plain dicts
  (the values of `ConsultationSummary` without building one record each: no verdicts,
  report or meta, which the rules never read). Each configuration is parsed once per
  distinct configuration, its per-case keys (`case_hash`, `case_images`) put back per row.
- `metric_states`: for each finished consultation, whether a set of metrics is complete
  and computed on one version of its case (which one): from the consultation's mark
  (`metric_set`, written with its metrics), else aggregated in SQL. What tells `bedside
  results` which consultations still need scoring without reading every metric.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from sqlite_utils import Database

from core.errors import StorageError
from core.records.runs import MetricState

_PER_CASE = ("case_hash", "case_images")  # configuration keys that differ case by case
# The summary's columns, with the defaults the record gives a NULL.
_COLUMNS = ("id", "run_id", "case_id", "config_key", "doctor", "patient", "examiner",
            "status", "end_reason", "diagnosis", "correct", "doctor_turns", "tests_ordered",
            "prompt_tokens", "completion_tokens", "cost_usd", "started_at", "ended_at",
            "error", "origin")
# SQLite gives JSON true, false and null as 1, 0 and NULL: what JSON would give.
_SCALAR: dict[str, Any] = {"true": True, "false": False, "null": None}
_ZERO = ("doctor_turns", "tests_ordered", "prompt_tokens", "completion_tokens")


def _where(run_id: str | None, status: str | None, alias: str = "") -> tuple[str, list[Any]]:
    where: list[str] = [f"{alias}status != 'superseded'"]
    args: list[Any] = []
    if run_id is not None:
        where, args = [*where, f"{alias}run_id = ?"], [*args, run_id]
    if status is not None:
        where, args = [*where, f"{alias}status = ?"], [*args, status]
    return " AND ".join(where), args


def consultation_rows(db: Database, *, run_id: str | None = None,
                      status: str | None = None) -> list[dict[str, Any]]:
    """Consultations (not superseded; of one run, in one status, when given), by id, each a
    dict of the summary's own values (`correct` as stored, 0 / 1), its parsed config and
    `settings_key`, the config's text without its per-case keys (the same for every
    consultation of a configuration)."""
    where, args = _where(run_id, status)
    # The configuration without its per-case keys is the same for every case of a
    # configuration: parsed once. A text that is not JSON is parsed as it is.
    # NULL counts and cost are given their defaults in SQL (no Python work per row).
    columns = ", ".join(f"coalesce({c}, 0)" if c in _ZERO else
                        "coalesce(CAST(cost_usd AS REAL), 0.0)" if c == "cost_usd" else c
                        for c in _COLUMNS)
    sql = (f"SELECT {columns}, CASE WHEN json_valid(config) THEN"
           f" json_remove(config, {', '.join(repr('$.' + k) for k in _PER_CASE)})"
           f" ELSE config END AS shared, {_per_case_sql()}"
           f" FROM consultations WHERE {where} ORDER BY id")
    parsed: dict[str | None, dict[str, Any]] = {}
    out = []
    width = len(_COLUMNS)
    for values in db.execute(sql, args):
        row = dict(zip(_COLUMNS, values[:width], strict=True))
        shared = values[width]
        if shared not in parsed:
            parsed[shared] = (json.loads(shared) if shared else None) or {}
        config = parsed[shared]
        extra = values[width + 1:]
        if any(kind is not None for kind in extra[1::2]):
            config = {**config}
            for key, value, kind in zip(_PER_CASE, extra[::2], extra[1::2], strict=True):
                if kind is not None:
                    config[key] = _SCALAR.get(kind, value)
        row["config"] = config
        row["settings_key"] = shared  # one text per configuration: what to memoise on
        out.append(row)
    return out


def _per_case_sql() -> str:
    """Each per-case key's value (a scalar: a hash, a count) and its JSON type (NULL when
    the config has no such key)."""
    return ", ".join(
        f"CASE WHEN json_valid(config) THEN json_extract(config, '$.{k}') END,"
        f" CASE WHEN json_valid(config) THEN json_type(config, '$.{k}') END"
        for k in _PER_CASE)


def metric_states(db: Database, names: Iterable[str], *, run_id: str | None = None
                  ) -> list[MetricState]:
    """Every finished consultation (not superseded; of one run when given) with its case,
    its solver and the case version its metrics `names` were all computed on (None when one
    is missing or they differ).

    A consultation whose mark (`consultations.metric_set`, written with its metrics) names
    this set is answered from the mark; the others' metrics are aggregated, and those found
    complete are marked (when the file can be written), so the next call reads no metric."""
    from db.metrics import set_signature

    wanted = sorted(set(names))
    where, args = _where(run_id, "finished", "c.")
    prefix = set_signature(wanted) + " "
    solver = "CASE WHEN json_valid(c.config) THEN json_extract(c.config, '$.solver') END"
    out: list[MetricState] = []
    unmarked: list[tuple[str, str, Any]] = []
    for cid, case_id, found, mark in db.execute(
            f"SELECT c.id, c.case_id, {solver}, c.metric_set FROM consultations c"
            f" WHERE {where} ORDER BY c.id", args):
        if wanted and isinstance(mark, str) and mark.startswith(prefix):
            out.append(_state(cid, case_id, found, mark[len(prefix):]))
        else:
            unmarked.append((cid, case_id, found))
    if not wanted:
        return [_state(*row, None) for row in unmarked]
    hashes = _aggregate_and_mark(db, wanted, [row[0] for row in unmarked])
    out += [_state(*row, hashes.get(row[0])) for row in unmarked]
    return sorted(out, key=lambda s: s.consultation_id)


def _state(cid: str, case_id: str, solver: Any, computed_on: str | None) -> MetricState:
    return MetricState(consultation_id=cid, case_id=case_id,
                       solver=solver if isinstance(solver, str) else None,
                       computed_on=computed_on)


def _aggregate(db: Database, wanted: list[str], ids: list[str]) -> dict[str, str]:
    """consultation → the case version all of its metrics `wanted` were computed on, for
    those of `ids` whose set is complete and on one version."""
    out: dict[str, str] = {}
    marks = ",".join("?" * len(wanted))
    for start in range(0, len(ids), 500):  # SQLite caps the number of bound parameters
        chunk = ids[start:start + 500]
        sql = (f"SELECT consultation_id, count(*), count(case_hash), min(case_hash),"
               f" max(case_hash) FROM metrics WHERE consultation_id IN"
               f" ({','.join('?' * len(chunk))}) AND +name IN ({marks})"
               f" GROUP BY consultation_id")
        for cid, stored, hashed, low, high in db.execute(sql, [*chunk, *wanted]):
            if stored == len(wanted) and hashed == stored and low == high:
                out[cid] = low
    return out


def _aggregate_and_mark(db: Database, wanted: list[str], ids: list[str]) -> dict[str, str]:
    """`_aggregate`, and the consultations found complete marked, in one write transaction
    (no metric can change between the reading and the marking); a file that cannot be
    written is only read (the aggregate is read again next time)."""
    from db.metrics import set_mark

    if not ids:
        return {}
    try:
        with db.atomic():
            hashes = _aggregate(db, wanted, ids)
            db.conn.executemany("UPDATE consultations SET metric_set = ? WHERE id = ?",
                                [(set_mark(wanted, digest), cid)
                                 for cid, digest in hashes.items()])
            return hashes
    except (sqlite3.OperationalError, StorageError):  # read-only, full, busy: only slower
        return _aggregate(db, wanted, ids)
